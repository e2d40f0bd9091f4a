import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import {
  INDICATOR_NAMES,
  adxLookback,
  atrLookback,
  bollingerLookback,
  computeIndicators,
  diLookback,
  emaLookback,
  highLowDistance1d,
  macdLineLookback,
  macdLookback,
  percentileRankLookback,
  relativeStrength1d,
  relativeStrengthNewHigh1d,
  rollingLookback,
  rsiLookback,
  smaLookback,
  volumeLookback,
  type IndicatorSet,
  type Ohlcv,
} from '../../../../src/kernels/indicators';
import { sharedData } from '../../../helpers/shared-data';
import { seededRandom } from '../../../helpers/random';

/** Reads a daily_marketlab CSV (date,open,high,low,close,volume; adjusted prices) into columns. */
function loadBars(symbol: string): { dates: string[]; bars: Ohlcv } {
  const rows = readFileSync(sharedData('daily_marketlab', `${symbol}.csv`), 'utf8').trim().split('\n').slice(1);
  const cells = rows.map((row) => row.split(','));
  const column = (k: number) => Float64Array.from(cells, (c) => Number(c[k]));
  return {
    dates: cells.map((c) => c[0]!),
    bars: {
      ts: Float64Array.from(cells, (c) => Date.parse(`${c[0]}T00:00:00Z`)),
      open: column(1),
      high: column(2),
      low: column(3),
      close: column(4),
      volume: column(5),
    },
  };
}

/** The bars 0..end (inclusive) as their own series. */
function prefix(bars: Ohlcv, end: number): Ohlcv {
  const cut = (xs: Float64Array) => xs.slice(0, end + 1);
  return { ts: cut(bars.ts), open: cut(bars.open), high: cut(bars.high), low: cut(bars.low), close: cut(bars.close), volume: cut(bars.volume) };
}

/** A copy of `bars` whose bars after `end` are rewritten: rescaled, spiked, and some made missing. */
function rewriteAfter(bars: Ohlcv, end: number, rand: () => number): Ohlcv {
  const copy = prefix(bars, bars.close.length - 1);
  for (let i = end + 1; i < copy.close.length; i++) {
    const scale = rand() < 0.05 ? 10 * rand() : 0.5 + rand();
    for (const xs of [copy.open, copy.high, copy.low, copy.close]) xs[i] = xs[i]! * scale;
    copy.volume[i] = copy.volume[i]! * (rand() * 20);
    if (rand() < 0.01) copy.close[i] = NaN;
  }
  return copy;
}

/** Members and bars (≤ end) where two indicator sets differ (bit for bit, NaN equal to NaN). */
function differences(a: IndicatorSet, b: IndicatorSet, end: number): string[] {
  const found: string[] = [];
  for (const name of INDICATOR_NAMES) {
    for (let i = 0; i <= end; i++) {
      if (!Object.is(a[name][i], b[name][i])) found.push(`${name}[${i}]: ${a[name][i]} vs ${b[name][i]}`);
    }
  }
  return found;
}

const firstValid = (xs: Float64Array) => xs.findIndex((x) => !Number.isNaN(x));

const spy = loadBars('SPY');
const spyIndicators = computeIndicators(spy.bars);

describe('computeIndicators', () => {
  it('fills every member of IndicatorSet with one value per bar', () => {
    const n = spy.bars.close.length;
    expect(Object.keys(spyIndicators).sort()).toEqual([...INDICATOR_NAMES].sort());
    for (const name of INDICATOR_NAMES) {
      expect(spyIndicators[name]).toBeInstanceOf(Float64Array);
      expect(spyIndicators[name].length).toBe(n);
    }
  });

  it("starts each member at its kernel's lookback (SPY has no missing bars)", () => {
    const expected: Record<keyof IndicatorSet, number> = {
      sma10: smaLookback({ period: 10 }),
      sma20: smaLookback({ period: 20 }),
      sma50: smaLookback({ period: 50 }),
      sma150: smaLookback({ period: 150 }),
      sma200: smaLookback({ period: 200 }),
      ema21: emaLookback({ period: 21 }),
      rsi14: rsiLookback(),
      atr14: atrLookback(),
      adx14: adxLookback(),
      plusDi14: diLookback(),
      minusDi14: diLookback(),
      bbWidth20: bollingerLookback(),
      bbWidthPercentile: bollingerLookback() + percentileRankLookback(),
      avgVolume50: volumeLookback(),
      avgDollarVolume50: volumeLookback(),
      macd: macdLineLookback(),
      macdSignal: macdLookback(),
      macdHistogram: macdLookback(),
      high252: rollingLookback({ period: 252 }),
      low252: rollingLookback({ period: 252 }),
      donchianHigh55: rollingLookback({ period: 55, excludeCurrent: true }),
      donchianLow55: rollingLookback({ period: 55, excludeCurrent: true }),
      donchianHigh20: rollingLookback({ period: 20, excludeCurrent: true }),
      donchianLow20: rollingLookback({ period: 20, excludeCurrent: true }),
    };
    const actual = Object.fromEntries(INDICATOR_NAMES.map((name) => [name, firstValid(spyIndicators[name])]));
    expect(actual).toEqual(expected);
    // The numbers themselves, as a reader would state them.
    expect([expected.sma200, expected.rsi14, expected.atr14, expected.adx14, expected.macdSignal, expected.bbWidthPercentile]).toEqual([199, 14, 13, 27, 33, 144]);
  });

  it('uses the windows the set documents (spot checks against plain definitions on SPY)', () => {
    const { high, low, close, volume } = spy.bars;
    const span = (xs: Float64Array, from: number, to: number) => Array.from(xs.subarray(from, to + 1));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const i of [251, 1234, 5000, close.length - 1]) {
      expect(spyIndicators.sma50[i]).toBeCloseTo(mean(span(close, i - 49, i)), 9);
      expect(spyIndicators.sma150[i]).toBeCloseTo(mean(span(close, i - 149, i)), 9);
      expect(spyIndicators.avgVolume50[i]! / mean(span(volume, i - 49, i))).toBeCloseTo(1, 12);
      expect(spyIndicators.high252[i]).toBe(Math.max(...span(high, i - 251, i)));
      expect(spyIndicators.low252[i]).toBe(Math.min(...span(low, i - 251, i)));
      expect(spyIndicators.donchianHigh55[i]).toBe(Math.max(...span(high, i - 55, i - 1)));
      expect(spyIndicators.donchianLow20[i]).toBe(Math.min(...span(low, i - 20, i - 1)));
      expect(spyIndicators.macdHistogram[i]).toBeCloseTo(spyIndicators.macd[i]! - spyIndicators.macdSignal[i]!, 12);
    }
  });

  it('rejects columns of different lengths, and handles an empty series', () => {
    const bars = prefix(spy.bars, 99);
    expect(() => computeIndicators({ ...bars, volume: bars.volume.subarray(0, 98) })).toThrow(/one value per bar/);
    const empty = computeIndicators(prefix(spy.bars, -1));
    expect(INDICATOR_NAMES.every((name) => empty[name].length === 0)).toBe(true);
  });
});

describe('computeIndicators on real history (SPY, daily_marketlab, adjusted closes)', () => {
  it("gives SPY's 200-day SMA as an independent computation does", () => {
    // Expected values: a one-line awk over SPY.csv (sum of the 200 closes ending on the date / 200),
    // rechecked with Python's csv module: 2008-10-10 -> 94.4675503922, 2020-03-23 -> 275.7676729584,
    // 2024-12-31 -> 542.4639237976. (Adjusted prices: SPY's close on 2020-03-23 reads 204.94 here.)
    const at = (date: string) => spy.dates.indexOf(date);
    expect(spyIndicators.sma200[at('2008-10-10')]).toBeCloseTo(94.4675503922, 8);
    expect(spyIndicators.sma200[at('2020-03-23')]).toBeCloseTo(275.7676729584, 8);
    expect(spyIndicators.sma200[at('2024-12-31')]).toBeCloseTo(542.4639237976, 8);
    // The COVID low sat far under the 200-day line; the end of 2024 well above it.
    expect(spy.bars.close[at('2020-03-23')]! / spyIndicators.sma200[at('2020-03-23')]!).toBeLessThan(0.8);
    expect(spy.bars.close[at('2024-12-31')]!).toBeGreaterThan(spyIndicators.sma200[at('2024-12-31')]!);
  });

  it("gives SPY's 14-day Wilder RSI as an independent computation does, always within [0, 100]", () => {
    // Expected values: a separate Python implementation of Wilder's worksheet over the same closes.
    const at = (date: string) => spy.dates.indexOf(date);
    expect(spyIndicators.rsi14[at('2008-10-10')]).toBeCloseTo(20.510796651297852, 8);
    expect(spyIndicators.rsi14[at('2020-03-23')]).toBeCloseTo(29.584970175431653, 8);
    expect(spyIndicators.rsi14[at('2024-12-31')]).toBeCloseTo(41.593547808591275, 8);
    const rsi = spyIndicators.rsi14.subarray(14);
    expect(rsi.every((v) => v >= 0 && v <= 100)).toBe(true);
    // Python over the full history: min 16.8028, max 87.1911.
    expect(Math.min(...rsi)).toBeCloseTo(16.802783401950443, 8);
    expect(Math.max(...rsi)).toBeCloseTo(87.19113241798729, 8);
  });

  it('keeps every indicator in its range over 33 years of SPY', () => {
    const from = 144; // past every lookback but bbWidthPercentile's own (144)
    expect(spy.bars.close.length).toBeGreaterThan(from);
    for (const name of ['adx14', 'plusDi14', 'minusDi14', 'bbWidthPercentile'] as const) {
      expect(spyIndicators[name].subarray(from).every((v) => v >= 0 && v <= 100)).toBe(true);
    }
    for (const name of ['atr14', 'bbWidth20', 'avgVolume50', 'avgDollarVolume50'] as const) {
      expect(spyIndicators[name].subarray(from).every((v) => v > 0)).toBe(true);
    }
    // The 20-bar channel sits inside the 55-bar one, and the 52-week range holds the bar itself.
    const { high, low } = spy.bars;
    const ind = spyIndicators;
    const nested = (i: number) =>
      ind.donchianHigh20[i]! <= ind.donchianHigh55[i]! && ind.donchianLow20[i]! >= ind.donchianLow55[i]! &&
      ind.high252[i]! >= high[i]! && ind.low252[i]! <= low[i]!;
    expect(Array.from(high.keys()).filter((i) => i >= 251 && !nested(i))).toEqual([]);
  });
});

describe('no look-ahead', () => {
  const n = spy.bars.close.length;
  const cuts = [0, 13, 14, 27, 33, 144, 251, 252, 1000, 4321, n - 2];

  it('changing SPY bars after i never changes any computeIndicators output at ≤ i', () => {
    const rand = seededRandom(2024);
    for (const end of cuts) {
      const rewritten = computeIndicators(rewriteAfter(spy.bars, end, rand));
      expect(differences(spyIndicators, rewritten, end)).toEqual([]);
    }
  });

  it('the bars up to i alone give the same outputs at ≤ i as the whole history (point in time)', () => {
    for (const end of cuts) {
      expect(differences(spyIndicators, computeIndicators(prefix(spy.bars, end)), end)).toEqual([]);
    }
  });

  it('holds for the kernels outside the set (relative strength, distance from the 52-week high and low)', () => {
    const qqq = loadBars('QQQ');
    const qqqDates = new Map(qqq.dates.map((d, i) => [d, i]));
    const common = spy.dates.filter((d) => qqqDates.has(d));
    const asset = Float64Array.from(common, (d) => qqq.bars.close[qqqDates.get(d)!]!);
    const benchmark = Float64Array.from(common, (d) => spy.bars.close[spy.dates.indexOf(d)]!);
    const run = (a: Float64Array, b: Float64Array, h: Float64Array, l: Float64Array) => {
      const len = a.length;
      const out = [0, 1, 2, 3].map(() => new Float64Array(len));
      relativeStrength1d(a, b, out[0]!);
      relativeStrengthNewHigh1d(out[0]!, out[1]!, { period: 252 });
      highLowDistance1d(h, l, a, out[2]!, out[3]!);
      return out;
    };
    const high = Float64Array.from(common, (d) => qqq.bars.high[qqqDates.get(d)!]!);
    const low = Float64Array.from(common, (d) => qqq.bars.low[qqqDates.get(d)!]!);
    const full = run(asset, benchmark, high, low);
    const rand = seededRandom(7);
    for (const end of [0, 251, 1000, asset.length - 2]) {
      const bump = (xs: Float64Array) => xs.map((x, i) => (i > end ? x * (0.5 + 2 * rand()) : x));
      const moved = run(bump(asset), bump(benchmark), bump(high), bump(low));
      full.forEach((series, k) => {
        for (let i = 0; i <= end; i++) expect(Object.is(series[i], moved[k]![i])).toBe(true);
      });
    }
  });
});
