/**
 * @module test/helpers/vendors/cluster-stand-ins
 * What ClusterFeed (providers/live/cluster) needs, in memory: a relay every
 * instance shares (Pub/Sub in one process, which can be "down"), a lock one
 * lease holds at a time, and a vendor feed that records what it is asked and
 * sends what the test says.
 */
import type { FeedLease } from '../../../src/providers/live/cluster';
import type { LiveRelay, RelayMessage } from '../../../src/providers/live/relay';
import type { LiveBar, LiveFeed, LiveStatus, LiveTrade, WindowClose } from '../../../src/providers/live/types';

/** Pub/Sub in one process: every subscriber gets every message, in order. */
export class MemoryRelay {
  readonly listeners = new Set<(message: RelayMessage) => void>();
  /** Drops messages while false (Redis down). */
  up = true;
  /** Drops the messages it says false to (one instance's answers lost, say). */
  passes: (message: RelayMessage) => boolean = () => true;
  client(): LiveRelay {
    const mine = new Set<(message: RelayMessage) => void>();
    return {
      publish: (message) => {
        if (this.up && this.passes(message)) for (const listener of [...this.listeners]) listener(structuredClone(message));
      },
      subscribe: (listener) => {
        this.listeners.add(listener);
        mine.add(listener);
        return () => this.listeners.delete(listener);
      },
      close: async () => {
        for (const listener of mine) this.listeners.delete(listener);
      },
    };
  }
}

/** One lock: the first to ask holds it until it lets go or is told it lost it. */
export class MemoryLock {
  holder: MemoryLease | undefined;
  lease(): MemoryLease {
    return new MemoryLease(this);
  }
}
export class MemoryLease implements FeedLease {
  private term: AbortController | undefined;
  /** The database cannot be reached from this instance: the lock cannot be asked for. */
  unreachable = false;
  constructor(private readonly lock: MemoryLock) {}
  get held() {
    return this.lock.holder === this && !!this.term && !this.term.signal.aborted;
  }
  get signal() {
    return this.term?.signal ?? AbortSignal.abort();
  }
  async acquire() {
    if (this.held) return true;
    if (this.lock.holder || this.unreachable) return false;
    this.lock.holder = this;
    this.term = new AbortController();
    return true;
  }
  /** The lock session ended and the database is out of this instance's reach (the server still up for the others). */
  lose() {
    this.unreachable = true;
    if (this.lock.holder === this) this.lock.holder = undefined;
    this.term?.abort(new Error('lost'));
  }
  async close() {
    if (this.lock.holder === this) this.lock.holder = undefined;
  }
}

/** A vendor feed that records what it is asked and sends what the test says. */
export class StandInFeed implements LiveFeed {
  readonly vendor = 'alpaca';
  running = false;
  starts = 0;
  readonly watched = new Map<string, Set<(trade: LiveTrade) => void>>();
  private readonly bars = new Set<(bar: LiveBar) => void>();
  private readonly closes = new Set<(close: WindowClose) => void>();
  start() {
    this.running = true;
    this.starts++;
  }
  async stop() {
    this.running = false;
  }
  setUniverse() {}
  watch(symbol: string, onTrade: (trade: LiveTrade) => void) {
    let set = this.watched.get(symbol);
    if (!set) this.watched.set(symbol, (set = new Set()));
    set.add(onTrade);
    return () => {
      set.delete(onTrade);
      if (set.size === 0) this.watched.delete(symbol);
    };
  }
  onBar(listener: (bar: LiveBar) => void) {
    this.bars.add(listener);
    return () => this.bars.delete(listener);
  }
  onClose(listener: (close: WindowClose) => void) {
    this.closes.add(listener);
    return () => this.closes.delete(listener);
  }
  status(): LiveStatus {
    return { vendor: 'alpaca', state: this.running ? 'streaming' : 'idle', barSymbols: 1, tradeSymbols: this.watched.size, tradeLimit: null, lastMessageAt: null, lastBackfillAt: null };
  }
  backfilling() {
    return false;
  }
  latest() {
    return undefined;
  }
  bar(bar: LiveBar) {
    this.bars.forEach((listener) => listener(bar));
  }
  close(close: WindowClose) {
    this.closes.forEach((listener) => listener(close));
  }
  trade(trade: LiveTrade) {
    const quoted = { ...trade };
    for (const listener of this.watched.get(trade.symbol) ?? []) listener(quoted);
  }
}
