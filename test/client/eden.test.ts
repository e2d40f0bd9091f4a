/**
 * The typed client (clients/typescript/eden.ts: Eden Treaty over the app's type) against a
 * running server on a loopback port: typed answers, typed errors, headers.
 * The calls below are also the compile-time check: `tsc` fails if a path,
 * parameter or field here drifts from the server's schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createClient } from '../../clients/typescript/eden';
import { createTestContext, type TestContext } from '../helpers/app';

let ctx: TestContext;
let api: ReturnType<typeof createClient>;
beforeAll(async () => {
  ctx = await createTestContext();
  ctx.app.listen({ port: 0, hostname: '127.0.0.1' });
  api = createClient(`http://127.0.0.1:${ctx.app.server!.port}`);
});
afterAll(async () => {
  await ctx.app.stop();
  await ctx.close();
});

describe('Eden Treaty client', () => {
  it('reads bars with typed query and answer', async () => {
    const { data, error, status } = await api.api.bars.get({ query: { symbol: 'aapl', range: '1mo', timeframe: 'daily' } });
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data!.symbol).toBe('AAPL');
    expect(data!.source).toBe('synthetic');
    expect(data!.bars).toHaveLength(21);
    const last = data!.bars.at(-1)!;
    expect(last.high).toBeGreaterThanOrEqual(last.low);
  });

  it('reads the health, the probes and a route with a path parameter', async () => {
    const health = await api.api.health.get();
    expect(health.data!.checks.db).toBe('ok');
    const live = await api.livez.get();
    expect(live.data!.status).toBe('ok');
    const filings = await api.api.filings({ symbol: 'MSFT' }).get({ query: { limit: 2 } });
    expect(filings.status).toBe(200);
    expect(filings.error).toBeNull();
  });

  it('gives errors their status and the Error shape, and sends headers', async () => {
    const unknown = await api.api.bars.get({ query: { symbol: 'ZZZZZ', range: '1mo', timeframe: 'daily' } });
    expect(unknown.data).toBeNull();
    expect(unknown.error!.status).toBe(404);
    expect(unknown.error!.value).toMatchObject({ code: 'not_found' });
    const v11 = await api.api.bars.get({ query: { symbol: 'AAPL', timeframe: 'daily' }, headers: { 'api-version': '1.1.0' } });
    expect(v11.error!.status).toBe(400);
    expect(v11.response.headers.get('api-version')).toBe('1.1.0');
  });
});
