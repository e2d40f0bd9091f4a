/**
 * PostgreSQL stopped mid-run, through a TCP proxy we cut (the server itself is
 * shared with other engineers' tests): readiness and health answer 503 with
 * `db: down`, reads that need the database answer 503 `unavailable` in the
 * Error shape at once (no hang, no 500), probes stay live, and everything
 * recovers by itself when the database returns. Needs DATABASE_URL (CI's
 * PostgreSQL pass); PGlite lives in the process and cannot go away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { HealthResponse, ReadinessResponse } from '../../src/modules/system/model';
import { createTestContext, smallSyntheticMarket, type ErrorBody, type TestContext } from '../helpers/app';
import { freshDatabaseUrl } from '../helpers/db';
import { tcpProxy } from '../helpers/tcp-proxy';

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL outage (DATABASE_URL)', () => {
  let ctx: TestContext;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  beforeAll(async () => {
    database = (await freshDatabaseUrl())!;
    const url = new URL(database.url);
    proxy = await tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    ctx = await createTestContext({ provider: smallSyntheticMarket(), env: { DATABASE_URL: url.toString() } });
    await ctx.services.warm();
  });
  afterAll(async () => {
    await proxy.start().catch(() => {});
    await ctx.close();
    await proxy.stop();
    await database?.drop();
  });

  const ledger = '/api/transparency/ledger?limit=5';

  it('answers 503 with db down, reads 503 in the Error shape, and recovers by itself', async () => {
    expect((await ctx.request(ledger)).status).toBe(200);
    await proxy.stop();

    await ctx.services.health.refresh(); // the background round, run now
    const health = await ctx.json<HealthResponse>('/api/health');
    expect(health.status).toBe(503);
    expect(health.body.checks.db).toBe('down');
    const ready = await ctx.json<ReadinessResponse>('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toBe(false);
    expect((await ctx.request('/livez')).status).toBe(200);

    for (const path of [ledger, '/api/transparency/checkpoints', '/api/breakouts/history?symbol=AAPL']) {
      const started = performance.now();
      const reply = await ctx.request(path);
      const body = (await reply.json()) as ErrorBody;
      expect({ path, status: reply.status, code: body.code }).toEqual({ path, status: 503, code: 'unavailable' });
      expect(body.requestId).toBe(reply.headers.get('x-request-id')!);
      expect(body.error).toContain('database');
      expect(reply.headers.get('retry-after')).not.toBeNull();
      expect(performance.now() - started).toBeLessThan(10_000); // answered, not hung on a connect timeout
    }
    const metrics = await (await ctx.request('/metrics')).text();
    expect(metrics).toContain('breakline_db_up 0');

    await proxy.start();
    await ctx.services.health.refresh();
    const back = await ctx.json<HealthResponse>('/api/health');
    expect(back.status).toBe(200);
    expect(back.body.checks.db).toBe('ok');
    expect((await ctx.json<ReadinessResponse>('/readyz')).status).toBe(200);
    expect((await ctx.request(ledger)).status).toBe(200);
  });
});
