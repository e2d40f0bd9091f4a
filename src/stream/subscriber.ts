/**
 * @module stream/subscriber
 * One open SSE connection as the hub sees it: what it asked for, who holds it,
 * where it stands, and its queue. The queue is the response stream's own
 * (high-water mark 0, counted in bytes), so what is queued is exactly what the
 * socket has not taken yet; frames in it are shared with every other
 * subscriber. A subscriber whose queue would pass `queueBytes` has stopped
 * reading: it is dropped (its queue discarded at once, its socket closed).
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
  /** Closes the socket behind the stream (the route sets the request's idle timeout short). */
  onDrop?: () => void;
}

export class Subscriber {
  readonly connectionId: string;
  readonly channels: ReadonlySet<Channel>;
  readonly symbols: readonly string[];
  readonly principal: StreamPrincipal;
  readonly key: string;
  /** `replay`: catching up from the buffer at `cursor`; `live`: the hub pushes to it; `closed`: gone. */
  state: 'replay' | 'live' | 'closed' = 'replay';
  /** Absolute index into the replay buffer of the next entry to send (replay state). */
  cursor = 0;
  /** Events at or before this id are not sent (set after a resume, cleared once passed). */
  skipThrough: EventId | null = null;
  /** Most bytes ever waiting in its queue. */
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
    this.onDrop = init.onDrop;
  }

  /** Bytes waiting for the socket. */
  get queued(): number {
    return -(this.controller?.desiredSize ?? 0);
  }

  /** Room for `bytes` more without passing the queue bound. */
  fits(bytes: number): boolean {
    return this.queued + bytes <= this.queueBytes;
  }

  /** Queues a frame; false when it does not fit (the caller drops the subscriber). */
  send(frame: Uint8Array): boolean {
    const controller = this.controller;
    if (!controller || this.state === 'closed') return true;
    const queued = -(controller.desiredSize ?? 0);
    if (queued + frame.byteLength > this.queueBytes) return false;
    controller.enqueue(frame);
    if (queued + frame.byteLength > this.peakQueued) this.peakQueued = queued + frame.byteLength;
    return true;
  }

  /** Ends the stream in order (the client reconnects with its last id). */
  end(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    try {
      this.controller?.close();
    } catch {
      // already closed by the client
    }
  }

  /** Cuts a client that stopped reading: the queue is discarded now, the socket closed (the hub logs why). */
  drop(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.onDrop?.();
    try {
      // No reason object: Bun prints an errored response body's reason like an uncaught error, once per drop.
      this.controller?.error();
    } catch {
      // already closed by the client
    }
  }
}
