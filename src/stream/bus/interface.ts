/**
 * @module stream/bus/interface
 * The event bus that jobs publish to and the realtime hub reads from. The
 * database is its source of truth: every event is appended to the durable
 * event log (db/repositories/stream-events) — in the transaction that stores
 * what it announces, or in one of its own — at a dense position, and the bus
 * delivers the log's events to each instance's hub in position order, each
 * exactly once. Redis (`REDIS_URL`) only carries them between instances
 * (stream/bus/redis); what it did not carry (an outage, a writer killed
 * before relaying) is read from the log, and positions the log no longer
 * holds are a gap the hub answers with `reset`. Payloads are DESIGN §4's SSE
 * payloads; ids are stream/event-id's (the position).
 */

import { AlertDispatchedBusEvent, BacktestProgressBusEvent, BreakoutNewEvent, StateChangeEvent } from '../../domain/events';

/** Each channel's payload schema (domain/events); `BusEvents` is their static types. */
export const BUS_SCHEMAS = {
  'breakouts.new': BreakoutNewEvent,
  'breakouts.state_change': StateChangeEvent,
  /**
   * An alert sent out. `userId` names the owner of the rule that fired (absent
   * for the service's own alerts); only the owner's stream sees `ruleId` and
   * `rule` (stream/visibility).
   */
  'alerts.dispatched': AlertDispatchedBusEvent,
  /** A universe backtest job moved (jobs/backtest): only its owner's (`userId`) signed-in streams receive it. */
  'backtest.progress': BacktestProgressBusEvent,
} as const;

export interface BusEvents {
  'breakouts.new': BreakoutNewEvent;
  'breakouts.state_change': StateChangeEvent;
  'alerts.dispatched': AlertDispatchedBusEvent;
  'backtest.progress': BacktestProgressBusEvent;
}
export type Channel = keyof BusEvents;

/** Every channel, in the order the docs list them. */
export const CHANNELS = ['breakouts.new', 'breakouts.state_change', 'alerts.dispatched', 'backtest.progress'] as const satisfies readonly Channel[];

export function isChannel(name: string): name is Channel {
  return (CHANNELS as readonly string[]).includes(name);
}

/** An event to publish (or to append in a transaction): its channel and payload. */
export type BusEventInput<C extends Channel = Channel> = { [K in C]: { channel: K; payload: BusEvents[K] } }[C];

/** An event as a committed transaction appended it to the log (db/repositories/stream-events). */
export type LoggedBusEvent = BusEventInput & { position: number; recordedAt: Date };

/** One event as the bus delivers it: its log position and id (stream/event-id), when it was recorded, channel and payload. */
export type BusEvent<C extends Channel = Channel> = { [K in C]: { id: string; position: number; recordedAt: number; channel: K; payload: BusEvents[K] } }[C];

/** Where delivery starts (see `EventBus.open`). */
export interface BusOpening {
  /** The position of the last event before live delivery starts; every event after it reaches the subscribers. */
  position: number;
  /** Up to the asked number of the latest events at or before `position`, oldest first. */
  history: BusEvent[];
}

/** Positions the bus could not deliver (the log no longer held them): delivery goes on after `resumeAfter`. */
export interface BusGap {
  /** The last position delivered before the gap. */
  lastDelivered: number;
  /** The last position of the gap; the next event delivered is the one after it. */
  resumeAfter: number;
}

/** What the bus says about itself (health `checks.bus`, the metrics). */
export interface BusHealth {
  status: 'ok' | 'degraded' | 'down';
  /** Why it is not `ok`. */
  message?: string;
  /** `memory` (this instance only) or `redis` (carried between instances). */
  transport: 'memory' | 'redis';
  /** Whether the transport carries events now (always for `memory`). */
  transportUp: boolean;
  /** The last position delivered here (-1 before the bus opened). */
  head: number;
  /** Events delivered here but not yet known to be in the transport (Redis). */
  relayLag: number;
  /** Gaps given up since start (each a `reset` to this instance's subscribers). */
  gaps: number;
}

export interface EventBus {
  readonly name: 'memory' | 'redis';
  /** Whether other instances publish into the same bus (then an id may be seen elsewhere first). */
  readonly shared: boolean;
  /**
   * Appends the event to the log in a transaction of its own, then delivers it
   * (every subscriber of every instance). Events published in one tick go in
   * one transaction. Never throws: an event the log cannot take (the database
   * is unreachable) is logged and not delivered.
   */
  publish<C extends Channel>(channel: C, payload: BusEvents[C]): void;
  /** Delivers events a transaction appended to the log (`appendIn`) once it committed. */
  announce(events: readonly LoggedBusEvent[]): void;
  /** Listens to one channel; events arrive in position order. Returns the unsubscribe function. */
  subscribe<C extends Channel>(channel: C, listener: (payload: BusEvents[C], event: BusEvent<C>) => void): () => void;
  /** Listens for gaps (positions never to be delivered here). Returns the unsubscribe function. */
  onGap(listener: (gap: BusGap) => void): () => void;
  /**
   * Starts delivery (idempotent) and says from where, with the recent history
   * (`limit` events at most, none older than `maxAgeMs`) a replay buffer starts
   * from: nothing falls between the history and live delivery.
   */
  open(limit: number, maxAgeMs: number): Promise<BusOpening>;
  /** Reads the log now when `position` is ahead of what was delivered here (a client resuming with an id from another instance). */
  catchUp(position: number): Promise<void>;
  health(): BusHealth;
  /** Starts delivery when nothing has yet (a health round exercises it), then says how it is. */
  check(): Promise<BusHealth>;
  /** Starts delivery (idempotent; the first subscriber or `open` starts it too): the log's reads and Redis's, each a loop on the background poller. */
  start(): Promise<void>;
  /** Ends those loops at their safe point, for good (background/list stops it last of the background workers); events announced here are still delivered here. */
  stop(): Promise<void>;
  close(): Promise<void>;
}
