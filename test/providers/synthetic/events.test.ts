import { describe, expect, it } from 'bun:test';
import { isTradingDay, tradingDays } from '../../../src/providers/calendar';
import { earningsDates } from '../../../src/providers/synthetic';
import { loadInstruments } from '../../../src/providers/universe';
import { isoDay, mean, median, provider } from './fixtures';

const market = provider();
const stocks = loadInstruments().filter((i) => i.kind === 'stock').slice(0, 120);

describe('earnings', () => {
  it('reports about every 63 sessions (quarterly), on trading days, from 2019 into the future', () => {
    const sessions = tradingDays('2019-01-02', '2035-12-31');
    const position = new Map(sessions.map((d, i) => [d, i]));
    for (const { symbol } of stocks) {
      const dates = market.earningsDates(symbol);
      expect(dates).toEqual(earningsDates(symbol));
      expect(dates[0]! < '2019-04-15').toBe(true);
      expect(dates.at(-1)! > '2035-06-01').toBe(true);
      for (const d of dates) expect(isTradingDay(d)).toBe(true);
      for (let k = 1; k < dates.length; k++) expect(position.get(dates[k]!)! - position.get(dates[k - 1]!)!).toBeWithin(55, 72);
    }
  });

  it('matches the documented example for AAPL under seed 42', () => {
    expect(earningsDates('AAPL').slice(0, 2)).toEqual(['2019-01-23', '2019-04-24']);
  });

  it('has no earnings for funds', () => {
    for (const symbol of ['SPY', 'QQQ', 'IWM', 'XLK']) expect(market.earningsDates(symbol)).toEqual([]);
  });

  it('gaps on the report session and trades heavy volume', async () => {
    const reportGaps: number[] = [];
    const otherGaps: number[] = [];
    const volumeRatios: number[] = [];
    for (const { symbol } of stocks) {
      const s = await market.bars({ symbol, timeframe: 'daily' });
      const reports = new Set(market.earningsDates(symbol));
      for (let i = 21; i < s.ts.length - 1; i++) {
        const gap = Math.abs(Math.log(s.open[i]! / s.close[i - 1]!));
        if (reports.has(isoDay(s.ts[i]!))) {
          reportGaps.push(gap);
          volumeRatios.push(s.volume[i]! / median(Array.from(s.volume.subarray(i - 20, i))));
        } else otherGaps.push(gap);
      }
    }
    expect(mean(reportGaps)).toBeGreaterThan(2.5 * mean(otherGaps));
    expect(median(volumeRatios)).toBeGreaterThan(2);
  });
});

describe('overnight gaps', () => {
  it('opens away from the previous close on most sessions', async () => {
    let moved = 0;
    let total = 0;
    for (const { symbol } of stocks.slice(0, 30)) {
      const s = await market.bars({ symbol, timeframe: 'daily' });
      for (let i = 1; i < s.ts.length; i++) {
        total++;
        if (s.open[i] !== s.close[i - 1]) moved++;
      }
    }
    expect(moved / total).toBeGreaterThan(0.9);
  });
});
