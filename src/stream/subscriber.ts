/**
 * @module stream/subscriber
 * One open SSE connection as the hub sees it: what it asked for, who holds it,
 * where it stands, and its queue. Its queue has two parts. Up to `queueBytes`
 * are handed to the response stream (high-water mark 0, counted in bytes, so
 * what is there is exactly what the socket has not taken yet); frames in it
 * are shared with every other subscriber. Past that, its events wait where
 * they already are — in the hub's replay buffer — and the subscriber keeps
 * only a cursor into it, taking more as its socket drains. So a burst costs a
 * healthy client nothing, and a client that stops reading holds a cursor, not
 * bytes, until the hub drops it (stream/hub).
 */
import type { Channel } from './bus';
import type { EventId } from './event-id';
import type { StreamPrincipal } from './visibility';

export interface SubscriberInit {
  connectionId: string;
  channels: ReadonlySet<Channel>;
  symbols: readonly string[];
  principal: StreamPrincipal;
  /** The key per-client caps count under (stream/visibility `connectionKey`). */
  key: string;
  queueBytes: number;
  now: number;
  /** Closes the socket behind the stream (the route sets the request's idle timeout short). */
  onDrop?: () => void;
}

/** `cursor` of a subscriber that has been sent everything. */
export const CAUGHT_UP = -1;

export class Subscriber {
  readonly connectionId: string;
  readonly channels: ReadonlySet<Channel>;
  readonly symbols: readonly string[];
  readonly principal: StreamPrincipal;
  readonly key: string;
  closed = false;
  /** Absolute index into the replay buffer of the next event to consider, or CAUGHT_UP. */
  cursor = CAUGHT_UP;
  /** Events at or before this id are not sent (set after a resume, cleared once passed). */
  skipThrough: EventId | null = null;
  /** When it last took something (or was caught up with room): a lagging one that stops progressing is dropped. */
  progressAt: number;
  /** Most bytes ever waiting in its socket queue. */
  peakQueued = 0;
  controller?: ReadableStreamDefaultController<Uint8Array>;
  private readonly queueBytes: number;
  private readonly onDrop?: () => void;

  constructor(init: SubscriberInit) {
    this.connectionId = init.connectionId;
    this.channels = init.channels;
    this.symbols = init.symbols;
    this.principal = init.principal;
    this.key = init.key;
    this.queueBytes = init.queueBytes;
    this.progressAt = init.now;
    this.onDrop = init.onDrop;
  }

  /** Bytes handed to the socket and not yet taken. */
  get queued(): number {
    return -(this.controller?.desiredSize ?? 0);
  }

  /** Whether its socket queue has room for more (else further events wait in the replay buffer). */
  get hasRoom(): boolean {
    return this.queued < this.queueBytes;
  }

  /** Hands a frame to the socket (the caller checked `hasRoom`, or the frame is tiny: hello, reset). */
  send(frame: Uint8Array): void {
    if (this.closed || !this.controller) return;
    this.controller.enqueue(frame);
    const queued = this.queued;
    if (queued > this.peakQueued) this.peakQueued = queued;
  }

  /** Ends the stream in order (the client reconnects with its last id). */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.controller?.close();
    } catch {
      // already closed by the client
    }
  }

  /** Cuts a client that stopped reading: its socket queue is discarded now, the socket closed (the hub logs why). */
  drop(): void {
    if (this.closed) return;
    this.closed = true;
    this.onDrop?.();
    try {
      // No reason object: Bun prints an errored response body's reason like an uncaught error, once per drop.
      this.controller?.error();
    } catch {
      // already closed by the client
    }
  }
}
