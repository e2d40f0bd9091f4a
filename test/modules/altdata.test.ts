import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { blackScholesGreeks } from '../../src/kernels/options/black-scholes';
import { squeezeScore } from '../../src/kernels/squeeze';
import type { Static } from 'elysia';
import { FilingsPage, InsiderPage, InsiderResponse, OptionsFlowResponse, ShortInterestPage, ShortInterestResponse, SocialPage } from '../../src/modules/altdata/model';
import { socialSummary } from '../../src/modules/altdata/service';
import { createCsvProvider } from '../../src/providers/csv';
import { createTestContext, FIXED_TODAY as TODAY, syntheticMarket, type ErrorBody, type TestContext } from '../helpers/app';
import { fixture } from '../helpers/fixtures';

let ctx: TestContext;
const synthetic = syntheticMarket();
beforeAll(async () => {
  ctx = await createTestContext({ provider: synthetic });
});
afterAll(() => ctx.close());

type Insider = Static<typeof InsiderResponse>;
type ShortInterest = Static<typeof ShortInterestResponse>;

describe('insider transactions', () => {
  it('lists the window newest first and sums open-market trades only', async () => {
    const { status, body } = await ctx.json<Insider>('/api/altdata/insider?symbol=MSFT&windowDays=365');
    expect(status).toBe(200);
    expect(body).toMatchObject({ symbol: 'MSFT', windowDays: 365, to: TODAY, from: '2025-11-21', source: 'synthetic' });
    const raw = await synthetic.insiderTransactions('MSFT', { from: '2025-11-21', to: TODAY });
    expect(raw.length).toBeGreaterThan(0);
    expect(body.transactions).toHaveLength(raw.length);
    const dates = body.transactions.map((t) => t.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const buys = raw.filter((t) => t.code === 'P');
    const sells = raw.filter((t) => t.code === 'S');
    const s = body.summary;
    expect(s.buyCount).toBe(buys.length);
    expect(s.sellCount).toBe(sells.length);
    expect(s.netShares).toBe(buys.reduce((a, t) => a + t.shares, 0) - sells.reduce((a, t) => a + t.shares, 0));
    expect(s.netValue).toBeCloseTo(buys.reduce((a, t) => a + t.value!, 0) - sells.reduce((a, t) => a + t.value!, 0), 1);
    expect(s.otherByCode.A!.count).toBe(raw.filter((t) => t.code === 'A').length);
    expect(body.transactions.find((t) => t.code === 'F')!.codeDescription).toContain('withholding');
  });

  it('flags cluster buying exactly when three or more insiders bought', async () => {
    let clusters = 0;
    let quiet = 0;
    for (const symbol of ['AAPL', 'MSFT', 'NVDA', 'JPM', 'XOM', 'COST', 'AMD', 'UNH', 'LLY', 'CAT', 'HD', 'PG']) {
      const { body } = await ctx.json<Insider>(`/api/altdata/insider?symbol=${symbol}&windowDays=730`);
      const buyers = new Set(body.transactions.filter((t) => t.code === 'P').map((t) => t.insider));
      expect(body.summary.clusterBuying).toBe(buyers.size >= 3);
      expect(body.summary.distinctBuyers).toBe(buyers.size);
      if (body.summary.clusterBuying) {
        clusters++;
        expect(new Set(body.summary.clusterBuyers)).toEqual(buyers);
      } else quiet++;
    }
    expect(clusters).toBeGreaterThan(0);
    expect(clusters + quiet).toBe(12);
  });

  it('pages /api/insider with the summary over the whole window', async () => {
    const all = (await ctx.json<Static<typeof InsiderPage>>('/api/insider?symbol=AAPL&windowDays=365&limit=200')).body;
    const first = (await ctx.json<Static<typeof InsiderPage>>('/api/insider?symbol=AAPL&windowDays=365&limit=3')).body;
    expect(first.items).toHaveLength(3);
    expect(first.transactions).toEqual(first.items);
    expect(first.items).toEqual(all.items.slice(0, 3));
    expect(first.summary).toEqual(all.summary);
    expect(first.pagination).toMatchObject({ limit: 3, hasMore: true, total: all.items.length });
    const second = (await ctx.json<Static<typeof InsiderPage>>(`/api/insider?symbol=AAPL&windowDays=365&limit=3&cursor=${first.pagination.nextCursor}`)).body;
    expect(second.items).toEqual(all.items.slice(3, 6));
  });

  it('answers funds with no transactions', async () => {
    const { body } = await ctx.json<Insider>('/api/altdata/insider?symbol=SPY');
    expect(body.transactions).toEqual([]);
    expect(body.summary.clusterBuying).toBe(false);
  });
});

describe('short interest', () => {
  it('derives change, % of float and days to cover, and scores squeeze risk from them', async () => {
    const { status, body } = await ctx.json<ShortInterest>('/api/altdata/short-interest?symbol=AMD');
    expect(status).toBe(200);
    const reports = await synthetic.shortInterest('AMD');
    const last = reports.at(-1)!;
    const float = await synthetic.float('AMD');
    const s = body.snapshot!;
    expect(s.settlementDate).toBe(last.settlementDate);
    expect(s.change).toBe(last.sharesShort - last.previousSharesShort!);
    expect(s.percentOfFloat).toBeCloseTo((last.sharesShort / float.freeFloat!) * 100, 2);
    expect(s.daysToCover).toBe(last.daysToCover);
    const bars = await synthetic.bars({ symbol: 'AMD', timeframe: 'daily' });
    const n = bars.close.length - 1; // the live session left out
    const expected = squeezeScore({ shortPercentFloat: s.percentOfFloat! / 100, daysToCover: s.daysToCover, momentum: bars.close[n - 1]! / bars.close[n - 21]! - 1, utilisation: null });
    expect(body.squeeze!.score).toBeCloseTo(expected.score!, 1);
    expect<unknown>(body.squeezeRisk).toBe(expected.risk);
    expect(body.squeeze!.components.find((c) => c.key === 'utilisation')!.effectiveWeight).toBe(0);
  });

  it('pages the history newest first and answers funds with a null snapshot', async () => {
    const { body } = await ctx.json<Static<typeof ShortInterestPage>>('/api/short-interest?symbol=AMD&limit=4');
    expect(body.items).toHaveLength(4);
    expect(body.items[0]!.settlementDate > body.items[1]!.settlementDate).toBe(true);
    expect(body.reports).toEqual(body.items);
    expect(body.snapshot).toEqual(body.items[0]!);
    const fund = await ctx.json<ShortInterest>('/api/altdata/short-interest?symbol=SPY');
    expect(fund.status).toBe(200);
    expect(fund.body.snapshot).toBeNull();
    expect(fund.body.squeezeRisk).toBeUndefined();
  });
});

describe('filings and social', () => {
  it('lists filings newest first, filtered by form', async () => {
    const { body } = await ctx.json<Static<typeof FilingsPage>>('/api/filings/msft?form=10-q&limit=5');
    expect(body.symbol).toBe('MSFT');
    expect(body.items.length).toBeGreaterThan(0);
    expect(body.items.every((f) => f.form === '10-Q' && f.filedAt <= TODAY)).toBe(true);
    expect(body.filings).toEqual(body.items);
    const dates = body.items.map((f) => f.filedAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('counts mentions with a velocity over the window', async () => {
    const { body } = await ctx.json<Static<typeof SocialPage>>('/api/social/NVDA?days=10&limit=10&order=asc');
    const raw = await synthetic.social('NVDA', { days: 10 });
    expect(body.items).toHaveLength(10); // one row per calendar day
    expect(body.items.map((d) => d.mentions)).toEqual(raw.map((d) => d.mentions));
    const recent = raw.slice(-3).reduce((a, d) => a + d.mentions, 0);
    const baseline = raw.slice(0, 7).reduce((a, d) => a + d.mentions, 0) / 7;
    expect(body.summary.velocity).toBeCloseTo(recent / (3 * baseline), 3);
  });

  it('computes velocity and trend from hand numbers', () => {
    const day = (mentions: number) => ({ symbol: 'X', date: '2026-01-01', mentions, bullish: mentions / 2, bearish: 0, sentiment: 1, source: 't' });
    const s = socialSummary([10, 10, 10, 10, 30, 30, 30].map(day));
    expect(s.velocity).toBe(3); // 90 ÷ (3 × 10)
    expect(s.trend).toBe('surging');
    expect(s.sentiment).toBe(1);
    expect(socialSummary([20, 20, 10, 10, 10].map(day)).trend).toBe('fading'); // 30 ÷ (3 × 20) = 0.5
  });
});

describe('options flow', () => {
  it('finds unusual volume, splits premium by side and computes exposure with Black–Scholes', async () => {
    const { status, body } = await ctx.json<Static<typeof OptionsFlowResponse>>('/api/altdata/options-flow?symbol=NVDA');
    expect(status).toBe(200);
    const f = body.flow;
    const chain = await synthetic.optionChain('NVDA');
    expect(f.contracts).toBe(chain.contracts.length);
    const unusual = chain.contracts.filter((c) => c.volume >= 500 && c.volume >= 2 * c.openInterest);
    expect(f.unusualCount).toBe(unusual.length);
    expect(f.unusualCount).toBeGreaterThan(0);
    const callVolume = chain.contracts.filter((c) => c.type === 'call').reduce((a, c) => a + c.volume, 0);
    const putVolume = chain.contracts.filter((c) => c.type === 'put').reduce((a, c) => a + c.volume, 0);
    expect(f.ratios.callPutVolume).toBeCloseTo(callVolume / putVolume, 3);
    expect(f.premiumBySide.callAsk + f.premiumBySide.callBid).toBeCloseTo(f.totals.callPremium, -1);
    const premiums = f.largestPrints.map((p: { premium: number }) => p.premium);
    expect(premiums).toEqual([...premiums].sort((a: number, b: number) => b - a));
    // One strike's gamma exposure from the raw chain.
    const spot = chain.underlyingPrice;
    const row = f.exposure.byStrike.find((r: { callOpenInterest: number; putOpenInterest: number }) => r.callOpenInterest > 0 && r.putOpenInterest > 0);
    let gamma = 0;
    for (const c of chain.contracts.filter((x) => x.strike === row.strike)) {
      const years = (Date.parse(`${c.expiry}T21:00:00Z`) - Date.parse(chain.asOf)) / 86_400_000 / 365;
      gamma += (c.type === 'call' ? 1 : -1) * blackScholesGreeks(c.type, spot, c.strike, years, 0.045, c.impliedVolatility!).gamma * c.openInterest * 100 * spot * spot * 0.01;
    }
    expect(row.netGamma).toBeCloseTo(gamma, -1);
    expect(f.definition.unusual).toContain('2 × open interest');
    expect(f.sweepLike.length).toBeGreaterThan(0);
    for (const s of f.sweepLike) expect(s.premium).toBeGreaterThan(0);
  });
});

describe('errors', () => {
  it.each([
    '/api/altdata/insider',
    '/api/altdata/insider?symbol=',
    '/api/altdata/insider?symbol=AAPL&windowDays=0',
    '/api/altdata/insider?symbol=AAPL&windowDays=731',
    '/api/altdata/insider?symbol=AAPL&windowDays=2.5',
    '/api/insider?symbol=AAPL&windowDays=x',
    '/api/altdata/options-flow',
    '/api/altdata/short-interest',
    '/api/altdata/short-interest?symbol=%24%24',
    '/api/short-interest',
    '/api/filings/1ABC',
    '/api/filings/AAPL?form=%3Cscript%3E',
    '/api/social/AAPL?days=0',
    '/api/social/AAPL?days=366',
  ])('%s → 400', async (path) => {
    const { status, body } = await ctx.json<ErrorBody>(path);
    expect(status).toBe(400);
    expect(typeof body.error).toBe('string');
    expect(body.requestId).toBeString();
  });

  it.each(['/api/altdata/insider?symbol=ZZZZ', '/api/altdata/options-flow?symbol=ZZZZ', '/api/short-interest?symbol=ZZZZ', '/api/filings/ZZZZ', '/api/social/ZZZZ'])(
    '%s → 404 for an unknown symbol',
    async (path) => {
      expect((await ctx.json(path)).status).toBe(404);
    },
  );

  it('answers 404 naming the data when no configured source provides it', async () => {
    const csv = await createTestContext({ provider: createCsvProvider({ dir: fixture('daily_yf_dieperdev') }) });
    try {
      for (const [path, word] of [
        ['/api/altdata/insider?symbol=AAPL', 'insider'],
        ['/api/altdata/options-flow?symbol=AAPL', 'options chain'],
        ['/api/altdata/short-interest?symbol=AAPL', 'short interest'],
        ['/api/filings/AAPL', 'filings'],
        ['/api/social/AAPL', 'social'],
      ]) {
        const { status, body } = await csv.json<ErrorBody>(path!);
        expect(status).toBe(404);
        expect(body.error).toContain(word!);
      }
    } finally {
      await csv.close();
    }
  });
});
