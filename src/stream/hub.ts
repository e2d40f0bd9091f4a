/**
 * @module stream/hub
 * The SSE hub of one instance: it reads every bus event once, encodes its
 * frame once, keeps it in the replay buffer and queues the same bytes to each
 * subscriber of its channel; it sends `: ping` to all every `pingMs`; and it
 * turns the quote feed's ticks into `quote` events for the subscribers of each
 * symbol. A reconnecting client is replayed what it missed from the buffer —
 * paced by its socket, in id order, before anything live — or told `reset`
 * when its id is older than the buffer. Mercure's hub has the same duties
 * (spec/mercure.md § Reconciliation, § Active Subscriptions).
 *
 * A subscriber's queue is its place in that buffer (stream/subscriber): it is
 * handed at most `queueBytes` at a time and takes more as its socket drains.
 * One that falls behind the whole buffer, or takes nothing for `stallMs` while
 * events wait for it, has stopped reading: it is dropped. Memory is bounded by
 * the caps: `replay.size` shared frames, and per subscriber a cursor and at
 * most `queueBytes` (plus one frame) handed to its socket.
 *
 * @example
 * const hub = new StreamHub({ bus, quotes, log, ...limits });
 * await hub.start();
 * const stream = await hub.open({ channels, symbols, principal: null, key: 'ip:127.0.0.1', lastEventId: null });
 */
import type { QuoteEvent } from '../domain/events';
import { newId } from '../ids';
import { AppError } from '../errors';
import { CHANNELS, type BusEvent, type BusGap, type Channel } from './bus';
import { frameFor, replayEntry } from './entries';
import { busPosition, compareEventIds, formatEventId, parseEventId, positionId, ZERO_ID, type EventId } from './event-id';
import { encodeFrame, PING_FRAME, reconnectFrame } from './frames';
import type { HubOptions, HubStats, OpenRequest } from './hub-types';
import { QuoteRoutes } from './quote-routes';
import { ReplayBuffer } from './replay';
import { CAUGHT_UP, FrameBatch, Subscriber } from './subscriber';

export type { HubOptions, HubStats, OpenRequest } from './hub-types';

export class StreamHub {
  private readonly live = new Map<Channel, Set<Subscriber>>(CHANNELS.map((c) => [c, new Set()]));
  private readonly all = new Set<Subscriber>();
  /** Subscribers whose cursor is in the buffer (not caught up). */
  private readonly lagging = new Set<Subscriber>();
  private readonly quotes: QuoteRoutes;
  private readonly batch = new FrameBatch();
  private buffer!: ReplayBuffer;
  private head!: EventId;
  private ownSeq = 0;
  private starting?: Promise<void>;
  private timers: ReturnType<typeof setInterval>[] = [];
  private unsubscribe: (() => void)[] = [];
  private counts = { dropped: 0, peakQueued: 0, replayed: 0, delivered: 0 };
  private readonly now: () => number;

  constructor(private readonly options: HubOptions) {
    this.now = options.now ?? Date.now;
    const feed = { source: options.quotes, intervalMs: options.quoteIntervalMs, pollMs: options.quotePollMs, log: options.log, now: this.now };
    this.quotes = new QuoteRoutes(feed, (quote, recipients) => this.sendQuote(quote, recipients));
  }

  /** Subscribes to the bus and fills the buffer from its recent history (idempotent). */
  start(): Promise<void> {
    this.starting ??= this.subscribe().catch((error: unknown) => {
      this.starting = undefined; // asked again by the next stream
      throw error;
    });
    return this.starting;
  }

  private async subscribe(): Promise<void> {
    for (const off of this.unsubscribe) off(); // a failed earlier start
    const { bus, replay, pingMs, quoteIntervalMs } = this.options;
    const held: BusEvent[] = [];
    this.unsubscribe = CHANNELS.map((channel) => bus.subscribe(channel, (_payload, event) => (this.buffer ? this.receive(event) : held.push(event))));
    this.unsubscribe.push(bus.onGap((gap) => this.lost(gap)));
    const { position, history } = await bus.open(replay.size, replay.maxAgeMs);
    const start = positionId(position);
    const oldest = history.length > 0 ? positionId(history[0]!.position) : null;
    // Every event after the floor is held: the history's first, or (without history) where live delivery starts.
    this.buffer = new ReplayBuffer(replay.size, replay.maxAgeMs, oldest ?? start);
    this.head = ZERO_ID;
    for (const event of history) this.receive(event, event.recordedAt);
    if (compareEventIds(this.head, start) < 0) this.head = start;
    for (const event of held) this.receive(event);
    if (pingMs > 0) this.timers.push(setInterval(() => this.ping(), pingMs));
    this.timers.push(setInterval(() => this.quotes.tick(), quoteIntervalMs));
    this.timers.push(setInterval(() => this.sweep(), Math.max(10, Math.min(1000, this.options.stallMs / 2))));
  }

  /**
   * Admits a connection (503 past the instance's cap, 429 past the key's) and
   * returns its event stream: `hello`, then a replay or a `reset` when the
   * request resumes, then live events.
   */
  async open(request: OpenRequest): Promise<ReadableStream<Uint8Array>> {
    await this.start().catch((error: unknown) => {
      this.options.log.error('stream: the event bus cannot be read', { error: String(error) });
      throw new AppError('unavailable', 'The event stream is unavailable: its event bus cannot be reached; retry later', { 'retry-after': String(this.options.retryAfterSeconds) });
    });
    const resumeFrom = request.lastEventId === null ? null : parseEventId(request.lastEventId);
    // An id ahead of this instance (another instance gave it out a moment ago): the log is read now.
    if (resumeFrom && resumeFrom.position > this.head.position) await this.options.bus.catchUp(resumeFrom.position);
    await this.options.caps.admit(request.key);
    const subscriber = new Subscriber({
      connectionId: newId('sse'),
      channels: new Set(request.channels),
      symbols: request.symbols,
      principal: request.principal,
      key: request.key,
      queueBytes: this.options.queueBytes,
      now: this.now(),
      onDrop: request.onDrop,
      batch: this.batch,
    });
    this.all.add(subscriber);
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          subscriber.controller = controller;
          this.greet(subscriber, request.lastEventId, resumeFrom);
        },
        pull: () => this.pull(subscriber),
        cancel: () => this.detach(subscriber),
      },
      { highWaterMark: 0, size: (chunk) => chunk?.byteLength ?? 0 },
    );
  }

  stats(): HubStats {
    let peak = this.counts.peakQueued;
    for (const s of this.all) peak = Math.max(peak, s.peakQueued);
    return {
      connections: this.all.size,
      dropped: this.counts.dropped,
      peakQueuedBytes: peak,
      replayed: this.counts.replayed,
      delivered: this.counts.delivered,
      lagging: this.lagging.size,
      buffered: this.buffer?.size ?? 0,
      head: this.head ? formatEventId(this.head) : '',
      watchedSymbols: this.quotes.watched,
    };
  }

  /**
   * Ends every stream in order (clients reconnect elsewhere with their last id) and stops.
   * With `reconnectMs` (a shutdown: cli/shutdown), each stream's last frame is a comment and a
   * `retry:` of about that many ms (no event: WHATWG HTML §9.2.6 dispatches none for a block without
   * `data`), so an EventSource reconnects that soon instead of after the usual `retry` (SSE_RETRY_MS),
   * each at its own moment within [reconnectMs/2, reconnectMs] so the instances left are not met by all
   * of them at once; its `hello` there sets the usual delay again.
   */
  async close(reconnectMs?: number): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    for (const off of this.unsubscribe.splice(0)) off();
    for (const subscriber of [...this.all]) {
      if (reconnectMs !== undefined) subscriber.send(reconnectFrame(Math.round(reconnectMs * (0.5 + Math.random() / 2))));
      subscriber.end();
      this.detach(subscriber);
    }
  }

  /** `hello` (with `retry:`), then where the client stands: caught up, behind (replayed from the buffer), or reset. */
  private greet(subscriber: Subscriber, asked: string | null, resumeFrom: EventId | null): void {
    const covered = resumeFrom !== null && compareEventIds(busPosition(resumeFrom), this.head) <= 0 && this.buffer.covers(busPosition(resumeFrom));
    // A resumed client's ids go on from its own: the next after the one it sent.
    const helloId = covered ? { ...resumeFrom, sub: resumeFrom.sub + 1 } : this.ownId();
    const hello = { connectionId: subscriber.connectionId, channels: [...subscriber.channels], symbols: [...subscriber.symbols], serverTime: new Date(this.now()).toISOString() };
    subscriber.send(encodeFrame({ id: formatEventId(helloId), event: 'hello', data: hello, retry: this.options.retryMs }));
    if (asked !== null && !covered) {
      const reason = resumeFrom && compareEventIds(busPosition(resumeFrom), this.buffer.floor) < 0 ? 'too_old' : 'unknown_id';
      const reset = { reason, lastEventId: asked, resumeFrom: formatEventId(this.head) };
      subscriber.send(encodeFrame({ id: formatEventId(this.ownId()), event: 'reset', data: reset }));
    }
    for (const channel of subscriber.channels) this.live.get(channel)!.add(subscriber);
    this.quotes.add(subscriber);
    if (covered) {
      subscriber.skipThrough = helloId;
      const from = this.buffer.seek(busPosition(resumeFrom));
      if (from < this.buffer.end) this.fallBehind(subscriber, from);
      this.pump(subscriber);
    }
  }

  /** Its next events wait in the buffer from `index` on; it takes them as its socket drains (its stream pulls again). */
  private fallBehind(subscriber: Subscriber, index: number): void {
    subscriber.cursor = index;
    this.lagging.add(subscriber);
    subscriber.unpark();
  }

  /** The stream's pull (its socket took a chunk and wants more): more from the buffer if behind; parked once caught up. */
  private pull(subscriber: Subscriber): Promise<void> | undefined {
    this.pump(subscriber);
    return subscriber.cursor === CAUGHT_UP && !subscriber.closed ? subscriber.park() : undefined;
  }

  /** Hands a subscriber that is behind what fits its socket queue from the buffer; caught up at the end. */
  private pump(subscriber: Subscriber): void {
    if (subscriber.cursor === CAUGHT_UP || subscriber.closed) return;
    if (this.buffer.lost(subscriber.cursor)) return this.dropSlow(subscriber, 'fell behind the whole replay buffer');
    const { buffer } = this;
    let sent = false;
    while (subscriber.cursor < buffer.end && subscriber.hasRoom) {
      const entry = buffer.at(subscriber.cursor++)!;
      const frame = subscriber.channels.has(entry.channel) ? frameFor(entry, subscriber.principal) : null;
      if (frame === null) continue;
      if (this.deliver(subscriber, entry.id, frame)) {
        sent = true;
        this.counts.replayed++;
      }
    }
    if (sent) subscriber.progressAt = this.now();
    if (subscriber.cursor >= buffer.end) {
      subscriber.cursor = CAUGHT_UP;
      this.lagging.delete(subscriber);
      this.quotes.owe(subscriber); // the current quotes, skipped while it was behind
    }
  }

  private detach(subscriber: Subscriber): void {
    if (!this.all.delete(subscriber)) return;
    subscriber.closed = true;
    subscriber.unpark();
    this.lagging.delete(subscriber);
    this.counts.peakQueued = Math.max(this.counts.peakQueued, subscriber.peakQueued);
    this.options.caps.release(subscriber.key);
    for (const channel of subscriber.channels) this.live.get(channel)!.delete(subscriber);
    this.quotes.remove(subscriber);
  }

  private dropSlow(subscriber: Subscriber, reason: string): void {
    this.counts.dropped++;
    this.options.log.warn('stream: dropped a client that stopped reading', { connectionId: subscriber.connectionId, reason, queuedBytes: subscriber.queued });
    subscriber.drop();
    this.detach(subscriber);
  }

  /** One bus event: into the buffer, then to every live subscriber of its channel. */
  private receive(event: BusEvent, receivedAt = this.now()): void {
    if (event.position <= this.head.position) return; // already held (history overlapping live delivery)
    const id = positionId(event.position);
    this.head = id;
    this.ownSeq = 0;
    const entry = replayEntry(event, id, receivedAt);
    const expired = this.buffer.expire(receivedAt);
    const evicted = this.buffer.push(entry) || expired;
    const index = this.buffer.end - 1;
    const shared = entry.owner ? null : entry.frame; // the same bytes for everyone, unless the owner sees more
    for (const subscriber of this.live.get(event.channel)!) {
      if (subscriber.cursor !== CAUGHT_UP) continue; // behind: it takes this one from the buffer in turn
      const frame = shared ?? frameFor(entry, subscriber.principal);
      if (frame === null) continue; // someone else's
      if (subscriber.hasRoom) {
        this.deliver(subscriber, id, frame);
        subscriber.progressAt = receivedAt;
      } else this.fallBehind(subscriber, index);
    }
    if (evicted) for (const subscriber of this.lagging) if (this.buffer.lost(subscriber.cursor)) this.dropSlow(subscriber, 'fell behind the whole replay buffer');
  }

  /**
   * Events the bus could not deliver here (stream/bus `onGap`): every
   * subscriber is told `reset` (refetch over REST), those behind are caught up
   * past what they missed, and no resume reaches across the gap (the buffer
   * starts again after it).
   */
  private lost(gap: BusGap): void {
    if (!this.buffer) return; // not started: the buffer will start after the gap
    const resumeAfter = positionId(gap.resumeAfter);
    if (compareEventIds(resumeAfter, this.head) > 0) {
      this.head = resumeAfter;
      this.ownSeq = 0;
    }
    this.buffer.restart(this.head);
    const reset = { reason: 'gap', lastEventId: formatEventId(positionId(gap.lastDelivered)), resumeFrom: formatEventId(this.head) };
    const frame = encodeFrame({ id: formatEventId(this.ownId()), event: 'reset', data: reset });
    for (const subscriber of this.all) {
      if (subscriber.cursor !== CAUGHT_UP) {
        subscriber.cursor = CAUGHT_UP;
        this.lagging.delete(subscriber);
        this.quotes.owe(subscriber);
      }
      subscriber.send(frame);
    }
  }

  /** Sends unless a resume already covered it; whether it sent. */
  private deliver(subscriber: Subscriber, id: EventId, frame: Uint8Array): boolean {
    if (subscriber.skipThrough) {
      if (compareEventIds(id, subscriber.skipThrough) <= 0) return false;
      subscriber.skipThrough = null;
    }
    subscriber.send(frame);
    this.counts.delivered++;
    return true;
  }

  /** The id of an event the hub makes itself: after the last bus event (stream/event-id). */
  private ownId(): EventId {
    return { position: this.head.position, sub: ++this.ownSeq };
  }

  private ping(): void {
    for (const subscriber of this.all) if (subscriber.hasRoom) subscriber.send(PING_FRAME);
  }

  /** Ages the buffer out, and drops whoever is behind and has taken nothing for `stallMs`. */
  private sweep(): void {
    const now = this.now();
    this.buffer.expire(now);
    for (const subscriber of this.lagging) {
      if (this.buffer.lost(subscriber.cursor)) this.dropSlow(subscriber, 'fell behind the whole replay buffer');
      else if (now - subscriber.progressAt > this.options.stallMs) this.dropSlow(subscriber, `took nothing for ${this.options.stallMs} ms`);
    }
  }

  /** One quote event to those caught up with room; the others are owed the then-current quote at a later tick. */
  private sendQuote(quote: QuoteEvent, recipients: Iterable<Subscriber>): void {
    const id = this.ownId();
    const frame = encodeFrame({ id: formatEventId(id), event: 'quote', data: quote });
    for (const subscriber of recipients) {
      if (subscriber.cursor === CAUGHT_UP && subscriber.hasRoom) this.deliver(subscriber, id, frame);
      else this.quotes.owe(subscriber, quote.symbol);
    }
  }
}
