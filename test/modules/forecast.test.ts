import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { normalCdf } from '../../src/kernels/options/normal';
import { performance, tradesWhere } from '../../src/ledger/performance';
import { cumulativeVariance, fitGarch11, logReturns, varianceFilter } from '../../src/kernels/volatility';
import type { ForecastResponse } from '../../src/modules/signals/model';
import { isTradingDay } from '../../src/providers/calendar';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';

describe('GET /api/forecast (synthetic market)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('gives a widening, ordered GARCH cone over the next sessions, as the kernels compute it', async () => {
    const { status, body } = await ctx.json<ForecastResponse>('/api/forecast?symbol=aapl');
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, symbol: 'AAPL', horizon: 20, model: 'garch', requestedModel: 'garch', fallback: null });
    const { bars } = await ctx.services.marketData.completeDaily('AAPL');
    const close = bars.close.subarray(bars.close.length - 1261);
    expect(body.asOf).toBe(new Date(bars.ts.at(-1)!).toISOString().slice(0, 10));
    expect(body.price).toBe(close.at(-1)!);

    // The same figures from the kernels directly.
    const r = logReturns(close);
    const fit = fitGarch11(r);
    const next = varianceFilter(fit, r).at(-1)!;
    const v = cumulativeVariance(fit, next, 20);
    expect(body.volatility.observations).toBe(1260);
    expect(body.volatility.daily).toBeCloseTo(Math.sqrt(next), 6);
    expect(body.volatility.horizon).toBeCloseTo(Math.sqrt(v[19]!), 6);
    expect(body.volatility.params.persistence).toBeCloseTo(fit.persistence, 6);
    expect(body.volatility.params.lambda).toBeNull();
    expect(body.volatility.longRunDaily).toBeCloseTo(Math.sqrt(fit.longRunVariance), 6);

    expect(body.cone).toHaveLength(20);
    let previousDate = body.asOf;
    let previousWidth = 0;
    for (const [k, point] of body.cone.entries()) {
      expect(point.day).toBe(k + 1);
      expect(point.date > previousDate).toBe(true);
      expect(isTradingDay(point.date)).toBe(true);
      previousDate = point.date;
      expect(point.p5).toBeLessThan(point.p25);
      expect(point.p25).toBeLessThan(point.p50);
      expect(point.p50).toBeLessThan(point.p75);
      expect(point.p75).toBeLessThan(point.p95);
      expect(point.p95 - point.p5).toBeGreaterThan(previousWidth);
      previousWidth = point.p95 - point.p5;
      // Median of a driftless lognormal: price · e^(−V/2).
      expect(point.p50).toBeCloseTo(body.price * Math.exp(-v[k]! / 2), 3);
    }
    const last = body.cone[19]!;
    expect(body.quantiles).toEqual({ p5: last.p5, p25: last.p25, p50: last.p50, p75: last.p75, p95: last.p95 });
    expect(body.calibration.windows).toBe(1261 - 60 - 20);
    expect(body.calibration.band90).toBeGreaterThan(0.8);
    expect(body.calibration.band90).toBeLessThan(0.98);
    expect(body.calibration.outOfSample).toBe(false);
    expect(Object.keys(body.method)).toContain('cone');
  });

  it('model=ewma keeps the forecast flat: σ_h = σ_1 · √h', async () => {
    const body = (await ctx.json<ForecastResponse>('/api/forecast?symbol=MSFT&model=ewma&horizon=9')).body;
    expect(body).toMatchObject({ model: 'ewma', requestedModel: 'ewma', fallback: null });
    expect(body.volatility.params).toMatchObject({ lambda: 0.94, alpha: 0.06, beta: 0.94, persistence: 1, halfLifeDays: null, omega: 0 });
    expect(body.volatility.horizon).toBeCloseTo(body.volatility.daily * 3, 5);
    expect(body.volatility.longRunDaily).toBeNull();
    expect(body.calibration.outOfSample).toBe(true);
    expect(body.cone).toHaveLength(9);
  });

  it('falls back to EWMA, and says so, with under 250 returns', async () => {
    const { bars } = await ctx.services.marketData.completeDaily('AAPL');
    const day = new Date(bars.ts[200]!).toISOString().slice(0, 10);
    const body = (await ctx.json<ForecastResponse>(`/api/forecast?symbol=AAPL&asOf=${day}&horizon=5`)).body;
    expect(body.asOf).toBe(day);
    expect(body.model).toBe('ewma');
    expect(body.requestedModel).toBe('garch');
    expect(body.fallback).toContain('250 daily returns; 200 available');
    expect(body.volatility.observations).toBe(200);
  });

  it('exists under API-Version 1.0.0 and 1.1.0', async () => {
    for (const version of ['1.0.0', '1.1.0']) {
      const { status, headers, body } = await ctx.json<ForecastResponse>('/api/forecast?symbol=SPY&horizon=1', { headers: { 'API-Version': version } });
      expect(status).toBe(200);
      expect(headers.get('api-version')).toBe(version);
      expect(body.cone).toHaveLength(1);
    }
  });

  it('answers 400 for a missing symbol and a bad horizon, model or asOf', async () => {
    for (const [path, word] of [
      ['/api/forecast', 'symbol'],
      ['/api/forecast?symbol=AAPL&horizon=0', 'horizon'],
      ['/api/forecast?symbol=AAPL&horizon=253', 'horizon'],
      ['/api/forecast?symbol=AAPL&horizon=2.5', 'horizon'],
      ['/api/forecast?symbol=AAPL&horizon=ten', 'horizon'],
      ['/api/forecast?symbol=AAPL&model=arima', 'model'],
      ['/api/forecast?symbol=AAPL&asOf=2024-1-5', 'asOf'],
      ['/api/forecast?symbol=AAPL&asOf=2024-13-45', 'asOf'],
    ] as const) {
      const response = await ctx.request(path);
      expect(response.status).toBe(400);
      const body = await errorBody(response);
      expect(body.code).toBe('invalid_parameter');
      expect(body.error).toContain(word);
    }
  });

  it('answers 404 for an unknown symbol and for too little history', async () => {
    const unknown = await ctx.request('/api/forecast?symbol=ZZZZZ');
    expect(unknown.status).toBe(404);
    expect((await errorBody(unknown)).code).toBe('not_found');
    const { bars } = await ctx.services.marketData.completeDaily('AAPL');
    const early = new Date(bars.ts[30]!).toISOString().slice(0, 10);
    const short = await ctx.request(`/api/forecast?symbol=AAPL&asOf=${early}`);
    expect(short.status).toBe(404);
    expect((await errorBody(short)).error).toContain('at least 61');
    expect((await ctx.request('/api/forecast?symbol=AAPL&asOf=1990-01-02')).status).toBe(404);
  });
});

describe('GET /api/forecast track record (ledger)', () => {
  let ctx: TestContext;
  let symbol = '';
  let first: ForecastResponse;
  beforeAll(async () => {
    ctx = await createTestContext();
    for (const s of (await ctx.services.marketData.instruments()).keys()) {
      const body = (await ctx.json<ForecastResponse>(`/api/forecast?symbol=${s}&horizon=10`)).body;
      if (body.activePattern) {
        symbol = s;
        first = body;
        break;
      }
    }
  });
  afterAll(() => ctx.close());

  it('finds a live setup and prices its target and stop from the cone', () => {
    expect(symbol).not.toBe('');
    const p = first.activePattern!;
    expect(p.probabilityBeyondTarget).toBeGreaterThanOrEqual(0);
    expect(p.probabilityBeyondTarget).toBeLessThan(0.5); // targets sit beyond the price
    // Long: P(S_h < stop) = Φ((ln(stop/S) + V/2) / √V); short mirrors it.
    const sd = first.volatility.horizon;
    const z = (Math.log(p.stopLoss / first.price) + (sd * sd) / 2) / sd;
    const expected = p.direction === 'long' ? normalCdf(z) : 1 - normalCdf(z);
    expect(p.probabilityBeyondStop).toBeCloseTo(expected, 3);
    expect(first.trackRecord).toMatchObject({ patternType: p.patternType, direction: p.direction, timeframe: 'daily' });
    expect(first.trackRecord!.pattern.signals).toBe(0);
  });

  it('reports the ledger hit rate of that pattern, and of this symbol, counting only outcomes known by asOf', async () => {
    const { patternType, direction } = first.activePattern!;
    const other = direction === 'long' ? 'short' : 'long';
    const asOf = first.asOf;
    const rows: [string, string, string, string, string, string | null, number][] = [
      // id, symbol, direction, timeframe, detected, exitAt (null: no outcome), R
      ['F1', 'OTHER1', direction, 'daily', '2025-03-03', '2025-03-20', 2],
      ['F2', 'OTHER2', direction, 'daily', '2025-04-01', '2025-04-09', -1],
      ['F3', symbol, direction, 'daily', '2025-05-01', '2025-05-21', 1.5],
      ['F4', symbol, direction, 'daily', '2026-10-01', `${asOf}T23:59:59.999Z`, -1], // exits on asOf itself
      ['F5', 'OTHER3', direction, 'daily', '2026-10-15', '2099-01-01', 3], // exits "after" asOf
      ['F6', 'OTHER4', other, 'daily', '2025-03-04', '2025-03-21', 2], // other direction
      ['F7', 'OTHER5', direction, '1h', '2025-03-05', '2025-03-06', 2], // other timeframe
      ['F8', 'OTHER6', direction, 'daily', '2025-06-01', null, 0], // still open
    ];
    const { ledger } = ctx.services;
    await ledger.append(
      rows.map(([id, s, dir, timeframe, detected]) => ({
        kind: 'signal' as const,
        signalId: id,
        patternType,
        scoreBand: 'strong',
        finalScore: 70,
        detectedAt: new Date(`${detected}T00:00:00Z`),
        data: { id, symbol: s, patternType, scoreBand: 'strong', timeframe, direction: dir, regime: 'neutral', detectedAt: `${detected}T00:00:00.000Z` },
      })),
    );
    await ledger.append(
      rows
        .filter((r) => r[5] !== null)
        .map(([id, , , , , exitAt, r]) => ({
          kind: 'outcome' as const,
          signalId: id,
          data: { outcome: r > 0 ? 'win' : 'loss', entered: true, rMultiple: r, daysHeld: 5, exitAt: exitAt!.length === 10 ? `${exitAt}T20:00:00.000Z` : exitAt },
        })),
    );

    const now = (await ctx.json<ForecastResponse>(`/api/forecast?symbol=${symbol}&horizon=10`)).body;
    expect(now.trackRecord!.pattern).toMatchObject({ signals: 6, open: 1, closed: 5, wins: 3, losses: 2, hitRate: 0.6 });
    expect(now.trackRecord!.pattern.totalR).toBeCloseTo(4.5, 10); // 2 − 1 + 1.5 − 1 + 3
    expect(now.trackRecord!.symbol).toMatchObject({ signals: 2, closed: 2, wins: 1, losses: 1, hitRate: 0.5 });

    const replay = (await ctx.json<ForecastResponse>(`/api/forecast?symbol=${symbol}&horizon=10&asOf=${asOf}`)).body;
    expect(replay.trackRecord!.knownAt).toBe(`${asOf}T23:59:59.999Z`);
    // F5's exit lies after asOf: open then.
    expect(replay.trackRecord!.pattern).toMatchObject({ signals: 6, open: 2, closed: 4, wins: 2, losses: 2, hitRate: 0.5 });
    expect(replay.cone).toEqual(now.cone);

    // Known at 2025-04-30: F1 and F2 detected and exited; the rest not yet detected (F6, F7 filtered out).
    const cutoff = new Date('2025-04-30T23:59:59.999Z');
    const known = (await tradesWhere(ledger, { patternType }, cutoff)).filter((t) => t.direction === direction && t.timeframe === 'daily');
    expect(performance(known)).toMatchObject({ signals: 2, closed: 2, wins: 1, losses: 1 });
    // Read a few records a page (as on PGlite, where a page is decoded in the server's thread): the same trades.
    const knownAt = new Date(`${asOf}T23:59:59.999Z`);
    expect(await tradesWhere(ledger, { patternType }, knownAt, 3)).toEqual(await tradesWhere(ledger, { patternType }, knownAt));
  });

  it('fits the volatility model in the worker pool, to the same figures', async () => {
    const { pool } = ctx.services;
    const tasks: string[] = [];
    const run = pool.run.bind(pool);
    pool.run = ((task, input, options) => (tasks.push(task), run(task, input, options))) as typeof pool.run;
    try {
      const body = (await ctx.json<ForecastResponse>('/api/forecast?symbol=MSFT&horizon=7')).body;
      expect(tasks).toContain('forecastModel');
      const { bars } = await ctx.services.marketData.completeDaily('MSFT');
      const r = logReturns(bars.close.subarray(bars.close.length - 1261));
      const fit = fitGarch11(r);
      expect(body.volatility.params.omega).toBe(fit.omega); // the fit as in this thread, to the last bit
      expect(body.volatility.daily).toBe(Math.round(Math.sqrt(varianceFilter(fit, r).at(-1)!) * 1e6) / 1e6);
      // Five callers of the same forecast at once share one computation.
      tasks.length = 0;
      const bodies = await Promise.all(Array.from({ length: 5 }, () => ctx.request('/api/forecast?symbol=MSFT&horizon=6').then((r) => r.text())));
      expect(tasks.filter((t) => t === 'forecastModel')).toHaveLength(1);
      expect(new Set(bodies).size).toBe(1);
    } finally {
      pool.run = run;
    }
  });
});
