/**
 * @module providers/live/cluster
 * One vendor connection per cluster (`ClusterFeed`, a `LiveFeed`): vendors
 * cap the connections of an account (Alpaca: one per feed, a second one is
 * refused with `406 connection limit exceeded` — alpacahq/alpaca-docs,
 * realtime.md; Polygon: `max_connections` per cluster), so of the instances
 * sharing one database and one Redis only the one holding the `liveFeed`
 * lease (db/lease, db/cluster-locks) runs the vendor's socket (the
 * `local` feed). It hands every bar, window close and watched trade to the
 * others over the relay (./relay), and every heartbeat its stream's status.
 * The others tell it which symbols their clients watch (`want`, every
 * heartbeat and on change), and it subscribes the union at the vendor; a
 * follower's wants not heard for three heartbeats are dropped (the instance
 * is gone).
 *
 * Leadership moves when the holder dies or loses the database: its lock
 * session ends, the lease's term aborts (it stops its socket at once), and
 * another instance takes the lease on its next try (`pollMs`), starting the
 * vendor stream afresh: like a first connection, it fills the session so far
 * over REST before any window closes (./feed). Followers meanwhile report the
 * stream as reconnecting once no status has been heard for three heartbeats.
 *
 * A follower that finds a hole in the holder's numbering (Redis was down, or
 * its own subscription dropped) asks for it again (`resend`) at once and at
 * every heartbeat until answered; the holder answers with the bars and closes
 * of it that it keeps (./relay-history), so a bar closed while Redis was down
 * reaches every follower once Redis is back.
 */
import type { Logger } from '../../log';
import { LatestQuotes } from './latest';
import { Listeners } from './listeners';
import type { RelayMessage, LiveRelay } from './relay';
import { RelayHistory, type KeptMessage } from './relay-history';
import type { LiveBar, LiveDay, LiveFeed, LiveStatus, LiveTrade, WindowClose } from './types';

/** The part of db/lease's `Lease` the feed uses. */
export interface FeedLease {
  readonly held: boolean;
  readonly signal: AbortSignal;
  acquire(): Promise<boolean>;
  close(): Promise<void>;
}

export interface ClusterFeedOptions {
  /** This instance's vendor feed: started only while the lease is held. */
  local: LiveFeed & { stop(): Promise<void> };
  lease: FeedLease;
  relay: LiveRelay;
  /** This instance's name on the relay (unique per process). */
  instance: string;
  log: Logger;
  /** How often a follower tries the lease. */
  pollMs?: number;
  /** How often the leader sends its status and followers their wants. */
  heartbeatMs?: number;
  now?: () => number;
}

const POLL_MS = 1_000;
const HEARTBEAT_MS = 2_000;
/** Heartbeats a follower asks again for a hole before giving it up (its sender is gone). */
const RESEND_ASKS = 30;

/** A follower's wanted symbols, as the leader holds them: the vendor feed's watch of each. */
interface RemoteWants {
  seenAt: number;
  unwatch: Map<string, () => void>;
}

export class ClusterFeed implements LiveFeed {
  readonly vendor: string;
  private readonly local: ClusterFeedOptions['local'];
  private readonly watchers = new Map<string, { listeners: Set<(trade: LiveTrade) => void>; unwatch: () => void }>();
  private readonly bars = new Listeners<LiveBar>();
  private readonly closes = new Listeners<WindowClose>();
  private readonly remote = new Map<string, RemoteWants>();
  /** The leader's last status as relayed, with when it came. */
  private relayed: { status: LiveStatus; backfilling: boolean; at: number; from: string } | undefined;
  private lastSeq = new Map<string, number>();
  private leading = false;
  private started = false;
  private seq = 0;
  private lastRelayedTrade: LiveTrade | undefined;
  private wantsChanged = false;
  private timers: ReturnType<typeof setInterval>[] = [];
  private campaigning: Promise<void> | undefined;
  private readonly offs: (() => void)[] = [];
  private readonly now: () => number;
  private readonly heartbeatMs: number;
  /** A follower's view of each symbol's session, from the relayed daily bars and trades. */
  private readonly latestQuotes: LatestQuotes;
  /** Relay messages a follower missed (numbering gaps), for the log and tests. */
  missed = 0;
  /** Bars and closes a follower got again after missing them. */
  recovered = 0;
  /** What the holder relayed that a follower may ask for again. */
  private readonly history: RelayHistory;
  /** Holes in each sender's numbering this follower has asked for and not been sent yet, with how many times asked. */
  private readonly owed = new Map<string, { after: number; through: number; asked: number }>();

  constructor(private readonly options: ClusterFeedOptions) {
    this.local = options.local;
    this.vendor = options.local.vendor;
    this.now = options.now ?? Date.now;
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.latestQuotes = new LatestQuotes(this.now);
    this.history = new RelayHistory(undefined, this.now);
    this.offs.push(
      this.local.onBar((bar) => {
        this.bars.emit(bar);
        this.send({ k: 'bar', bar });
      }),
      this.local.onClose((close) => {
        this.closes.emit(close);
        this.send({ k: 'close', close });
      }),
    );
  }

  /** Whether this instance holds the vendor connection now. */
  get leader(): boolean {
    return this.leading;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.offs.push(this.options.relay.subscribe((message) => this.receive(message)));
    const poll = setInterval(() => void this.campaign(), this.options.pollMs ?? POLL_MS);
    const beat = setInterval(() => this.heartbeat(), this.heartbeatMs);
    for (const timer of [poll, beat]) timer.unref?.();
    this.timers.push(poll, beat);
    void this.campaign();
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.campaigning;
    await this.demote('stopping');
    for (const off of this.offs.splice(0)) off();
    await this.options.lease.close();
    await this.options.relay.close();
  }

  setUniverse(symbols: Iterable<string>): void {
    // Kept by the local feed whether it runs or not: it is what the vendor is asked for on taking the lease.
    this.local.setUniverse(symbols);
  }

  watch(symbol: string, onTrade: (trade: LiveTrade) => void): () => void {
    let watched = this.watchers.get(symbol);
    if (!watched) {
      const listeners = new Set<(trade: LiveTrade) => void>();
      // The local feed holds this instance's watch too: while leading, its trades arrive there.
      const unwatch = this.local.watch(symbol, (trade) => {
        this.deliver(trade);
        this.relayTrade(trade);
      });
      this.watchers.set(symbol, (watched = { listeners, unwatch }));
      this.wantsMoved();
    }
    watched.listeners.add(onTrade);
    return () => {
      const held = this.watchers.get(symbol);
      if (!held?.listeners.delete(onTrade) || held.listeners.size > 0) return;
      this.watchers.delete(symbol);
      held.unwatch();
      this.wantsMoved();
    };
  }

  onBar(listener: (bar: LiveBar) => void): () => void {
    return this.bars.add(listener);
  }

  onClose(listener: (close: WindowClose) => void): () => void {
    return this.closes.add(listener);
  }

  status(): LiveStatus {
    if (this.leading) return this.local.status();
    const relayed = this.relayed;
    const silentFor = relayed ? this.now() - relayed.at : Infinity;
    if (relayed && silentFor <= 3 * this.heartbeatMs) return relayed.status;
    const own = this.local.status();
    const message = relayed
      ? `${this.vendor} stream: held by another instance, not heard from for ${Math.round(silentFor / 1000)} s (the lease moves when it is gone)`
      : `${this.vendor} stream: held by another instance, not heard from yet`;
    return { ...own, state: 'reconnecting', message, lastMessageAt: relayed?.status.lastMessageAt ?? null };
  }

  backfilling(): boolean {
    return this.leading ? this.local.backfilling() : this.relayed?.backfilling ?? false;
  }

  latest(symbol: string, now: number): LiveDay | undefined {
    return this.leading ? this.local.latest(symbol, now) : this.latestQuotes.get(symbol, now);
  }

  /** Takes the lease when free; starts or stops the local feed as it is held or lost. */
  private campaign(): Promise<void> {
    this.campaigning ??= (async () => {
      try {
        if (!this.started) return;
        if (this.leading) {
          if (!this.options.lease.held) await this.demote('the lease was lost');
          return;
        }
        if (await this.options.lease.acquire()) this.promote();
      } catch (error) {
        this.options.log.error('live stream: taking the vendor connection failed', { vendor: this.vendor, error: String(error) });
      } finally {
        this.campaigning = undefined;
      }
    })();
    return this.campaigning;
  }

  private promote(): void {
    if (!this.started) return;
    this.leading = true;
    this.relayed = undefined;
    const { signal } = this.options.lease;
    signal.addEventListener('abort', () => void this.demote(String((signal.reason as Error | undefined)?.message ?? 'lease ended')), { once: true });
    this.options.log.info('live stream: this instance holds the vendor connection', { vendor: this.vendor, instance: this.options.instance });
    this.local.start();
    this.heartbeat();
  }

  private async demote(reason: string): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    for (const wants of this.remote.values()) for (const unwatch of wants.unwatch.values()) unwatch();
    this.remote.clear();
    this.options.log.warn('live stream: vendor connection given up', { vendor: this.vendor, instance: this.options.instance, reason });
    await this.local.stop();
  }

  private heartbeat(): void {
    if (this.leading) {
      this.send({ k: 'status', status: this.local.status(), backfilling: this.local.backfilling() });
      const stale = this.now() - 3 * this.heartbeatMs;
      for (const [instance, wants] of this.remote) if (wants.seenAt < stale) this.forget(instance);
    } else {
      this.sendWants();
      for (const [from, hole] of this.owed) {
        if (++hole.asked > RESEND_ASKS) {
          // Its sender is gone (the lease moved on, its history with it): the hole stays a hole.
          this.owed.delete(from);
          this.options.log.warn('live relay: missed bars and closes never sent again; lost to this instance', { vendor: this.vendor, from, after: hole.after, through: hole.through });
        } else this.options.relay.publish({ k: 'resend', from: this.options.instance, to: from, after: hole.after, through: hole.through });
      }
    }
  }

  private wantsMoved(): void {
    if (this.leading || this.wantsChanged) return;
    this.wantsChanged = true;
    queueMicrotask(() => this.sendWants()); // a page subscribing to 50 symbols is one message
  }

  private sendWants(): void {
    this.wantsChanged = false;
    if (this.started && !this.leading) this.options.relay.publish({ k: 'want', from: this.options.instance, symbols: [...this.watchers.keys()] });
  }

  private send(message: DistributiveOmit<Extract<RelayMessage, { seq: number }>, 'from' | 'seq'>): void {
    if (!this.leading) return;
    const seq = ++this.seq;
    if (message.k === 'bar' || message.k === 'close') this.history.keep({ ...message, seq } as KeptMessage);
    this.options.relay.publish({ ...message, from: this.options.instance, seq } as RelayMessage);
  }

  private deliver(trade: LiveTrade): void {
    const watched = this.watchers.get(trade.symbol);
    if (watched) for (const listener of watched.listeners) listener(trade);
  }

  /** Sends a trade some other instance watches, once (the local feed hands one trade to each of its watchers). */
  private relayTrade(trade: LiveTrade): void {
    if (!this.leading || trade === this.lastRelayedTrade) return;
    this.lastRelayedTrade = trade;
    for (const wants of this.remote.values()) {
      if (wants.unwatch.has(trade.symbol)) return this.send({ k: 'trade', trade });
    }
  }

  private receive(message: RelayMessage): void {
    if (message.from === this.options.instance) return;
    if (message.k === 'want') {
      if (this.leading) this.wanted(message.from, message.symbols);
      return;
    }
    if (message.k === 'resend') {
      // Answered by whoever sent them, leading or not now: it is the one that kept them.
      if (message.to === this.options.instance) this.options.relay.publish({ k: 'replay', from: this.options.instance, to: message.from, after: message.after, through: message.through, ...this.history.between(message.after, message.through) });
      return;
    }
    if (message.k === 'replay') {
      if (message.to === this.options.instance && !this.leading) this.replayed(message);
      return;
    }
    if (this.leading) {
      // Another instance believes it leads: the lease says otherwise (its term ends when it finds out).
      return;
    }
    const last = this.lastSeq.get(message.from);
    if (last !== undefined && message.seq > last + 1) this.hole(message.from, last, message.seq - 1);
    this.lastSeq.set(message.from, message.seq);
    switch (message.k) {
      case 'bar':
        this.latestQuotes.bar(message.bar);
        this.bars.emit(message.bar);
        break;
      case 'close':
        this.closes.emit(message.close);
        break;
      case 'trade':
        this.latestQuotes.trade(message.trade);
        this.deliver(message.trade);
        break;
      case 'status':
        this.relayed = { status: message.status, backfilling: message.backfilling, at: this.now(), from: message.from };
        break;
    }
  }

  /** Messages `after` < seq <= `through` of `from` never came: asked for now and at each heartbeat until sent. */
  private hole(from: string, after: number, through: number): void {
    this.missed += through - after;
    this.options.log.warn('live relay: messages missed; asking for them again', { vendor: this.vendor, from, missed: through - after });
    const owed = this.owed.get(from);
    const hole = owed ? { after: Math.min(owed.after, after), through: Math.max(owed.through, through), asked: 0 } : { after, through, asked: 0 };
    this.owed.set(from, hole);
    this.options.relay.publish({ k: 'resend', from: this.options.instance, to: from, after: hole.after, through: hole.through });
  }

  /** The bars and closes of a hole, sent again: handed on as if they had come in their turn. */
  private replayed(replay: Extract<RelayMessage, { k: 'replay' }>): void {
    const owed = this.owed.get(replay.from);
    if (!owed || replay.after > owed.after || replay.through < owed.through) return; // an answer to an older ask, or to another follower's
    this.owed.delete(replay.from);
    for (const message of replay.messages) {
      if (message.k === 'bar') {
        this.latestQuotes.bar(message.bar);
        this.bars.emit(message.bar);
      } else this.closes.emit(message.close);
    }
    this.recovered += replay.messages.length;
    const log = { vendor: this.vendor, from: replay.from, bars: replay.messages.filter((m) => m.k === 'bar').length, closes: replay.messages.filter((m) => m.k === 'close').length };
    if (replay.complete) this.options.log.info('live relay: missed bars and closes received again', log);
    else this.options.log.warn('live relay: part of the missed bars and closes had aged out of the holder’s history: lost to this instance', log);
  }

  /** A follower's watched symbols: the vendor feed watches each of them on its behalf. */
  private wanted(instance: string, symbols: readonly string[]): void {
    let wants = this.remote.get(instance);
    if (!wants) this.remote.set(instance, (wants = { seenAt: 0, unwatch: new Map() }));
    wants.seenAt = this.now();
    const next = new Set(symbols);
    for (const [symbol, unwatch] of wants.unwatch) {
      if (!next.has(symbol)) {
        unwatch();
        wants.unwatch.delete(symbol);
      }
    }
    for (const symbol of next) {
      if (!wants.unwatch.has(symbol)) wants.unwatch.set(symbol, this.local.watch(symbol, (trade) => this.relayTrade(trade)));
    }
  }

  private forget(instance: string): void {
    const wants = this.remote.get(instance);
    if (!wants) return;
    for (const unwatch of wants.unwatch.values()) unwatch();
    this.remote.delete(instance);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
