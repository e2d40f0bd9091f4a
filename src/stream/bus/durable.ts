/**
 * @module stream/bus/durable
 * The event bus over the durable log (stream/bus/interface). It delivers the
 * log's events to this instance's listeners in position order, each exactly
 * once, whichever way they come:
 *
 * - announced by a transaction of this instance once it committed (at once,
 *   in the same tick: the in-process path costs a few map operations);
 * - carried by Redis from another instance (stream/bus/redis), when one is
 *   configured, and relayed to it from here (stream/bus/relay);
 * - read from the log: every `pollMs.steady` (Redis up, or none) and every
 *   `pollMs.outage` while Redis is down, and at once when a position arrives
 *   with a hole before it (positions are dense, so a hole is always seen).
 *   The log's reads (with the relay's catch-up and pruning) run on the
 *   background poller (src/poller), as Redis's reads do; `start` and
 *   `stop` are the bus's place in the ordered list of background workers
 *   (background/list).
 *
 * A hole the log can no longer fill (its events were pruned, or a stored
 * event does not read as one) is given up as a gap: the listeners of
 * `onGap` are told (the hub sends `reset`), never silence. That is the
 * Centrifugo/Mercure model: the durable history is the source, the broker
 * only carries, and a gap history cannot cover is a reset.
 *
 * @example
 * const bus = new DurableBus({ log: new StreamEventsRepository(db), logger, keep: { events: 10_000, ms: 3_600_000 } });
 * bus.subscribe('breakouts.new', (payload) => show(payload.signal));
 * await bus.open(100, 60_000);
 * bus.publish('breakouts.new', { signal });
 */
import { Poller } from '../../poller';
import type { Logger } from '../../log';
import { busEvent, checkedEvent } from './check';
import type { BusEvent, BusEventInput, BusEvents, BusGap, BusHealth, BusOpening, Channel, EventBus, LoggedBusEvent } from './interface';
import type { EventLog, StoredStreamEvent } from './log';
import type { RedisTransport, TransportEntry } from './redis';
import { Relay } from './relay';
import { Sequencer, type Slot } from './sequencer';

export interface DurableBusOptions {
  log: EventLog;
  /** Redis, carrying events between instances; absent: this instance only. */
  transport?: RedisTransport;
  logger: Logger;
  /** The log keeps at least this many events, and none younger than `ms` (what resumes and holes can reach). */
  keep: { events: number; ms: number };
  /** How often the log is read for what no transport brought: Redis up (or none), and Redis down. */
  pollMs?: { steady: number; outage: number };
  now?: () => number;
}

type Listener = (payload: unknown, event: BusEvent) => void;

/** Events published in one transaction at most. */
const PUBLISH_BATCH = 100;
const PRUNE_EVERY_MS = 60_000;
const DEFAULT_POLL = { steady: 5000, outage: 1000 };

export class DurableBus implements EventBus {
  readonly name: 'memory' | 'redis';
  readonly shared: boolean;
  private readonly sequence: Sequencer;
  private readonly listeners = new Map<Channel, Set<Listener>>();
  private readonly gapListeners = new Set<(gap: BusGap) => void>();
  private outgoing: BusEventInput[] = [];
  /** A flush is scheduled or appending (stream/bus publish order). */
  private flushing = false;
  /** Published events the log could not take since its last success. */
  private unrecorded = 0;
  private starting?: Promise<void>;
  /** The log's reads: every `pollMs.steady`, or `pollMs.outage` while Redis is down. */
  private readonly logReads: Poller;
  private closed = false;
  private logError: string | null = null;
  private gaps = 0;
  private lastPrune = 0;
  private relayedAtLastPoll = -1;
  private readonly relay?: Relay;
  private readonly now: () => number;
  private readonly pollMs: { steady: number; outage: number };

  constructor(private readonly options: DurableBusOptions) {
    this.name = options.transport ? 'redis' : 'memory';
    this.shared = options.transport !== undefined;
    this.now = options.now ?? Date.now;
    this.pollMs = options.pollMs ?? DEFAULT_POLL;
    this.sequence = new Sequencer({
      read: async (position, limit) => (await options.log.after(position, limit)).map((row) => this.fromLog(row)),
      deliver: (event) => this.dispatch(event),
      gap: (gap) => this.gap(gap),
      readResult: (error) => (this.logError = error === null ? null : String(error)),
      retryMs: this.pollMs.outage,
      logger: options.logger,
    });
    const { transport } = options;
    this.logReads = new Poller({
      what: 'event bus: reading the event log',
      log: options.logger,
      everyMs: () => (transport !== undefined && !transport.up ? this.pollMs.outage : this.pollMs.steady),
      firstAfterInterval: true,
      unref: true,
      baseMs: this.pollMs.outage,
      maxMs: this.pollMs.steady,
      pass: () => this.poll(),
    });
    if (transport) {
      this.relay = new Relay({ transport, log: options.log, head: () => this.sequence.head, logger: options.logger });
      transport.onReady(() => void this.connected());
    }
  }

  publish<C extends Channel>(channel: C, payload: BusEvents[C]): void {
    this.outgoing.push({ channel, payload } as BusEventInput);
    if (!this.flushing) {
      this.flushing = true;
      queueMicrotask(() => void this.flush());
    }
  }

  announce(events: readonly LoggedBusEvent[]): void {
    if (events.length === 0 || this.closed) return;
    const delivered = events.map((e) => busEvent(e.position, e.recordedAt.getTime(), e));
    this.sequence.accept(delivered);
    if (this.sequence.head >= 0) void this.relay?.push(delivered);
    else void this.start().then(() => this.relay?.push(delivered), () => undefined);
  }

  subscribe<C extends Channel>(channel: C, listener: (payload: BusEvents[C], event: BusEvent<C>) => void): () => void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    const untyped = listener as Listener;
    set.add(untyped);
    void this.start().catch(() => undefined); // health says why; asked again by the next subscriber or open
    return () => set.delete(untyped);
  }

  onGap(listener: (gap: BusGap) => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  async open(limit: number, maxAgeMs: number): Promise<BusOpening> {
    await this.start();
    // Read after delivery started: an event after `head` comes live (the hub drops those it holds already).
    const { head, events } = await this.options.log.latest(limit, new Date(this.now() - maxAgeMs));
    const slots = events.map((row) => this.fromLog(row));
    // A history with an unreadable event starts after it: a resume from before it is not covered (a reset).
    const lastLost = slots.findLastIndex((s) => 'lost' in s);
    return { position: head, history: slots.slice(lastLost + 1) as BusEvent[] };
  }

  async catchUp(position: number): Promise<void> {
    if (this.sequence.head >= 0 && position > this.sequence.head) await this.sequence.readLog();
  }

  /** The last position delivered here (-1 until the bus opens). */
  private get head(): number {
    return this.sequence.head;
  }

  health(): BusHealth {
    const { transport } = this.options;
    const transportUp = transport ? transport.up : true;
    const base = { transport: this.name, transportUp, head: this.head, relayLag: this.relay ? Math.max(0, this.head - this.relay.relayed) : 0, gaps: this.gaps };
    if (this.head < 0) return { ...base, status: 'down', message: `the event bus has not opened: its log could not be read${this.logError ? ` (${this.logError})` : ''}` };
    const problems: string[] = [];
    if (!transportUp) problems.push(`Redis unreachable: events reach this instance's streams from the database every ${this.pollMs.outage / 1000} s, and what was written here is relayed once Redis answers`);
    if (this.logError !== null) problems.push(`the event log cannot be read (${this.logError}): ${transportUp ? 'events Redis carries still reach streams' : "no event reaches this instance's streams"}`);
    if (this.sequence.held > 0) problems.push(`${this.sequence.held} events wait for earlier ones to be read from the log`);
    const status = !transportUp && this.logError !== null ? 'down' : problems.length > 0 ? 'degraded' : 'ok';
    return { ...base, status, ...(problems.length > 0 ? { message: problems.join('; ') } : {}) };
  }

  async check(): Promise<BusHealth> {
    await this.start().catch(() => undefined); // health() says why
    return this.health();
  }

  /** Ends the bus's loops (the log's reads, Redis's reads) at their safe point: what was announced here is still delivered here. */
  async stop(): Promise<void> {
    await Promise.all([this.logReads.stop(), this.options.transport?.stop()]);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.sequence.close();
    this.listeners.clear();
    this.gapListeners.clear();
    await Promise.all([this.logReads.stop(), this.options.transport?.close()]);
  }

  /**
   * Starts delivery once (again after a failure): from the log's head, or from
   * before the first event announced meanwhile, so that one is delivered too.
   */
  start(): Promise<void> {
    this.starting ??= (async () => {
      const logHead = await this.options.log.head();
      this.logError = null;
      if (this.closed || this.head >= 0) return;
      this.sequence.start(logHead);
      if (this.relay) this.relay.relayed = this.head;
      this.options.transport?.start(
        () => this.head,
        (entries) => this.fromTransport(entries),
      );
      this.logReads.start();
    })().catch((error: unknown) => {
      this.starting = undefined; // the log was unreachable: asked again next time
      this.logError = String(error);
      throw error;
    });
    return this.starting;
  }

  /**
   * Appends what was published in one transaction, then delivers it; what is
   * published meanwhile goes in the next one. One append at a time, so the
   * log's positions keep this instance's publish order.
   */
  private async flush(): Promise<void> {
    while (this.outgoing.length > 0) {
      // A bounded batch: a burst reaches the hub in pieces its subscribers' queues can take in turn.
      const batch = this.outgoing.splice(0, PUBLISH_BATCH);
      try {
        this.announce(await this.options.log.append(batch));
        if (this.unrecorded > 0) this.options.logger.info('event bus: recording published events again', { notDelivered: this.unrecorded });
        this.unrecorded = 0;
      } catch (error) {
        // Logged once an outage (each failure would be one per flush): how many went is said when it ends.
        if (this.unrecorded === 0) this.options.logger.error('event bus: published events could not be recorded in the database; they are not delivered', { channels: [...new Set(batch.map((e) => e.channel))], error: String(error) });
        this.unrecorded += batch.length;
      }
    }
    this.flushing = false;
  }

  private dispatch(event: BusEvent): void {
    const set = this.listeners.get(event.channel);
    if (!set) return;
    for (const listener of set) {
      try {
        listener(event.payload, event);
      } catch (error) {
        this.options.logger.error('event bus: listener failed', { channel: event.channel, id: event.id, error: String(error) });
      }
    }
  }

  /** Tells the gap listeners that positions after `lastDelivered` up to `resumeAfter` will not be delivered here. */
  private gap(gap: BusGap): void {
    this.gaps++;
    this.options.logger.warn('event bus: events lost to this instance; its subscribers are told reset', { ...gap });
    for (const listener of this.gapListeners) listener(gap);
  }

  /** One read of the log: what no transport brought, the relay's catch-up of what its writer did not relay, the log's pruning. */
  private async poll(): Promise<void> {
    await this.sequence.readLog();
    const { relay } = this;
    const { transport } = this.options;
    if (relay && transport?.up && relay.relayed < this.head) {
      // Delivered here from the log: maybe relayed by its writer all the same (the stream's top says).
      relay.seen(await transport.top().catch(() => 0));
      // Unrelayed since the last poll too: its writer did not relay it (Redis was down, or it died).
      if (relay.relayed < this.head && relay.relayed === this.relayedAtLastPoll) void relay.push();
    }
    if (relay) this.relayedAtLastPoll = relay.relayed;
    await this.prune();
  }

  private async prune(): Promise<void> {
    const now = this.now();
    const { keep } = this.options;
    if (now - this.lastPrune < PRUNE_EVERY_MS || this.head <= keep.events) return;
    this.lastPrune = now;
    await this.options.log.prune(this.head - keep.events, new Date(now - keep.ms)).catch((error: unknown) => this.options.logger.warn('event bus: pruning the event log failed', { error: String(error) }));
  }

  /** Redis is (back) up: a stream ahead of the log is another database's (emptied), then everything not relayed goes. */
  private async connected(): Promise<void> {
    const { transport, log, logger } = this.options;
    if (!transport || this.closed) return;
    try {
      // The stream's top first: whatever is in it was committed before it was added, so a legitimate top is never above the head read after.
      const top = await transport.top();
      const head = await log.head();
      if (top > head) {
        logger.error('event bus: the Redis stream holds positions this database never wrote (a restored database, or another deployment with the same REDIS_KEY_PREFIX); emptying it', { top, head, key: transport.key });
        await transport.drop();
      }
    } catch (error) {
      logger.warn('event bus: could not compare the Redis stream with the log', { error: String(error) });
    }
    if (this.head >= 0) await this.relay?.push();
  }

  private fromLog(row: StoredStreamEvent): Slot {
    try {
      return checkedEvent(row.position, row.recordedAt.getTime(), row.channel, row.payload, 'event log');
    } catch (error) {
      return { position: row.position, lost: String(error) };
    }
  }

  /** Redis entries: checked, or left to the log (a malformed entry is read from the log instead). */
  private fromTransport(entries: readonly TransportEntry[]): void {
    const events: BusEvent[] = [];
    for (const entry of entries) {
      this.relay?.seen(entry.position);
      try {
        events.push(checkedEvent(entry.position, entry.recordedAt, entry.channel, JSON.parse(entry.payload), 'Redis stream entry'));
      } catch (error) {
        this.options.logger.warn('event bus: a Redis stream entry does not read as an event; reading it from the log', { position: entry.position, error: String(error) });
      }
    }
    this.sequence.accept(events);
  }
}
