/**
 * ClusterFeed's rules without a database or Redis (providers/live/cluster):
 * instances share an in-memory relay and a lease that one holds at a time;
 * each instance's vendor feed is a stand-in that records what it is told.
 * The real lease, relay and vendor server are in live-cluster.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { createLogger } from '../../src/log';
import { ClusterFeed, type FeedLease } from '../../src/providers/live/cluster';
import type { LiveRelay, RelayMessage } from '../../src/providers/live/relay';
import type { LiveBar, LiveFeed, LiveStatus, LiveTrade, WindowClose } from '../../src/providers/live/types';
import { until } from '../helpers/vendors/live';

/** Pub/Sub in one process: every subscriber gets every message, in order. */
class MemoryRelay {
  readonly listeners = new Set<(message: RelayMessage) => void>();
  /** Drops messages while false (Redis down). */
  up = true;
  client(): LiveRelay {
    const mine = new Set<(message: RelayMessage) => void>();
    return {
      publish: (message) => {
        if (this.up) for (const listener of [...this.listeners]) listener(structuredClone(message));
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
class MemoryLock {
  holder: MemoryLease | undefined;
  lease(): MemoryLease {
    return new MemoryLease(this);
  }
}
class MemoryLease implements FeedLease {
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
class StandInFeed implements LiveFeed {
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
  trade(trade: LiveTrade) {
    const quoted = { ...trade };
    for (const listener of this.watched.get(trade.symbol) ?? []) listener(quoted);
  }
}

const HEARTBEAT = 40;

function cluster() {
  const relay = new MemoryRelay();
  const lock = new MemoryLock();
  const instances: { feed: ClusterFeed; local: StandInFeed; lease: MemoryLease }[] = [];
  const add = () => {
    const local = new StandInFeed();
    const lease = lock.lease();
    const feed = new ClusterFeed({ local, lease, relay: relay.client(), instance: `i${instances.length}`, log: createLogger('silent'), pollMs: 20, heartbeatMs: HEARTBEAT });
    feed.start();
    instances.push({ feed, local, lease });
    return instances.at(-1)!;
  };
  return { relay, lock, add, stop: () => Promise.all(instances.map((i) => i.feed.stop())) };
}

const bar: LiveBar = { symbol: 'SPY', timeframe: '1h', bar: { t: 1, o: 1, h: 2, l: 0.5, c: 1.5, v: 10 }, final: false, revised: false };

describe('one vendor connection per cluster, the rules', () => {
  it('runs the vendor feed on the lease holder alone and hands its bars to the others', async () => {
    const c = cluster();
    const a = c.add();
    await until(() => a.feed.leader, 'a to lead');
    const b = c.add();
    await Bun.sleep(3 * HEARTBEAT);
    expect([a.local.running, b.local.running]).toEqual([true, false]);
    const got: LiveBar[] = [];
    b.feed.onBar((x) => got.push(x));
    a.local.bar(bar);
    expect(got).toEqual([bar]);
    expect(b.feed.status().state).toBe('streaming'); // the leader's, relayed
    await c.stop();
  });

  it('subscribes what a follower’s clients watch, relays those trades once, and forgets a follower gone silent', async () => {
    const c = cluster();
    const a = c.add();
    await until(() => a.feed.leader, 'a to lead');
    const b = c.add();
    const trades: LiveTrade[] = [];
    const unwatch = b.feed.watch('AAPL', (t) => trades.push(t));
    b.feed.watch('AAPL', () => {});
    await until(() => a.local.watched.has('AAPL'), 'AAPL watched at the vendor for b');
    a.feed.watch('AAPL', () => {}); // the leader's own client too: still one relay message a trade
    a.local.trade({ symbol: 'AAPL', price: 10, size: 1, ts: 5 });
    expect(trades).toEqual([{ symbol: 'AAPL', price: 10, size: 1, ts: 5 }]);
    unwatch();
    await b.feed.stop(); // b's wants stop coming
    await until(() => (a.local.watched.get('AAPL')?.size ?? 0) === 1, 'b’s watch dropped after three silent heartbeats', 2_000);
    await c.stop();
  });

  it('moves the vendor feed when the holder loses its lease, never running two at once', async () => {
    const c = cluster();
    const a = c.add();
    await until(() => a.feed.leader, 'a to lead');
    const b = c.add();
    let both = false;
    const watch = setInterval(() => (both ||= a.local.running && b.local.running), 1);
    a.lease.lose();
    await until(() => b.feed.leader && b.local.running, 'b to take the feed over');
    clearInterval(watch);
    expect(a.local.running).toBe(false);
    expect(both).toBe(false);
    expect(a.feed.status().state).toBe('streaming'); // a now follows b
    await c.stop();
  });

  it('says the stream is not heard from when the leader’s status stops coming, and counts relay messages missed', async () => {
    const c = cluster();
    const a = c.add();
    await until(() => a.feed.leader, 'a to lead');
    const b = c.add();
    await until(() => b.feed.status().state === 'streaming', 'the relayed status');
    a.local.bar(bar);
    c.relay.up = false;
    a.local.bar(bar);
    a.local.bar(bar);
    c.relay.up = true;
    a.local.bar(bar);
    expect(b.feed.missed).toBe(2);
    c.relay.up = false;
    await until(() => b.feed.status().state === 'reconnecting', 'the follower to notice the silence', 2_000);
    expect(b.feed.status().message).toContain('held by another instance, not heard from');
    c.relay.up = true;
    await c.stop();
  });
});
