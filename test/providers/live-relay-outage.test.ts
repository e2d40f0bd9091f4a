/**
 * The vendor connection's relay across a Redis outage (providers/live/cluster,
 * ./relay, ./relay-history): two instances on a private Redis of their own
 * (test/helpers/redis-server, port 47801), the lease and the vendor feed
 * in memory (test/helpers/vendors/cluster-stand-ins). Redis is stopped, the
 * holder closes a bar and a window meanwhile — Pub/Sub keeps nothing and the
 * publisher drops while Redis is down (redis.io, "Redis Pub/Sub") — and Redis
 * is started again, empty: the follower must still get that bar and close,
 * from the holder's history, once it sees the hole in the numbering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createLogger } from '../../src/log';
import { ClusterFeed } from '../../src/providers/live/cluster';
import { RedisLiveRelay } from '../../src/providers/live/relay';
import type { LiveBar, WindowClose } from '../../src/providers/live/types';
import { redisServerMissing, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { MemoryLock, StandInFeed } from '../helpers/vendors/cluster-stand-ins';
import { until } from '../helpers/until';

const REDIS_PORT = 47801;
const HEARTBEAT_MS = 100;

describe.skipIf(redisServerMissing !== null)('the live relay across a Redis outage', () => {
  let redis: RedisServer;
  const feeds: ClusterFeed[] = [];

  beforeAll(async () => {
    redis = await startRedisServer(REDIS_PORT);
  });
  afterAll(async () => {
    await Promise.all(feeds.map((feed) => feed.stop()));
    await redis?.close();
  });

  it('hands a follower the bar and window closed while Redis was down, once Redis is back', async () => {
    const lock = new MemoryLock();
    const keyPrefix = `t${crypto.randomUUID().slice(0, 8)}:`;
    const add = (instance: string) => {
      const local = new StandInFeed();
      const relay = new RedisLiveRelay({ url: redis.url, keyPrefix, vendor: 'alpaca', log: createLogger('silent') });
      const feed = new ClusterFeed({ local, lease: lock.lease(), relay, instance, log: createLogger('silent'), pollMs: 20, heartbeatMs: HEARTBEAT_MS });
      feeds.push(feed);
      feed.start();
      return { feed, local };
    };
    const a = add('a');
    await until('a to hold the vendor connection', () => a.feed.leader);
    const b = add('b');
    await until('a’s status relayed to b', () => b.feed.status().state === 'streaming', 5_000);
    const bars: LiveBar[] = [];
    const closes: WindowClose[] = [];
    b.feed.onBar((bar) => bars.push(bar));
    b.feed.onClose((close) => closes.push(close));

    await redis.stop();
    const closed: LiveBar = { symbol: 'SPY', timeframe: '1h', bar: { t: Date.parse('2025-04-24T13:30:00Z'), o: 1, h: 2, l: 0.5, c: 1.5, v: 10 }, final: true, revised: false };
    const close: WindowClose = { timeframe: '1h', start: closed.bar.t, end: closed.bar.t + 3_600_000 };
    a.local.bar(closed);
    a.local.close(close);
    await Bun.sleep(3 * HEARTBEAT_MS); // heartbeats dropped too
    expect([bars, closes]).toEqual([[], []]);

    await redis.start();
    await until('the close, sent again once Redis is back', () => closes.length === 1, 15_000);
    expect(bars).toEqual([closed]);
    expect(closes).toEqual([close]);
    expect(b.feed.recovered).toBe(2);
  }, 30_000);
});
