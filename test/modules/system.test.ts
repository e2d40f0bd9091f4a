import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { MarketDataProvider } from '../../src/providers/types';
import { ProviderError } from '../../src/providers/types';
import { MemoryRateLimitStore } from '../../src/ratelimit';
import type { HealthResponse } from '../../src/modules/system/model';
import { createTestContext, syntheticMarket, type TestContext } from '../helpers/app';

describe('GET /api/health', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('reports every subsystem, warning that the data is synthetic', async () => {
    const { status, headers, body } = await ctx.json<HealthResponse>('/api/health');
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.checks).toEqual({ db: 'ok', dataAdapter: 'ok', env: 'warn', kv: 'ok' });
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Number.isInteger(body.uptime)).toBe(true);
    expect(Date.parse(body.timestamp)).not.toBeNaN();
    expect(body.details!.env!.message).toContain('synthetic');
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id']) {
      expect(headers.get(header)).not.toBeNull();
    }
  });

  it('answers 503 and names the database when it is down', async () => {
    const broken = await createTestContext();
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
    const sick = await createTestContext({ provider: failing });
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

  it('reports kv down when the rate-limit store cannot be reached, and still serves', async () => {
    const store = new MemoryRateLimitStore();
    store.ping = async () => {
      throw new Error('connection refused');
    };
    store.hit = (() => Promise.reject(new Error('connection refused'))) as unknown as typeof store.hit;
    const offline = await createTestContext({ rateLimitStore: store });
    try {
      const { status, body } = await offline.json<HealthResponse>('/api/health');
      expect(status).toBe(503);
      expect(body.checks.kv).toBe('down');
    } finally {
      await offline.close();
    }
  });
});
