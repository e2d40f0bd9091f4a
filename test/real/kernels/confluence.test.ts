/** Confluence on real history (daily_marketlab, dividend-adjusted) against SPY: the real-data run. */
import { describe, expect, it } from 'bun:test';
import { confluence } from '../../../src/kernels/confluence';
import type { Ohlcv } from '../../../src/kernels/ohlcv';
import { createCsvProvider } from '../../../src/providers/csv';
import { sharedData } from '../../helpers/shared-data';
import { votes, weekly } from '../../kernels/confluence-helpers';

describe('real history (daily_marketlab)', async () => {
  const provider = createCsvProvider({ dir: sharedData('daily_marketlab') });
  const spy = await provider.bars({ symbol: 'SPY', timeframe: 'daily' });
  const spyByDate = new Map(Array.from(spy.ts, (t, i) => [t, spy.close[i]!]));
  const aligned = (bars: Ohlcv) => Float64Array.from(bars.ts, (t) => spyByDate.get(t) ?? Number.NaN);
  async function read(symbol: string, date: string, options: { benchmark: boolean; to?: boolean }) {
    const full = await provider.bars({ symbol, timeframe: 'daily' });
    const at = Date.parse(`${date}T00:00:00Z`);
    const bars = options.to ? await provider.bars({ symbol, timeframe: 'daily', to: at }) : full;
    const asOf = bars.ts.indexOf(at);
    if (asOf < 0) throw new Error(`${symbol} has no bar on ${date}`);
    // lookback 50: the window of IBD's up/down volume ratio.
    return confluence({ bars, benchmarkClose: options.benchmark ? aligned(bars) : null, higherTimeframe: weekly(bars), asOf, lookback: 50, rsRank: null });
  }

  it('reads NVDA on 2023-06-30 as bullish against SPY', async () => {
    // A Stage 2 leader after its May 2023 earnings gap: above a rising 200-day, RS line up about 40%
    // over ten weeks, weekly uptrend, RSI in the 60s. Late June was a shallow pullback on lighter
    // volume, so the up/down volume split is not decisive and no pattern is live.
    const r = await read('NVDA', '2023-06-30', { benchmark: true });
    expect(r.direction).toBe('bullish');
    expect(r.score).toBeGreaterThanOrEqual(60);
    expect(r.agreement).toBeGreaterThanOrEqual(0.7);
    expect(votes(r)).toMatchObject({ trend: 1, momentum: 1, relativeStrength: 1, higherTimeframe: 1 });
    expect(r.factors.every((f) => f.vote >= 0)).toBe(true);
    expect(r.factors.find((f) => f.name === 'relativeStrength')!.value!).toBeGreaterThan(30);
  });

  it('reads META on 2022-10-27 as bearish against SPY', async () => {
    // The day after Q3 2022 earnings: −24% on 232M shares (about 7× the prior day), below a falling
    // 200-day, RSI in the low 20s, RS line at its low; a range breakdown is live.
    const r = await read('META', '2022-10-27', { benchmark: true });
    expect(r.direction).toBe('bearish');
    expect(r.score).toBeLessThanOrEqual(-60);
    expect(r.agreement).toBeGreaterThanOrEqual(0.75);
    expect(votes(r)).toMatchObject({ trend: -1, momentum: -1, volume: -1, relativeStrength: -1 });
    expect(r.factors.every((f) => f.vote <= 0)).toBe(true);
  });

  it('reads SPY at the June 2022 low as bearish with no benchmark or rank', async () => {
    // 2022-06-16: below a falling 200-day after the CPI shock, distribution days outnumber
    // accumulation days; relative strength has no evidence (SPY is the benchmark).
    const r = await read('SPY', '2022-06-16', { benchmark: false });
    expect(r.direction).toBe('bearish');
    expect(votes(r)).toMatchObject({ trend: -1, momentum: -1, volume: -1, relativeStrength: 0 });
    expect(r.factors.find((f) => f.name === 'relativeStrength')!.value).toBeNull();
  });

  it('reads the same with the history cut at asOf', async () => {
    for (const [symbol, date] of [['NVDA', '2023-06-30'], ['META', '2022-10-27']] as const) {
      const full = await read(symbol, date, { benchmark: true });
      const cut = await read(symbol, date, { benchmark: true, to: true });
      expect(JSON.stringify(cut)).toBe(JSON.stringify(full));
    }
  });
});
