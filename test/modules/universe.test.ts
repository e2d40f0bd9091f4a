import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { Elysia } from 'elysia';
import { UniverseScanQuery, UniverseScanResponse } from '../../src/modules/signals/model';
import { scanUniverse, universeAnswer } from '../../src/modules/signals/universe';
import { withErrors } from '../../src/modules/shared/params';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('GET /api/universe/scan', () => {
  it('ranks the S&P 500 by RS rank with trend template, liquidity, sector and regime', async () => {
    const { status, body } = await ctx.json<UniverseScanResponse>('/api/universe/scan');
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, source: 'sp500', benchmark: 'SPY', filters: { minRsRank: 0, minAvgVolUsd: 200_000_000, limit: 50 } });
    expect(body.universeSize).toBe(503);
    expect(body.ranked).toHaveLength(50); // the default limit
    expect(['risk_on', 'neutral', 'risk_off']).toContain(body.regime!.regime);
    expect(body.regimeMultiplier).toBe(body.regime!.multiplier);
    const ranks = body.ranked.map((r) => r.rsRank);
    expect([...ranks].sort((a, b) => b! - a!)).toEqual(ranks);
    for (const row of body.ranked) {
      expect(row.indices).toContain('sp500');
      expect(row.avgDollarVolume).toBeGreaterThanOrEqual(200_000_000);
      expect(row.rsRank).toBeGreaterThanOrEqual(1);
      expect(row.rsRank).toBeLessThanOrEqual(99);
      expect(row.trendTemplate.met + row.trendTemplate.failed.length).toBe(8);
      expect(row.trendTemplate.passed).toBe(row.trendTemplate.failed.length === 0);
      if (row.bestSetup) expect(row.bestSetup.symbol).toBe(row.symbol);
    }
  });

  it('applies minRsRank, minAvgVolUsd and limit', async () => {
    const { body } = await ctx.json<UniverseScanResponse>('/api/universe/scan?minRsRank=80&minAvgVolUsd=0&limit=500');
    expect(body.ranked.length).toBeGreaterThan(50);
    for (const row of body.ranked) expect(row.rsRank).toBeGreaterThanOrEqual(80);
    expect((await ctx.json<UniverseScanResponse>('/api/universe/scan?minAvgVolUsd=0&limit=7')).body.ranked).toHaveLength(7);
  });

  it('unions sources and keeps a name rank independent of the filter', async () => {
    const nasdaq = (await ctx.json<UniverseScanResponse>('/api/universe/scan?source=nasdaq100&minAvgVolUsd=0&limit=500')).body;
    expect(nasdaq.ranked).toHaveLength(101); // instruments.csv's 101 Nasdaq-100 listings (Alphabet as GOOG and GOOGL)
    for (const row of nasdaq.ranked) expect(row.indices).toContain('nasdaq100');
    const both = (await ctx.json<UniverseScanResponse>('/api/universe/scan?source=sp500,nasdaq100&minAvgVolUsd=0&limit=500')).body;
    expect(both.universeSize).toBeGreaterThan(nasdaq.universeSize);
    const inBoth = new Map(both.ranked.map((r): [string, number | null] => [r.symbol, r.rsRank]));
    for (const row of nasdaq.ranked) expect(inBoth.get(row.symbol)).toBe(row.rsRank);
  });

  it('takes the 100 most liquid names for high_liquidity', async () => {
    const { body } = await ctx.json<UniverseScanResponse>('/api/universe/scan?source=high_liquidity&minAvgVolUsd=0&limit=500');
    expect(body.universeSize).toBe(100);
    expect(body.ranked).toHaveLength(100);
    const rest = (await ctx.json<UniverseScanResponse>('/api/universe/scan?source=sp500,nasdaq100&minAvgVolUsd=0&limit=500')).body.ranked;
    const floor = Math.min(...body.ranked.map((r: { avgDollarVolume: number }) => r.avgDollarVolume));
    const liquid = new Set(body.ranked.map((r: { symbol: string }) => r.symbol));
    expect(rest.filter((row) => !liquid.has(row.symbol)).length).toBeGreaterThan(0);
    for (const row of rest) if (!liquid.has(row.symbol)) expect(row.avgDollarVolume).toBeLessThanOrEqual(floor);
  });

  it.each(['limit=500&minAvgVolUsd=0', 'source=nasdaq100,high_liquidity&minRsRank=50', ''])(
    'answers %s with the bytes Elysia sends for the same answer returned as an object',
    async (qs) => {
      // The route as it was (the answer object returned to Elysia, which checks, encodes, mirrors and serialises it) and
      // as it is, each on a bare app with the route's schemas (the app's costly quota is left to the other tests).
      const route = { query: UniverseScanQuery, response: withErrors(UniverseScanResponse, 400, 429, 500) };
      const app = new Elysia().get('/before', ({ query }) => scanUniverse(ctx.services, query), route).get('/now', ({ query }) => universeAnswer(ctx.services, query), route);
      const read = async (path: string) => (await app.handle(new Request(`http://localhost${path}?${qs}`))).text();
      // Both read the same universe scan (jobs/runs reuses it for a minute), so generatedAt agrees too.
      const [now, then] = [await read('/now'), await read('/before')];
      expect(JSON.parse(now).ranked.length).toBeGreaterThan(0);
      expect(now).toBe(then);
    },
    30_000,
  );

  it('makes one answer for callers of the same query at once', async () => {
    const { marketData, runs, log } = ctx.services;
    let reads = 0; // the instruments an answer reads
    const counting = Object.create(marketData, { instruments: { value: () => (reads++, marketData.instruments()) } }) as typeof marketData;
    const query = { source: 'sp500', benchmark: 'SPY', minRsRank: 0, minAvgVolUsd: 0, limit: 120 };
    await universeAnswer({ marketData: counting, runs, log }, query);
    const one = reads;
    const bodies = await Promise.all(Array.from({ length: 5 }, () => universeAnswer({ marketData: counting, runs, log }, query).then((r) => r.text())));
    expect(one).toBeGreaterThan(0);
    expect(reads).toBe(2 * one);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!).ranked).toHaveLength(120);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['source=russell2000', 'source'],
    ['minRsRank=high', 'minRsRank'],
    ['minAvgVolUsd=-5', 'minAvgVolUsd'],
    ['benchmark=NOPE', 'benchmark'],
  ])('refuses %s with 400', async (qs, parameter) => {
    const response = await ctx.request(`/api/universe/scan?${qs}`);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toContain(parameter);
  });
});
