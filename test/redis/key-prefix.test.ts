/**
 * REDIS_KEY_PREFIX isolates deployments on one Redis (issue 26 item 6): two
 * deployments, each with its own database and prefix, on one private Redis
 * (test/helpers/redis-server). One's stream subscribers receive none of the
 * other's events, one's rate-limit counts and stream caps are not the
 * other's, and every key either wrote starts with its own prefix.
 * Skipped, with the reason, without redis-server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import Redis from 'ioredis';
import { createTestContext, type TestContext } from '../helpers/app';
import { redisServerMissing, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { RecordingSource, serve } from '../helpers/sse';
import { until } from '../helpers/until';

const STATE = (n: number) => ({ signalId: `PFX-${n}`, symbol: 'AAPL', from: 'forming' as const, to: 'triggered' as const, price: n, at: '2026-11-20T18:00:00.000Z' });
const PREFIXES = ['bl1:', 'bl3:'];

describe.skipIf(redisServerMissing !== null)(`two deployments on one Redis${redisServerMissing ? ` (${redisServerMissing})` : ''}`, () => {
  let redis: RedisServer;
  const deployments: { ctx: TestContext; server: ReturnType<typeof serve> }[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
    for (const keyPrefix of PREFIXES) {
      const ctx = await createTestContext({
        env: { SSE_PING_MS: '0', RATE_LIMIT_QUOTA: '5', SSE_MAX_CONNECTIONS_PER_CLIENT: '2', TRUST_PROXY: 'true' },
        redisBus: { url: redis.url, keyPrefix },
      });
      await ctx.services.hub.start();
      deployments.push({ ctx, server: serve(ctx) });
    }
  }, 120_000);
  afterAll(async () => {
    for (const { ctx, server } of deployments) {
      await server.stop();
      await ctx.close();
    }
    await redis?.close();
  }, 60_000);

  it('delivers one deployment’s events to its own subscribers only, though both logs number their events from 1', async () => {
    const [one, three] = deployments as [(typeof deployments)[0], (typeof deployments)[0]];
    const onOne = new RecordingSource(`${one.server.base}/api/stream?channels=breakouts.state_change`);
    const onThree = new RecordingSource(`${three.server.base}/api/stream?channels=breakouts.state_change`);
    await until('both hellos', () => onOne.of('hello').length === 1 && onThree.of('hello').length === 1);
    for (let n = 0; n < 20; n++) one.ctx.services.bus.publish('breakouts.state_change', STATE(n));
    three.ctx.services.bus.publish('breakouts.state_change', STATE(100));
    await until('each deployment’s own events', () => onOne.of('breakouts.state_change').length === 20 && onThree.of('breakouts.state_change').length === 1);
    await Bun.sleep(500); // and nothing of the other's arrives
    expect(onOne.of('breakouts.state_change').map((e) => e.data.price)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(onThree.of('breakouts.state_change').map((e) => [e.id, e.data.price])).toEqual([['1', 100]]);
    onOne.close();
    onThree.close();
  });

  it('counts one client’s requests and streams per deployment', async () => {
    const client = { headers: { 'x-forwarded-for': '192.0.2.44' } };
    for (const { ctx } of deployments) {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await ctx.request('/api/macro/calendar', client)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    }
    const streams = await Promise.all(deployments.flatMap(({ server }) => [0, 1, 2].map(() => fetch(`${server.base}/api/stream?channels=`, { headers: { 'x-forwarded-for': '192.0.2.45' } }))));
    const perDeployment = [streams.slice(0, 3), streams.slice(3)].map((group) => group.map((r) => r.status).sort());
    expect(perDeployment).toEqual([
      [200, 200, 429],
      [200, 200, 429],
    ]);
    for (const r of streams) await r.body?.cancel();
  });

  it('writes every key under the deployment’s own prefix', async () => {
    const direct = new Redis(redis.url);
    const keys = await direct.keys('*');
    direct.disconnect();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((key) => !PREFIXES.some((prefix) => key.startsWith(prefix)))).toEqual([]);
    for (const prefix of PREFIXES) expect(keys).toContain(`${prefix}stream`);
  });
});
