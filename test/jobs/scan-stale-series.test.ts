/**
 * Issue 14: a symbol whose data ends before the bar a universe scan stands on
 * (a csv directory where SPY runs to 2026 and the stocks stop earlier) used to
 * be scanned at its last bar and published under the scan's date. It is now
 * left out, named in the run's `staleSeries`, stored with the run and shown in
 * /api/breakouts `latestPersistedRun` and `runHistory`. The directory is the
 * committed real windows of test/fixtures/geometry-defects: SPY (daily_marketlab)
 * to 2026-08-21, KR to 2024-03-08, the other stocks earlier.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { SymbolStats } from '../../src/domain/signal';
import { runScan, STALE_AFTER_BARS, staleSeries } from '../../src/jobs/scan';
import type { BreakoutsResponse } from '../../src/modules/signals/model';
import { createCsvProvider } from '../../src/providers/csv';
import { createTestContext, type TestContext } from '../helpers/app';
import { GEOMETRY_FIXTURES, GEOMETRY_STOCKS } from '../helpers/geometry-fixtures';

const HOUR = 3_600_000;
const stats = (symbol: string, barTs: number | null): SymbolStats => ({ symbol, barTs, rsScore: 0, aboveSma50: null, avgDollarVolume50: 0, close: 1 });

describe('stale series: the rule', () => {
  // benchmark bars every hour from 0 to 20; the scan stands on the last one
  const bench = Float64Array.from({ length: 21 }, (_, i) => i * HOUR);

  it('allows one session of lag: 1 daily bar, 2 4h bars, 7 1h bars', () => {
    expect(STALE_AFTER_BARS).toEqual({ daily: 1, '4h': 2, '1h': 7 });
    const list = [stats('NOW', 20 * HOUR), stats('ONE', 19 * HOUR), stats('TWO', 18 * HOUR), stats('THREE', 17 * HOUR), stats('SEVEN', 13 * HOUR), stats('EIGHT', 12 * HOUR)];
    expect(staleSeries(list, bench, 20, 'daily').map((s) => [s.symbol, s.barsBehind])).toEqual([['TWO', 2], ['THREE', 3], ['SEVEN', 7], ['EIGHT', 8]]);
    expect(staleSeries(list, bench, 20, '4h').map((s) => s.symbol)).toEqual(['THREE', 'SEVEN', 'EIGHT']);
    expect(staleSeries(list, bench, 20, '1h')).toEqual([{ symbol: 'EIGHT', lastBar: new Date(12 * HOUR).toISOString(), barsBehind: 8 }]);
  });

  it('counts the benchmark bars after the series\' last bar, so a gap in the calendar is not lag', () => {
    // a Friday bar, then Monday and Tuesday: a series that stops on Friday is two sessions behind on Tuesday
    const days = Float64Array.from([Date.UTC(2024, 2, 1), Date.UTC(2024, 2, 4), Date.UTC(2024, 2, 5)]);
    expect(staleSeries([stats('FRI', days[0]!), stats('MON', days[1]!)], days, 2, 'daily').map((s) => s.symbol)).toEqual(['FRI']);
  });

  it('judges nothing without a benchmark bar, and a symbol with no bar yet is absent, not stale', () => {
    expect(staleSeries([stats('OLD', 0)], bench, -1, 'daily')).toEqual([]);
    expect(staleSeries([stats('NEW', null)], bench, 20, 'daily')).toEqual([]);
  });
});

describe('stale series on real bars (SPY to 2026, the stocks earlier)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ provider: createCsvProvider({ dir: GEOMETRY_FIXTURES }) });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('a scan standing on SPY\'s 2026-08-21 bar scans no stock and names every one as stale', async () => {
    const result = await runScan(ctx.services, { timeframe: 'daily', symbols: [...GEOMETRY_STOCKS] });
    expect(result.asOf).toBe('2026-08-21T00:00:00.000Z');
    expect(result.signals).toEqual([]);
    expect(result.symbolsScanned).toBe(0);
    expect(result.stats).toEqual([]);
    expect(result.staleSeries.map((s) => [s.symbol, s.lastBar.slice(0, 10)])).toEqual([
      ['AMCR', '2017-12-29'],
      ['IFF', '2023-12-29'],
      ['KEY', '2021-12-31'],
      ['KR', '2024-03-08'],
      ['SMCI', '2022-12-30'],
      ['VRSN', '2023-01-31'],
    ]);
    // KR: SPY's bars after 2024-03-08 up to 2026-08-21
    const spy = await ctx.services.marketData.bars('SPY', 'daily');
    const after = spy.ts.filter((t) => t > Date.UTC(2024, 2, 8)).length;
    expect(result.staleSeries.find((s) => s.symbol === 'KR')!.barsBehind).toBe(after);
  });

  it('a scan as of 2024-03-08 scans KR, the one stock with that bar, and leaves out the rest', async () => {
    const result = await runScan(ctx.services, { timeframe: 'daily', symbols: [...GEOMETRY_STOCKS], asOfTs: Date.UTC(2024, 2, 8) });
    expect(result.asOf).toBe('2024-03-08T00:00:00.000Z');
    expect(result.symbolsScanned).toBe(1);
    expect(result.staleSeries.map((s) => s.symbol)).toEqual(['AMCR', 'IFF', 'KEY', 'SMCI', 'VRSN']);
    expect(result.signals.length).toBeGreaterThan(0);
    expect(new Set(result.signals.map((s) => s.symbol))).toEqual(new Set(['KR']));
  });

  it('persists the stale series with the run and shows them in /api/breakouts', async () => {
    await ctx.services.runs.persist('daily');
    const { status, body } = await ctx.json<BreakoutsResponse>('/api/breakouts');
    expect(status).toBe(200);
    expect(body.asOf).toBe('2026-08-21T00:00:00.000Z');
    expect(body.rankedSignals).toEqual([]);
    const stale = body.latestPersistedRun!.staleSeries as { symbol: string; lastBar: string; barsBehind: number }[];
    expect(stale.length).toBeGreaterThan(0);
    expect(stale.map((s) => s.symbol)).toContain('KR');
    expect(stale.every((s) => s.barsBehind > STALE_AFTER_BARS.daily && Date.parse(s.lastBar) < Date.UTC(2026, 7, 21))).toBe(true);
    expect(body.runHistory[0]!.staleSeries).toEqual(stale);
    expect(body.latestPersistedRun!.symbolsScanned).toBe(0);
  });
});
