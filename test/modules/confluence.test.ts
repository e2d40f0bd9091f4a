import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { ConfluenceResponse } from '../../src/modules/signals/model';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';

const FACTORS = ['trend', 'momentum', 'volume', 'volatilityContraction', 'relativeStrength', 'higherTimeframe', 'activePatterns'];

describe('GET /api/confluence (synthetic)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());
  it('scores the seven factors with their values, votes and weights', async () => {
    const { status, headers, body } = await ctx.json<ConfluenceResponse>('/api/confluence?symbol=aapl');
    expect(status).toBe(200);
    expect(headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(body).toMatchObject({ ok: true, symbol: 'AAPL', timeframe: 'daily', benchmark: 'SPY', higherTimeframe: 'weekly', lookback: { requested: 20, effective: 20 } });
    expect(body.factors.map((f: { name: string }) => f.name)).toEqual(FACTORS);
    const weights = body.factors.reduce((a: number, f: { weight: number }) => a + f.weight, 0);
    expect(weights).toBeCloseTo(1, 10);
    const score = body.factors.reduce((a: number, f: { weight: number; vote: number }) => a + f.weight * f.vote, 0) * 100;
    expect(body.score).toBeCloseTo(score, 1);
    expect(body.direction).toBe(body.score >= 30 ? 'bullish' : body.score <= -30 ? 'bearish' : 'neutral');
    for (const f of body.factors) {
      expect([-1, 0, 1]).toContain(f.vote);
      expect(f.detail.length).toBeGreaterThan(0);
      if (f.value === null) expect(f.vote).toBe(0);
    }
    expect(body.coverage).toBeGreaterThan(0.5); // the synthetic history is long enough for every factor but maybe patterns
    expect(body.method.weights).toMatchObject({ trend: 0.25 });
  });

  it('uses the daily series as the higher timeframe under 1h and 4h bars', async () => {
    for (const timeframe of ['1h', '4h']) {
      const { status, body } = await ctx.json<ConfluenceResponse>(`/api/confluence?symbol=MSFT&timeframe=${timeframe}&lookback=10`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ timeframe, higherTimeframe: 'daily', lookback: { requested: 10, effective: 10 } });
      const higher = body.factors.find((f) => f.name === 'higherTimeframe')!;
      expect(higher.value).not.toBeNull();
      // The daily bar of the hour's own session is not over yet: the higher timeframe stands on an earlier day.
      expect(higher.detail.slice(higher.detail.indexOf('bar of') + 7, higher.detail.indexOf('bar of') + 17) < body.asOf.slice(0, 10)).toBe(true);
    }
  });

  it('clamps a lookback longer than the history and says so', async () => {
    const { body } = await ctx.json<ConfluenceResponse>('/api/confluence?symbol=AAPL&lookback=100000');
    expect(body.lookback.requested).toBe(100000);
    expect(body.lookback.effective).toBe(body.bars - 1);
    expect(body.factors.find((f) => f.name === 'volume')!.detail).toContain('clamped');
  });

  it('evaluates as of a date on the last bar at or before it', async () => {
    const { body } = await ctx.json<ConfluenceResponse>('/api/confluence?symbol=AAPL&asOf=2025-06-01'); // a Sunday
    expect(body.asOf).toBe('2025-05-30T00:00:00.000Z');
  });

  it.each([
    ['', "'symbol'"],
    ['?timeframe=daily', "'symbol'"],
    ['?symbol=AAPL&timeframe=1d', "'timeframe'"],
    ['?symbol=AAPL&lookback=0', "'lookback'"],
    ['?symbol=AAPL&lookback=-5', "'lookback'"],
    ['?symbol=AAPL&lookback=2.5', "'lookback'"],
    ['?symbol=AAPL&lookback=ten', "'lookback'"],
    ['?symbol=AAPL&asOf=yesterday', "'asOf'"],
    ['?symbol=AAPL&benchmark=NOPE1', "'benchmark'"],
    ['?symbol=$$$', "'symbol'"],
  ])('answers 400 for %s', async (query, names) => {
    const response = await ctx.request(`/api/confluence${query}`);
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.error).toContain(names);
  });

  it('answers 404 for an unknown symbol and for a date before its history', async () => {
    expect((await ctx.request('/api/confluence?symbol=ZZZZ')).status).toBe(404);
    const early = await ctx.request('/api/confluence?symbol=AAPL&asOf=1990-01-02');
    expect(early.status).toBe(404);
    expect((await errorBody(early)).code).toBe('not_found');
  });
});
