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
 *
 * The hot path (one event to 10k subscribers) does no per-subscriber
 * allocation: a tick's lone frame waits in a field, not an array; the stream
 * is asked how much its socket has not taken only while something waits
 * there (`queued`); and while a subscriber is caught up its stream's pull is
 * parked (`park`), so the socket taking a chunk calls no JS.
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
  /** The list the last flush went through, emptied, kept for the next tick (no list grown anew per tick). */
  private spare: Subscriber[] = [];
  private scheduled = false;
  /** This flush's last joined run: the next subscriber's frames are most often the same run (the same events). */
  private lastRun: Uint8Array[] | null = null;
  private lastBytes: Uint8Array | null = null;
  /** This flush's frames by identity, and the runs of them joined so far (made when runs differ). */
  private ids: Map<Uint8Array, number> | null = null;
  private joined: Map<string, Uint8Array> | null = null;

  mark(subscriber: Subscriber): void {
    this.waiting.push(subscriber);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(this.flush);
    }
  }

  private readonly join = (frames: Uint8Array[]): Uint8Array => {
    const last = this.lastRun;
    if (last !== null && sameRun(last, frames)) return this.lastBytes!;
    const ids = (this.ids ??= new Map());
    const joined = (this.joined ??= new Map());
    const key = frames.map((f) => ids.get(f) ?? (ids.set(f, ids.size), ids.size - 1)).join(',');
    let bytes = joined.get(key);
    if (!bytes) joined.set(key, (bytes = concat(frames)));
    this.lastRun = frames;
    this.lastBytes = bytes;
    return bytes;
  };

  private readonly flush = (): void => {
    this.scheduled = false;
    const waiting = this.waiting;
    this.waiting = this.spare;
    for (const subscriber of waiting) subscriber.flush(this.join);
    waiting.length = 0;
    this.spare = waiting;
    this.lastRun = this.lastBytes = null;
    this.ids = this.joined = null;
  };
}

function sameRun(a: Uint8Array[], b: Uint8Array[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
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
  /** The first frame sent this tick, not yet handed to the stream; all of them (first included) once there are several. */
  private first: Uint8Array | null = null;
  private several: Uint8Array[] | null = null;
  private pendingBytes = 0;
  /**
   * Bytes handed to the stream the socket has not taken, as last read from
   * it; `settled` while that is 0 and nothing was handed over since, so the
   * stream need not be asked again (only `flush` adds to its queue).
   */
  private backlog = 0;
  private settled = true;
  /** Resolves the pull the stream waits on while this subscriber is caught up (`park`). */
  private wake: (() => void) | null = null;

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
    if (!this.settled) {
      // high-water mark 0, counted in bytes: -desiredSize is what waits in the stream's queue
      this.backlog = -(this.controller?.desiredSize ?? 0);
      this.settled = this.backlog <= 0;
    }
    return this.pendingBytes + this.backlog;
  }

  /** Whether its socket queue has room for more (else further events wait in the replay buffer). */
  get hasRoom(): boolean {
    return this.queued < this.queueBytes;
  }

  /** Queues a frame for the socket at the end of this tick (the caller checked `hasRoom`, or the frame is tiny: hello, reset). */
  send(frame: Uint8Array): void {
    if (this.closed || !this.controller) return;
    if (this.first === null) {
      this.first = frame;
      this.batch.mark(this);
    } else if (this.several === null) this.several = [this.first, frame];
    else this.several.push(frame);
    this.pendingBytes += frame.byteLength;
    const queued = this.queued;
    if (queued > this.peakQueued) this.peakQueued = queued;
  }

  /** Hands this tick's frames to the stream as one chunk (`join` makes it of several). */
  flush(join: (frames: Uint8Array[]) => Uint8Array = concat): void {
    const { first, several } = this;
    if (first === null) return;
    this.first = null;
    this.several = null;
    this.pendingBytes = 0;
    if (this.closed) return;
    this.settled = false;
    try {
      this.controller?.enqueue(several === null ? first : join(several));
    } catch {
      // the client went away this tick
    }
  }

  /**
   * What the stream's pull returns while this subscriber is caught up: a
   * promise that settles when it falls behind (`unpark`). The stream does not
   * call pull again while one is pending, so a caught-up subscriber costs no
   * pull call per chunk its socket takes; once it is behind, each chunk taken
   * calls pull, which hands it more from the buffer (stream/hub `pump`).
   */
  park(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  /** Settles the parked pull: the stream calls pull at the next chunk its socket takes (or now, if it waits for one). */
  unpark(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
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
    this.first = null;
    this.several = null;
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
