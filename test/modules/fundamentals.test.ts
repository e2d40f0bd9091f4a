import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Static } from 'elysia';
import { EarningsResponse, type FloatResponse } from '../../src/modules/fundamentals/model';
import { tradingDaysUntil } from '../../src/providers/calendar';
import { createCsvProvider } from '../../src/providers/csv';
import { createTestContext, FIXED_TODAY as TODAY, syntheticMarket, type ErrorBody, type TestContext } from '../helpers/app';
import { fixture } from '../helpers/fixtures';

let ctx: TestContext;
const synthetic = syntheticMarket();
beforeAll(async () => {
  ctx = await createTestContext({ provider: synthetic });
});
afterAll(() => ctx.close());

type Earnings = Static<typeof EarningsResponse>;
type Proximity = NonNullable<Earnings['proximity']>;

describe('GET /api/earnings', () => {
  it('lists reports newest first with the reaction of the report session, and the proximity of the next one', async () => {
    const { status, body } = await ctx.json<Earnings>('/api/earnings?symbol=aapl&limit=200');
    expect(status).toBe(200);
    expect(body.symbol).toBe('AAPL');
    expect(body.source).toBe('synthetic');
    expect(body.calendar).toEqual(body.items);
    const dates = body.calendar.map((e: { date: string }) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const events = await synthetic.earnings('AAPL');
    const bars = await synthetic.bars({ symbol: 'AAPL', timeframe: 'daily' });
    const reported = body.calendar.filter((e) => e.status === 'reported');
    expect(reported.length).toBe(events.filter((e) => e.date <= TODAY).length);
    expect(reported.length).toBeGreaterThanOrEqual(8);
    for (const e of reported.slice(0, 8)) {
      const raw = events.find((x) => x.date === e.date)!;
      expect(e.epsActual).toBe(raw.epsActual);
      expect(e.surprisePct).toBe(raw.surprisePct);
      expect(e.reactionSession).toBe(e.date); // synthetic reports come before the open
      const i = bars.ts.indexOf(Date.parse(`${e.date}T00:00:00Z`));
      expect(e.gapPct).toBeCloseTo((bars.open[i]! / bars.close[i - 1]! - 1) * 100, 2);
      expect(e.movePct).toBeCloseTo((bars.close[i]! / bars.close[i - 1]! - 1) * 100, 2);
      expect(e.tradingDaysAway).toBe(-tradingDaysUntil(e.date, TODAY));
    }
    const next = events.find((e) => e.date > TODAY)!;
    const scheduled = body.calendar.filter((e) => e.status === 'scheduled');
    expect(scheduled.length).toBeGreaterThanOrEqual(3); // a year ahead
    expect(scheduled.every((e) => e.epsActual === null && e.gapPct === null && e.date <= '2027-11-21')).toBe(true);
    const p = body.proximity!;
    expect(p.asOf).toBe(TODAY);
    expect(p.nextReport).toBe(next.date);
    expect(p.tradingDaysUntil).toBe(tradingDaysUntil(TODAY, next.date));
    expect(p.withinHoldingWindow).toBe(p.tradingDaysUntil! <= 20);
    expect(p.blocksAlerts).toBe(p.tradingDaysUntil! <= 5);
    expect(p.lastReport).toBe(reported[0]!.date);
  });

  it('flags a report inside the holding window and one close enough to block alerts', async () => {
    // Find a symbol whose next report is within 20 sessions of the fixed clock, and one within 5.
    let inside: Proximity | undefined;
    let blocking: Proximity | undefined;
    for (const symbol of ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'GOOGL', 'JPM', 'XOM', 'COST', 'AMD', 'UNH', 'LLY', 'CAT', 'HD', 'PG', 'KO', 'PEP', 'MRK', 'ABBV', 'CVX', 'WMT', 'BAC', 'ORCL', 'CRM', 'ADBE', 'NFLX', 'INTC', 'CSCO', 'QCOM', 'TXN']) {
      const { body } = await ctx.json<Earnings>(`/api/earnings?symbol=${symbol}&limit=1`);
      const p = body.proximity!;
      if (!inside && p.tradingDaysUntil! <= 20 && p.tradingDaysUntil! > 5) inside = p;
      if (!blocking && p.tradingDaysUntil! <= 5) blocking = p;
    }
    expect(inside!.withinHoldingWindow).toBe(true);
    expect(inside!.blocksAlerts).toBe(false);
    expect(blocking!.withinHoldingWindow).toBe(true);
    expect(blocking!.blocksAlerts).toBe(true);
  });

  it('pages with a cursor in either order', async () => {
    const first = await ctx.json<Earnings>('/api/earnings?symbol=MSFT&limit=5&order=asc');
    expect(first.body.items).toHaveLength(5);
    expect(first.body.pagination).toMatchObject({ limit: 5, order: 'asc', hasMore: true, offset: 0 });
    const second = await ctx.json<Earnings>(`/api/earnings?symbol=MSFT&limit=5&cursor=${first.body.pagination.nextCursor}`);
    expect(second.body.items[0]!.date > first.body.items[4]!.date).toBe(true);
    expect(second.body.pagination.order).toBe('asc');
  });

  it('answers a fund with an empty calendar and no proximity', async () => {
    const { status, body } = await ctx.json<Earnings>('/api/earnings?symbol=SPY');
    expect(status).toBe(200);
    expect(body.calendar).toEqual([]);
    expect(body.proximity).toBeNull();
    expect(body.pagination.hasMore).toBe(false);
  });

  it.each([
    ['/api/earnings', 400],
    ['/api/earnings?symbol=', 400],
    ['/api/earnings?symbol=TOO_LONG_SYMBOL', 400],
    ['/api/earnings?symbol=ZZZZ', 404],
  ])('%s → %i in the Error shape', async (path, expected) => {
    const { status, body } = await ctx.json<ErrorBody>(path);
    expect(status).toBe(expected);
    expect(typeof body.error).toBe('string');
    expect(body.requestId).toBeString();
  });
});

describe('GET /api/float', () => {
  it('reports the share counts, the turnover ratio, its class and a caveat', async () => {
    const { status, body } = await ctx.json<FloatResponse>('/api/float?symbol=NVDA');
    expect(status).toBe(200);
    const raw = await synthetic.float('NVDA');
    expect(body.float).toEqual({ shareOutstanding: raw.sharesOutstanding, freeFloat: raw.freeFloat, asOf: raw.asOf, source: 'synthetic' });
    const bars = await synthetic.bars({ symbol: 'NVDA', timeframe: 'daily' });
    const complete = bars.volume.subarray(bars.volume.length - 51, bars.volume.length - 1); // the live session left out
    const average = complete.reduce((a, b) => a + b, 0) / 50;
    expect(body.averageVolume).toBe(Math.round(average));
    expect(body.ratio).toBeCloseTo(Math.round(average) / raw.freeFloat!, 6);
    expect(body.daysToRotate).toBeCloseTo(1 / body.ratio!, 0);
    const expected = body.daysToRotate! <= 50 ? 'high_rotation' : body.daysToRotate! <= 250 ? 'normal_rotation' : 'low_rotation';
    expect(body.classification).toBe(expected);
    expect(body.caveat).toContain('simulated');
    expect(body.thresholds.normal_rotation).toContain('250');
  });

  it.each([
    ['/api/float', 400],
    ['/api/float?symbol=1AB', 400],
    ['/api/float?symbol=ZZZZ', 404],
  ])('%s → %i', async (path, expected) => {
    const { status, body } = await ctx.json<ErrorBody>(path);
    expect(status).toBe(expected);
    expect(typeof body.error).toBe('string');
  });
});

describe('without fundamentals sources (csv provider on real history excerpts)', () => {
  let csv: TestContext;
  beforeAll(async () => {
    csv = await createTestContext({ provider: createCsvProvider({ dir: fixture('daily_yf_dieperdev') }) });
  });
  afterAll(() => csv.close());

  it('answers the float with null share counts and says why', async () => {
    const { status, body } = await csv.json<FloatResponse>('/api/float?symbol=AAPL');
    expect(status).toBe(200);
    expect(body.float).toEqual({ shareOutstanding: null, freeFloat: null, asOf: null, source: 'none' });
    expect(body.ratio).toBeNull();
    expect(body.classification).toBe('unknown');
    expect(body.caveat).toContain('No float data source');
    expect(body.averageVolume).toBeGreaterThan(1e6); // real AAPL volume
  });

  it('answers 404 for earnings, naming the missing capability', async () => {
    const { status, body } = await csv.json<ErrorBody>('/api/earnings?symbol=AAPL');
    expect(status).toBe(404);
    expect(body.error).toContain('earnings');
  });
});
