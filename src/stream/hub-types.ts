/**
 * @module stream/hub-types
 * What the SSE hub (./hub) is built with, what a stream is opened with, and
 * what the hub reports of itself (`/metrics`, `/api/health`).
 */
import type { Logger } from '../log';
import type { Channel, EventBus } from './bus';
import type { StreamCaps } from './caps';
import type { QuoteSource } from './quotes';
import type { StreamPrincipal } from './visibility';

export interface HubOptions {
  bus: EventBus;
  quotes: QuoteSource;
  log: Logger;
  pingMs: number;
  /** The `retry:` a client is told in `hello` (its reconnection delay). */
  retryMs: number;
  replay: { size: number; maxAgeMs: number };
  quoteIntervalMs: number;
  quotePollMs: number;
  /** The instance's connection caps, shared with its other event streams (GraphQL's): one budget of sockets. */
  caps: StreamCaps;
  queueBytes: number;
  /** A subscriber with events waiting that takes nothing for this long is dropped. */
  stallMs: number;
  /** Seconds a client is told to wait (`Retry-After`) when the bus cannot be reached. */
  retryAfterSeconds: number;
  now?: () => number;
}

export interface OpenRequest {
  channels: readonly Channel[];
  symbols: readonly string[];
  principal: StreamPrincipal;
  key: string;
  /** `Last-Event-ID` (or `lastEventId`), as sent. */
  lastEventId: string | null;
  onDrop?: () => void;
}

export interface HubStats {
  connections: number;
  dropped: number;
  /** Most bytes any subscriber ever had waiting. */
  peakQueuedBytes: number;
  /** Events sent from the buffer (a resume's replay, or catching up after a burst). */
  replayed: number;
  /** Events handed to subscribers since start (one per subscriber that received it; pings not counted). */
  delivered: number;
  /** Subscribers with events waiting for them in the buffer. */
  lagging: number;
  buffered: number;
  head: string;
  watchedSymbols: number;
}
