import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { MarketDataProvider } from '../../src/providers/types';
import { ProviderError } from '../../src/providers/types';
import { MemoryRateLimitStore } from '../../src/ratelimit';
import type { HealthResponse, ReadinessResponse } from '../../src/modules/system/model';
import { createTestContext, PIPELINES, syntheticMarket, type TestContext, type TestContextOptions } from '../helpers/app';

// Through Elysia (app.handle) and through the fast path the server puts in front of it (its 200s are answered there, a 503 is left to the app).
describe.each(PIPELINES)('GET /api/health through %s', (pipeline) => {
  /** A fresh context whose requests come through this pipeline. */
  const open = async (options?: TestContextOptions) => (await createTestContext(options)).via(pipeline);
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await open();
  });
  afterAll(() => ctx.close());

  it('reports every subsystem, warning that the data is synthetic', async () => {
    const { status, headers, body } = await ctx.json<HealthResponse>('/api/health');
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.checks).toEqual({ db: 'ok', dataAdapter: 'ok', env: 'warn', kv: 'ok', pool: 'ok', bus: 'ok' });
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Number.isInteger(body.uptime)).toBe(true);
    expect(Date.parse(body.timestamp)).not.toBeNaN();
    expect(body.details!.env!.message).toContain('synthetic');
    expect(Date.parse(body.checkedAt)).toBeLessThanOrEqual(Date.parse(body.timestamp));
    expect(body.ageMs).toBeGreaterThanOrEqual(0);
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id']) {
      expect(headers.get(header)).not.toBeNull();
    }
  });

  it('answers 503 and names the database when it is down', async () => {
    const broken = await open();
    await broken.services.database.close();
    const { status, body } = await broken.json<HealthResponse>('/api/health');
    expect(status).toBe(503);
    expect(body.status).toBe('degraded');
    expect(body.checks.db).toBe('down');
    expect(body.checks.dataAdapter).toBe('ok');
    await broken.services.rateLimitStore.close();
  });

  it('answers 503 naming the provider and symbol when the data adapter fails', async () => {
    const real = syntheticMarket();
    const failing: MarketDataProvider = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
      selfCheck: async () => {
        throw new ProviderError('unavailable', 'synthetic', 'SPY', 'vendor timed out');
      },
    });
    const sick = await open({ provider: failing });
    try {
      const { status, body } = await sick.json<HealthResponse>('/api/health');
      expect(status).toBe(503);
      expect(body.checks.dataAdapter).toBe('down');
      expect(body.details!.dataAdapter!.message).toContain('synthetic');
      expect(body.details!.dataAdapter!.message).toContain('SPY');
    } finally {
      await sick.close();
    }
  });

  it('calls a worker pool that answers too late degraded, not down, and stays ready (busy threads queue tasks)', async () => {
    const busy = await open();
    busy.services.pool.ping = () => new Promise(() => {}); // every thread taken: the ping never gets one in time
    try {
      const { status, body } = await busy.json<HealthResponse>('/api/health');
      expect(status).toBe(200);
      expect(body.checks.pool).toBe('degraded');
      expect(body.details!.pool!.message).toMatch(/^no answer within \d+ ms$/);
      expect((await busy.json<ReadinessResponse>('/readyz')).body.checks.pool).toBe(true);
    } finally {
      await busy.close();
    }
  });

  it('answers from the last round of checks, with its age, without checking again', async () => {
    const real = syntheticMarket();
    let selfChecks = 0;
    const counting: MarketDataProvider = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
      selfCheck: async () => {
        selfChecks++;
        return real.selfCheck();
      },
    });
    const quiet = await open({ provider: counting });
    try {
      const first = (await quiet.json<HealthResponse>('/api/health')).body;
      await Bun.sleep(20);
      const second = (await quiet.json<HealthResponse>('/api/health')).body;
      expect(selfChecks).toBe(1);
      expect(second.checkedAt).toBe(first.checkedAt);
      expect(second.ageMs).toBeGreaterThanOrEqual(20);
      await quiet.services.health.refresh();
      expect(selfChecks).toBe(2);
      expect((await quiet.json<HealthResponse>('/api/health')).body.checkedAt).not.toBe(first.checkedAt);
    } finally {
      await quiet.close();
    }
  });

  it('answers 503 naming the worker pool when no worker thread answers', async () => {
    const sick = await open();
    sick.services.pool.ping = () => Promise.reject(new Error('worker pool unavailable: Cannot find module worker.js'));
    try {
      const { status, body } = await sick.json<HealthResponse>('/api/health');
      expect(status).toBe(503);
      expect(body.checks.pool).toBe('down');
      expect(body.details!.pool!.message).toContain('worker pool unavailable');
      expect((await sick.json<ReadinessResponse>('/readyz')).body.checks.pool).toBe(false);
    } finally {
      await sick.close();
    }
  });

  it('reports kv down when the rate-limit store cannot be reached, and still serves', async () => {
    const store = new MemoryRateLimitStore();
    store.ping = async () => {
      throw new Error('connection refused');
    };
    store.hit = (() => Promise.reject(new Error('connection refused'))) as unknown as typeof store.hit;
    const offline = await open({ rateLimitStore: store });
    try {
      const { status, body } = await offline.json<HealthResponse>('/api/health');
      expect(status).toBe(503);
      expect(body.checks.kv).toBe('down');
    } finally {
      await offline.close();
    }
  });
});

describe('GET /livez and GET /readyz', () => {
  it('are live at once, and ready only once the warm-up loaded the first scan', async () => {
    const ctx = await createTestContext();
    try {
      const live = await ctx.json<{ status: string; uptime: number }>('/livez');
      expect(live.status).toBe(200);
      expect(live.body.status).toBe('ok');
      const before = await ctx.json<ReadinessResponse>('/readyz');
      expect(before.status).toBe(503);
      expect(before.body).toMatchObject({ status: 'starting', checks: { migrations: true, firstScan: false } });
      await ctx.services.warm();
      const after = await ctx.json<ReadinessResponse>('/readyz');
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ status: 'ready', step: 'done', checks: { database: true, migrations: true, pool: true, firstScan: true } });
      expect((await ctx.services.runs.latest('daily'))?.run.id).toBeString();
    } finally {
      await ctx.close();
    }
  });

  it('turn not ready, not dead, when the database goes away', async () => {
    const ctx = await createTestContext();
    await ctx.services.warm();
    await ctx.services.database.close();
    await ctx.services.health.refresh();
    const ready = await ctx.json<ReadinessResponse>('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'not_ready', checks: { database: false, firstScan: true } });
    expect((await ctx.request('/livez')).status).toBe(200);
    ctx.services.health.stop();
    await ctx.services.pool.destroy();
    await ctx.services.rateLimitStore.close();
  });
});
