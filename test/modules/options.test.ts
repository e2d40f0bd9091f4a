import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { blackScholesPrice } from '../../src/kernels/options/black-scholes';
import type { Static } from 'elysia';
import { AnalyzeResponse } from '../../src/modules/options/model';
import { createTestContext, type ErrorBody, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Analysis = Static<typeof AnalyzeResponse>;
const analyze = <T = Analysis>(q: string) => ctx.json<T>(`/api/options/analyze?symbol=AAPL&${q}`);

describe('GET /api/options/analyze', () => {
  it('prices every candidate with Black–Scholes and echoes the effective inputs', async () => {
    const { status, body } = await analyze('trigger=100&target=110');
    expect(status).toBe(200);
    expect(body.symbol).toBe('AAPL');
    expect(body.direction).toBe('long');
    expect(body.inputs).toMatchObject({ trigger: 100, target: 110, stop: 95, stopDefaulted: true, iv: 0.3, ivRank: null, expiryDays: 30, r: 0.05, strikes: [97.5, 100, 102.5, 110], expiries: [15, 30, 60] });
    expect(body.candidates).toHaveLength(12);
    for (const c of body.candidates) {
      expect(c.type).toBe('call');
      expect(c.price).toBeCloseTo(blackScholesPrice('call', 100, c.strike, c.expiryDays / 365, 0.05, 0.3), 3);
      expect(c.valueAtTarget).toBeGreaterThanOrEqual(c.valueAtStop);
    }
    expect(body.stock).toEqual({ reward: 10, risk: 5, rewardRisk: 2 });
    expect(body.probabilities.targetBeforeStop).toBeCloseTo(Math.log(100 / 95) / Math.log(110 / 95), 4);
    expect(body.expectedTimeToTarget.days).toBeCloseTo((Math.log(1.1) / (0.3 * 0.6744897501960817)) ** 2 * 365, 0);
    expect(['long_call', 'vertical_debit_spread', 'stock']).toContain(body.recommendation.strategy);
    expect(body.recommendation.reasoning.length).toBeGreaterThan(1);
  });

  it('recommends the debit spread when IV rank is high and the spread returns its risk', async () => {
    const { body } = await analyze('trigger=100&target=110&stop=95&ivRank=80');
    const spread = body.spreads.find((s) => s.expiryDays === 30)!;
    expect(spread.rewardRisk).toBeGreaterThanOrEqual(1);
    expect(body.recommendation.strategy).toBe('vertical_debit_spread');
    expect(body.recommendation.legs).toMatchObject({ longStrike: 100, shortStrike: 110, maxValue: 10 });
    expect(spread.cost).toBeCloseTo(blackScholesPrice('call', 100, 100, 30 / 365, 0.05, 0.3) - blackScholesPrice('call', 100, 110, 30 / 365, 0.05, 0.3), 3);
    expect(body.recommendation.reasoning.join(' ')).toContain('IV rank 80');
  });

  it('recommends the stock when the target is out of reach before the longest expiry', async () => {
    const { body } = await analyze('trigger=100&target=200&stop=90');
    expect(body.recommendation.strategy).toBe('stock');
    expect(body.recommendation.reasoning.join(' ')).toContain('< 25%');
  });

  it('picks a long option only when it beats both 1 and the stock', async () => {
    // The last plan (a stop as far as the target, so the stock's reward/risk is 1) is one a call wins.
    let longCalls = 0;
    let stockOverOptions = 0;
    for (const q of ['trigger=100&target=120&stop=80&iv=0.4&expiryDays=90', 'trigger=50&target=56&stop=48&iv=0.2', 'trigger=300&target=330&stop=290&expiryDays=45', 'trigger=100&target=115&stop=85&iv=0.25&expiryDays=60']) {
      const { body } = await analyze(q);
      const r = body.recommendation;
      if (r.strategy === 'long_call') {
        longCalls++;
        expect(r.contract.rewardRisk).toBeGreaterThanOrEqual(Math.max(1, body.stock.rewardRisk));
      }
      if (r.strategy === 'stock' && !r.reasoning.join(' ').includes('< 25%')) {
        const longer = body.candidates.filter((x) => x.expiryDays >= 30);
        expect(longer.length).toBeGreaterThan(0);
        stockOverOptions++;
        for (const c of longer) expect(c.rewardRisk ?? 0).toBeLessThan(Math.max(1, body.stock.rewardRisk) + 1e-9);
      }
    }
    expect(longCalls).toBeGreaterThan(0);
    expect(stockOverOptions).toBeGreaterThan(0);
  });

  it('analyses a short with puts', async () => {
    const { status, body } = await ctx.json<Analysis>('/api/options/analyze?symbol=MSFT&direction=short&trigger=100&target=90&stop=104');
    expect(status).toBe(200);
    expect(body.direction).toBe('short');
    expect(body.candidates).toHaveLength(12); // 4 strikes × 3 expiries, as for the long
    expect(body.candidates.every((c) => c.type === 'put')).toBe(true);
    for (const c of body.candidates) expect(c.price).toBeCloseTo(blackScholesPrice('put', 100, c.strike, c.expiryDays / 365, 0.05, 0.3), 3);
  });

  it('warns of IV crush when earnings fall before expiry, and not otherwise', async () => {
    // NVDA's next synthetic report is 2026-12-21, 31 days after the fixed clock.
    const before = await ctx.json<Analysis>('/api/options/analyze?symbol=NVDA&trigger=100&target=108&expiryDays=45');
    expect(before.body.ivCrush).toMatchObject({ earningsDate: '2026-12-21', daysAway: 31, affectsExpiries: [45, 90] });
    const after = await ctx.json<Analysis>('/api/options/analyze?symbol=NVDA&trigger=100&target=108&expiryDays=10');
    expect(after.body.ivCrush).toBeNull();
    const fund = await ctx.json<Analysis>('/api/options/analyze?symbol=SPY&trigger=100&target=108');
    expect(fund.body.ivCrush).toBeNull();
  });

  it.each([
    ['trigger=abc&target=110', 'trigger'],
    ['target=110', 'trigger'],
    ['trigger=100', 'target'],
    ['trigger=100&target=90', 'target'],
    ['trigger=100&target=110&stop=101', 'stop'],
    ['direction=short&trigger=100&target=110', 'target'],
    ['direction=short&trigger=100&target=90&stop=95', 'stop'],
    ['direction=sideways&trigger=100&target=110', 'direction'],
    ['trigger=-5&target=110', 'trigger'],
    ['trigger=100&target=110&iv=0', 'iv'],
    ['trigger=100&target=110&iv=6', 'iv'],
    ['trigger=100&target=110&ivRank=101', 'ivRank'],
    ['trigger=100&target=110&expiryDays=0', 'expiryDays'],
    ['trigger=100&target=110&expiryDays=2.5', 'expiryDays'],
    ['trigger=100&target=110&r=1', "'r'"],
    ['trigger=10&target=40', 'stop'],
  ])('%s → 400 naming %s', async (q, name) => {
    const { status, body } = await analyze<ErrorBody>(q);
    expect(status).toBe(400);
    expect(body.error).toContain(name);
    expect(body.requestId).toBeString();
  });

  it('answers 404 for an unknown symbol and 400 without one', async () => {
    expect((await ctx.json('/api/options/analyze?symbol=ZZZZ&trigger=100&target=110')).status).toBe(404);
    expect((await ctx.json('/api/options/analyze?trigger=100&target=110')).status).toBe(400);
  });
});
