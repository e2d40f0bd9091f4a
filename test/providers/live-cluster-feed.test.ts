/**
 * ClusterFeed's rules without a database or Redis (providers/live/cluster):
 * instances share an in-memory relay and a lease that one holds at a time;
 * each instance's vendor feed is a stand-in that records what it is told.
 * The real lease, relay and vendor server are in live-cluster.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { createLogger } from '../../src/log';
import { ClusterFeed } from '../../src/providers/live/cluster';
import type { LiveBar, LiveTrade, WindowClose } from '../../src/providers/live/types';
import { MemoryLease, MemoryLock, MemoryRelay, StandInFeed } from '../helpers/vendors/cluster-stand-ins';
import { until } from '../helpers/until';

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
    await until('a to lead', () => a.feed.leader);
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
    await until('a to lead', () => a.feed.leader);
    const b = c.add();
    const trades: LiveTrade[] = [];
    const unwatch = b.feed.watch('AAPL', (t) => trades.push(t));
    b.feed.watch('AAPL', () => {});
    await until('AAPL watched at the vendor for b', () => a.local.watched.has('AAPL'));
    a.feed.watch('AAPL', () => {}); // the leader's own client too: still one relay message a trade
    a.local.trade({ symbol: 'AAPL', price: 10, size: 1, ts: 5 });
    expect(trades).toEqual([{ symbol: 'AAPL', price: 10, size: 1, ts: 5 }]);
    unwatch();
    await b.feed.stop(); // b's wants stop coming
    await until('b’s watch dropped after three silent heartbeats', () => (a.local.watched.get('AAPL')?.size ?? 0) === 1, 2_000);
    await c.stop();
  });

  it('moves the vendor feed when the holder loses its lease, never running two at once', async () => {
    const c = cluster();
    const a = c.add();
    await until('a to lead', () => a.feed.leader);
    const b = c.add();
    let both = false;
    const watch = setInterval(() => (both ||= a.local.running && b.local.running), 1);
    a.lease.lose();
    await until('b to take the feed over', () => b.feed.leader && b.local.running);
    clearInterval(watch);
    expect(a.local.running).toBe(false);
    expect(both).toBe(false);
    expect(a.feed.status().state).toBe('streaming'); // a now follows b
    await c.stop();
  });

  it('says the stream is not heard from when the leader’s status stops coming, and counts relay messages missed', async () => {
    const c = cluster();
    const a = c.add();
    await until('a to lead', () => a.feed.leader);
    const b = c.add();
    await until('the relayed status', () => b.feed.status().state === 'streaming');
    a.local.bar(bar);
    c.relay.up = false;
    a.local.bar(bar);
    a.local.bar(bar);
    c.relay.up = true;
    a.local.bar(bar);
    expect(b.feed.missed).toBe(2);
    c.relay.up = false;
    await until('the follower to notice the silence', () => b.feed.status().state === 'reconnecting', 2_000);
    expect(b.feed.status().message).toContain('held by another instance, not heard from');
    c.relay.up = true;
    await c.stop();
  });

  it('hands a follower the bars and closes it missed while the relay was down, once it is back', async () => {
    const c = cluster();
    const a = c.add();
    await until('a to lead', () => a.feed.leader);
    const b = c.add();
    await until('the relayed status', () => b.feed.status().state === 'streaming');
    const bars: LiveBar[] = [];
    const closes: WindowClose[] = [];
    b.feed.onBar((x) => bars.push(x));
    b.feed.onClose((x) => closes.push(x));
    const forming = { ...bar, bar: { ...bar.bar, c: 1.6 } };
    const closed = { ...bar, bar: { ...bar.bar, c: 1.7, v: 12 }, final: true };
    const close: WindowClose = { timeframe: '1h', start: 1, end: 3_600_001 };
    c.relay.up = false;
    a.local.bar(forming);
    a.local.bar(closed); // the same window's later state: it stands for the forming one
    a.local.close(close);
    expect([bars, closes]).toEqual([[], []]);
    c.relay.up = true;
    await until('the close sent again after the next heartbeat', () => closes.length === 1, 2_000);
    expect(bars).toEqual([closed]);
    expect(closes).toEqual([close]);
    expect([b.feed.missed, b.feed.recovered]).toEqual([3, 2]);
    await Bun.sleep(3 * HEARTBEAT);
    expect(closes).toHaveLength(1); // asked until answered, applied once
    await c.stop();
  });

  it('stops asking for a hole its sender never answers after thirty heartbeats', async () => {
    const c = cluster();
    const a = c.add();
    await until('a to lead', () => a.feed.leader);
    const b = c.add();
    await until('the relayed status', () => b.feed.status().state === 'streaming');
    let asks = 0;
    c.relay.passes = (message) => (message.k === 'resend' && asks++, message.k !== 'replay');
    c.relay.up = false;
    a.local.bar(bar);
    c.relay.up = true;
    await until('the hole asked for at once and at thirty heartbeats', () => asks >= 31, 10_000);
    await Bun.sleep(5 * HEARTBEAT);
    expect(asks).toBe(31); // then given up
    expect(b.feed.recovered).toBe(0);
    await c.stop();
  });
});
