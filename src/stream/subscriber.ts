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
 *
 * Frames sent within one tick (a scan's burst of events, a Redis read's
 * batch, a resume's replay) reach the socket as one chunk, so one write: a
 * subscriber's frames wait until the tick's microtasks run (`FrameBatch`),
 * then go to its stream together. A lone frame goes as it is (the shared
 * bytes); the same run of frames for many subscribers is joined once.
 * Delivery costs about one socket write per subscriber per tick, whatever
 * the number of events in it.
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
  /** Where its frames of a tick wait to be handed over together (one per hub). */
  batch: FrameBatch;
}

/**
 * The subscribers sent something in the current tick; at its end (a
 * microtask) each hands its frames to its stream as one chunk. Runs of frames
 * several subscribers share are joined once per tick.
 */
export class FrameBatch {
  private waiting: Subscriber[] = [];
  private scheduled = false;

  mark(subscriber: Subscriber): void {
    this.waiting.push(subscriber);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const waiting = this.waiting;
    this.waiting = [];
    const ids = new Map<Uint8Array, number>();
    const joined = new Map<string, Uint8Array>();
    const join = (frames: Uint8Array[]): Uint8Array => {
      const key = frames.map((f) => ids.get(f) ?? (ids.set(f, ids.size), ids.size - 1)).join(',');
      let bytes = joined.get(key);
      if (!bytes) joined.set(key, (bytes = concat(frames)));
      return bytes;
    };
    for (const subscriber of waiting) subscriber.flush(join);
  };
}

function concat(frames: Uint8Array[]): Uint8Array {
  let size = 0;
  for (const frame of frames) size += frame.byteLength;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const frame of frames) {
    bytes.set(frame, at);
    at += frame.byteLength;
  }
  return bytes;
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
  private readonly batch: FrameBatch;
  /** Frames sent this tick, not yet handed to the stream. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  constructor(init: SubscriberInit) {
    this.connectionId = init.connectionId;
    this.channels = init.channels;
    this.symbols = init.symbols;
    this.principal = init.principal;
    this.key = init.key;
    this.queueBytes = init.queueBytes;
    this.progressAt = init.now;
    this.onDrop = init.onDrop;
    this.batch = init.batch;
  }

  /** Bytes sent and not yet taken by the socket (this tick's included). */
  get queued(): number {
    return this.pendingBytes - (this.controller?.desiredSize ?? 0);
  }

  /** Whether its socket queue has room for more (else further events wait in the replay buffer). */
  get hasRoom(): boolean {
    return this.queued < this.queueBytes;
  }

  /** Queues a frame for the socket at the end of this tick (the caller checked `hasRoom`, or the frame is tiny: hello, reset). */
  send(frame: Uint8Array): void {
    if (this.closed || !this.controller) return;
    if (this.pending.length === 0) this.batch.mark(this);
    this.pending.push(frame);
    this.pendingBytes += frame.byteLength;
    const queued = this.queued;
    if (queued > this.peakQueued) this.peakQueued = queued;
  }

  /** Hands this tick's frames to the stream as one chunk (`join` makes it of several). */
  flush(join: (frames: Uint8Array[]) => Uint8Array = concat): void {
    const frames = this.pending;
    if (frames.length === 0) return;
    this.pending = [];
    this.pendingBytes = 0;
    if (this.closed) return;
    try {
      this.controller?.enqueue(frames.length === 1 ? frames[0]! : join(frames));
    } catch {
      // the client went away this tick
    }
  }

  /** Ends the stream in order, after what was sent (the client reconnects with its last id). */
  end(): void {
    if (this.closed) return;
    this.flush();
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
    this.pending = [];
    this.pendingBytes = 0;
    this.onDrop?.();
    try {
      // No reason object: Bun prints an errored response body's reason like an uncaught error, once per drop.
      this.controller?.error();
    } catch {
      // already closed by the client
    }
  }
}
