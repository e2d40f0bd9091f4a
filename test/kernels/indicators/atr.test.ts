import { describe, expect, it } from 'bun:test';
import { atr1d, atrLookback } from '../../../src/kernels/indicators/atr';
import { seededRandom } from '../../helpers/random';
import { expectSeries } from '../../helpers/series';

/** Random daily bars with overnight gaps, so the true range often reaches past the bar. */
function randomBars(rand: () => number, length: number) {
  const high = new Float64Array(length);
  const low = new Float64Array(length);
  const close = new Float64Array(length);
  let prev = 100;
  for (let i = 0; i < length; i++) {
    const open = prev * Math.exp((rand() - 0.5) * 0.03);
    const c = open * Math.exp((rand() - 0.5) * 0.04);
    high[i] = Math.max(open, c) * (1 + rand() * 0.01);
    low[i] = Math.min(open, c) * (1 - rand() * 0.01);
    close[i] = prev = c;
  }
  return { high, low, close };
}

/** Reference twin: a true-range column, its plain mean for the seed, then Wilder's recursion. */
function naiveAtr(high: number[], low: number[], close: number[], period: number): number[] {
  const tr = high.map((h, t) =>
    t === 0 ? h - low[t]! : Math.max(h - low[t]!, Math.abs(h - close[t - 1]!), Math.abs(low[t]! - close[t - 1]!)),
  );
  const out: number[] = tr.map(() => NaN);
  if (tr.length < period) return out;
  let atr = tr.slice(0, period).reduce((a, b) => a + b, 0) / period;
  out[period - 1] = atr;
  for (let t = period; t < tr.length; t++) out[t] = atr = (atr * (period - 1) + tr[t]!) / period;
  return out;
}

/** The documented rule for missing values: drop incomplete bars, run the twin, write back. */
function withoutMissing(bars: { high: Float64Array; low: Float64Array; close: Float64Array }, period: number): number[] {
  const at: number[] = [];
  bars.close.forEach((c, i) => {
    if (Number.isFinite(c) && Number.isFinite(bars.high[i]!) && Number.isFinite(bars.low[i]!)) at.push(i);
  });
  const pick = (xs: Float64Array) => at.map((i) => xs[i]!);
  const out: number[] = Array.from(bars.close, () => NaN);
  naiveAtr(pick(bars.high), pick(bars.low), pick(bars.close), period).forEach((y, k) => (out[at[k]!] = y));
  return out;
}

function run(bars: { high: Float64Array; low: Float64Array; close: Float64Array }, period?: number): Float64Array {
  const out = new Float64Array(bars.close.length);
  atr1d(bars.high, bars.low, bars.close, out, period === undefined ? {} : { period });
  return out;
}

describe('atr lookback and options', () => {
  it('starts at bar period − 1 (13 by default)', () => {
    expect(atrLookback()).toBe(13);
    expect(atrLookback({ period: 1 })).toBe(0);
  });

  it('rejects a bad period, unequal columns and a short output', () => {
    const x = new Float64Array(20);
    for (const period of [0, -1, 3.5, NaN]) {
      expect(() => atrLookback({ period })).toThrow(RangeError);
      expect(() => atr1d(x, x, x, x.slice(), { period })).toThrow(/period must be a positive integer/);
    }
    expect(() => atr1d(x, new Float64Array(19), x, x.slice())).toThrow(/one value per bar/);
    expect(() => atr1d(x, x, x, new Float64Array(10))).toThrow(/output holds 10/);
  });
});

describe('atr values', () => {
  it("matches Achelis' 4-bar example (Technical Analysis from A to Z, p. 70, via Tulip tests/atoz.txt)", () => {
    const bars = {
      high: Float64Array.of(12.3125, 12.25, 12.3125, 12.2812, 12.375, 12.375, 12.3125, 12.375, 12.5, 12.5938, 12.3438, 12.4062, 12.375, 12.4062, 12.375, 12.2812, 12.25, 12.0625, 12.3125, 12.3125),
      low: Float64Array.of(12.1875, 12.1562, 12.1875, 12.125, 12.125, 12.2812, 12.1875, 12.1875, 12.2812, 12.3125, 12.2812, 12.2812, 12.2812, 12.2812, 11.9688, 12.0938, 12, 11.6562, 12.1562, 12.125),
      close: Float64Array.of(12.25, 12.1875, 12.25, 12.1875, 12.375, 12.3125, 12.2188, 12.3438, 12.5, 12.375, 12.3438, 12.3438, 12.2812, 12.375, 12.0938, 12.1562, 12.0625, 11.9688, 12.1875, 12.1562),
    };
    const book = [0.125, 0.1563, 0.1406, 0.1367, 0.1494, 0.1668, 0.1954, 0.17, 0.1587, 0.1425, 0.1381, 0.2052, 0.2007, 0.213, 0.2614, 0.2819, 0.2583];
    const out = run(bars, 4);
    expect(Array.from(out.subarray(0, 3)).every(Number.isNaN)).toBe(true);
    // The book rounds its prices to 1/10,000 and its ATRs to four places.
    book.forEach((v, k) => expect(Math.abs(out[3 + k]! - v)).toBeLessThan(1e-4));
  });

  it('uses the gap from the previous close (hand-computed 3-bar example)', () => {
    // bar 0: TR = 11 − 9 = 2; bar 1 gaps up: TR = max(14 − 12, |14 − 10|, |12 − 10|) = 4;
    // bar 2 gaps down: TR = max(9 − 8, |9 − 13|, |8 − 13|) = 5. period 2: ATR_1 = (2 + 4) / 2 = 3, ATR_2 = (3 + 5) / 2 = 4.
    const out = run({ high: Float64Array.of(11, 14, 9), low: Float64Array.of(9, 12, 8), close: Float64Array.of(10, 13, 8.5) }, 2);
    expect(Array.from(out)).toEqual([NaN, 3, 4]);
  });

  it('equals its naive twin over a grid of periods on random bars', () => {
    const bars = randomBars(seededRandom(41), 800);
    const plain = { high: Array.from(bars.high), low: Array.from(bars.low), close: Array.from(bars.close) };
    for (const period of [1, 2, 3, 5, 10, 14, 20, 50, 250, 800, 801]) {
      expectSeries(run(bars, period), naiveAtr(plain.high, plain.low, plain.close, period));
    }
  });

  it('skips bars with a missing high, low or close: equal to the ATR of the series without them', () => {
    const bars = randomBars(seededRandom(42), 300);
    bars.high[0] = NaN;
    bars.low[5] = NaN;
    bars.close[6] = Infinity;
    bars.close[150] = NaN;
    bars.high[299] = NaN;
    for (const period of [1, 4, 14]) expectSeries(run(bars, period), withoutMissing(bars, period));
  });
});
