/**
 * Stream caps across instances (stream/caps, stream/caps-redis) on a private
 * Redis (test/helpers/redis-server): a client holds at most
 * SSE_MAX_CONNECTIONS_PER_CLIENT streams over all instances together (issue
 * 26 item 8: 96 through three instances before, 32 now), a killed instance's
 * places come back when its leases end, the count falls back to each
 * instance's own while Redis is down, and deployments with their own
 * REDIS_KEY_PREFIX count apart. Skipped, with the reason, without redis-server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { AppError } from '../../src/errors';
import { createLogger } from '../../src/log';
import { RedisLink } from '../../src/redis/link';
import { StreamCaps } from '../../src/stream/caps';
import { SharedStreamCounts } from '../../src/stream/caps-redis';
import { deployment, type Instance } from '../helpers/instances';
import { redisServerMissing, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { until } from '../helpers/until';

const log = createLogger('silent');
const LIMITS = { max: 1000, perKey: 4, retryAfterSeconds: 2 };

describe.skipIf(redisServerMissing !== null)(`stream caps across instances${redisServerMissing ? ` (${redisServerMissing})` : ''}`, () => {
  let redis: RedisServer;
  const links: RedisLink[] = [];
  const caps: StreamCaps[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    for (const c of caps) await c.close();
    for (const link of links) link.close();
    await redis?.close();
  });

  /** An instance's caps on the private Redis, under `prefix`. */
  const instance = (prefix: string, leaseMs = 30_000) => {
    const link = new RedisLink({ url: redis.url, keyPrefix: prefix, log, timeoutMs: 500, probeEveryMs: 50 });
    links.push(link);
    const c = new StreamCaps(LIMITS, new SharedStreamCounts(link, { instanceId: `ins_${links.length}`, leaseMs }));
    caps.push(c);
    return { caps: c, link };
  };
  /** Admits `n` streams of `key` spread over `on`, all at once; how many were admitted, and every refusal's status. */
  const open = async (on: StreamCaps[], key: string, n: number) => (await opening(on, key, n)).counts;
  const opening = async (on: StreamCaps[], key: string, n: number) => {
    const settled = await Promise.allSettled(Array.from({ length: n }, (_, i) => on[i % on.length]!.admit(key)));
    const refusals = settled.flatMap((s) => (s.status === 'rejected' ? [(s.reason as AppError).status] : []));
    const holders = settled.flatMap((s, i) => (s.status === 'fulfilled' ? [on[i % on.length]!] : []));
    return { counts: { admitted: n - refusals.length, refusals }, holders };
  };

  it('admits exactly the per-client cap over three instances opening at once, and a place freed anywhere is free everywhere', async () => {
    const prefix = `t1:${crypto.randomUUID()}:`;
    const three = [instance(prefix), instance(prefix), instance(prefix)].map((i) => i.caps);
    const { counts, holders } = await opening(three, 'ip:198.51.100.1', 10);
    expect(counts).toEqual({ admitted: 4, refusals: Array(6).fill(429) });
    expect((await open(three, 'ip:198.51.100.2', 1)).admitted).toBe(1); // another client is counted apart
    // Which instance holds the four does not matter: a release on one frees a place for all.
    const holder = holders[0]!;
    holder.release('ip:198.51.100.1');
    await until('the place to be given back', async () => (await open([three[(three.indexOf(holder) + 1) % 3]!], 'ip:198.51.100.1', 1)).admitted === 1);
  });

  it('renews the leases of open streams, and gives a killed instance’s places back once they end', async () => {
    const prefix = `t2:${crypto.randomUUID()}:`;
    const a = instance(prefix, 300);
    const b = instance(prefix, 300);
    expect((await open([a.caps], 'ip:198.51.100.3', 4)).admitted).toBe(4);
    await Bun.sleep(900); // three leases long: renewed all along
    expect(await open([b.caps], 'ip:198.51.100.3', 1)).toEqual({ admitted: 0, refusals: [429] });
    a.link.close(); // killed: no renewal, no release
    await until('the leases to end', async () => (await open([b.caps], 'ip:198.51.100.3', 1)).admitted === 1, 5_000);
    expect((await open([b.caps], 'ip:198.51.100.3', 5)).admitted).toBe(3); // four in all, all on b now
  });

  it('falls back to each instance’s own count while Redis is down, and counts those streams in again when it returns', async () => {
    const prefix = `t3:${crypto.randomUUID()}:`;
    const a = instance(prefix, 300);
    const b = instance(prefix, 300);
    // Both connected before the outage (a link that never reached Redis learns of it only from a failed command,
    // which on a loaded machine took past the wait).
    await Promise.all([a.link.ping(10_000), b.link.ping(10_000)]);
    await redis.stop();
    await until('both links to know', () => a.link.down !== null && b.link.down !== null);
    expect((await open([a.caps], 'ip:198.51.100.4', 5)).admitted).toBe(4); // per instance: 4 each
    expect((await open([b.caps], 'ip:198.51.100.4', 5)).admitted).toBe(4);
    await redis.start(); // empty: the renewals count the eight in again
    const c = instance(prefix, 300);
    await Bun.sleep(400);
    expect(await open([c.caps], 'ip:198.51.100.4', 1)).toEqual({ admitted: 0, refusals: [429] });
    for (let k = 0; k < 4; k++) a.caps.release('ip:198.51.100.4'); // eight open → four: still the cap
    b.caps.release('ip:198.51.100.4'); // → three
    await until('a place under the cap', async () => (await open([c.caps], 'ip:198.51.100.4', 1)).admitted === 1, 5_000);
  });

  it('keeps deployments with their own REDIS_KEY_PREFIX apart', async () => {
    const one = instance(`t4:${crypto.randomUUID()}:`);
    const two = instance(`t4:${crypto.randomUUID()}:`);
    expect((await open([one.caps], 'ip:198.51.100.5', 4)).admitted).toBe(4);
    expect((await open([two.caps], 'ip:198.51.100.5', 4)).admitted).toBe(4);
  });
});

describe.skipIf(redisServerMissing !== null)(`GET /api/stream through three instances on one Redis${redisServerMissing ? ` (${redisServerMissing})` : ''}`, () => {
  let redis: RedisServer;
  let cluster: Awaited<ReturnType<typeof deployment>>;
  let instances: Instance[];
  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await deployment({ redisUrl: redis.url, env: { SSE_PING_MS: '0', RATE_LIMIT_QUOTA: '100000', TRUST_PROXY: 'true' } }, 3);
    instances = cluster.instances;
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    await redis?.close();
  }, 60_000);

  it('holds one client to SSE_MAX_CONNECTIONS_PER_CLIENT (32) streams over all three, not 32 on each', async () => {
    const perClient = instances[0]!.ctx.config.stream.maxConnectionsPerClient;
    expect(perClient).toBe(32);
    const aborts: AbortController[] = [];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const abort = new AbortController();
        aborts.push(abort);
        return fetch(`${instances[i % 3]!.server.base}/api/stream?channels=breakouts.new`, { headers: { 'x-forwarded-for': '203.0.113.7' }, signal: abort.signal });
      }),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(perClient);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - perClient);
    for (const r of answers) if (r.status !== 200) await r.text();
    for (const abort of aborts) abort.abort();
  });
});
