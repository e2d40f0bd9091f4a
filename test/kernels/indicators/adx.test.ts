import { describe, expect, it } from 'bun:test';
import { adx1d, adxLookback, diLookback } from '../../../src/kernels/indicators/adx';
import { seededRandom } from '../../helpers/random';
import { expectSeries } from '../../helpers/series';

type Bars = { high: Float64Array; low: Float64Array; close: Float64Array };

/** Random daily bars with overnight gaps and trending stretches. */
function randomBars(rand: () => number, length: number): Bars {
  const high = new Float64Array(length);
  const low = new Float64Array(length);
  const close = new Float64Array(length);
  let prev = 100;
  let drift = 0;
  for (let i = 0; i < length; i++) {
    if (i % 40 === 0) drift = (rand() - 0.5) * 0.02;
    const open = prev * Math.exp((rand() - 0.5) * 0.02);
    const c = open * Math.exp(drift + (rand() - 0.5) * 0.04);
    high[i] = Math.max(open, c) * (1 + rand() * 0.01);
    low[i] = Math.min(open, c) * (1 - rand() * 0.01);
    close[i] = prev = c;
  }
  return { high, low, close };
}

/**
 * Reference twin: Wilder's worksheet, column by column — TR, +DM, −DM from bar 1;
 * TR14-style running sums (first = sum of `period` values, then X − X/n + new);
 * DI, DX; ADX = mean of the first `period` DX, then Wilder's average.
 */
function naiveAdx(high: number[], low: number[], close: number[], period: number) {
  const len = close.length;
  const adx: number[] = Array(len).fill(NaN);
  const plusDi: number[] = Array(len).fill(NaN);
  const minusDi: number[] = Array(len).fill(NaN);
  const tr: number[] = [NaN];
  const pdm: number[] = [NaN];
  const mdm: number[] = [NaN];
  for (let t = 1; t < len; t++) {
    const up = high[t]! - high[t - 1]!;
    const down = low[t - 1]! - low[t]!;
    pdm.push(up > down && up > 0 ? up : 0);
    mdm.push(down > up && down > 0 ? down : 0);
    tr.push(Math.max(high[t]! - low[t]!, Math.abs(high[t]! - close[t - 1]!), Math.abs(low[t]! - close[t - 1]!)));
  }
  const dx: number[] = [];
  let trN = 0;
  let pdmN = 0;
  let mdmN = 0;
  for (let t = 1; t < len; t++) {
    if (t <= period) {
      trN += tr[t]!;
      pdmN += pdm[t]!;
      mdmN += mdm[t]!;
      if (t < period) continue;
    } else {
      trN = trN - trN / period + tr[t]!;
      pdmN = pdmN - pdmN / period + pdm[t]!;
      mdmN = mdmN - mdmN / period + mdm[t]!;
    }
    plusDi[t] = trN === 0 ? 0 : (100 * pdmN) / trN;
    minusDi[t] = trN === 0 ? 0 : (100 * mdmN) / trN;
    const sum = plusDi[t]! + minusDi[t]!;
    dx.push(sum === 0 ? 0 : (100 * Math.abs(plusDi[t]! - minusDi[t]!)) / sum);
    if (dx.length === period) adx[t] = dx.reduce((a, b) => a + b, 0) / period;
    else if (dx.length > period) adx[t] = (adx[t - 1]! * (period - 1) + dx.at(-1)!) / period;
  }
  return { adx, plusDi, minusDi };
}

function run(bars: Bars, period?: number) {
  const len = bars.close.length;
  const out = { adx: new Float64Array(len), plusDi: new Float64Array(len), minusDi: new Float64Array(len) };
  adx1d(bars.high, bars.low, bars.close, out.adx, out.plusDi, out.minusDi, period === undefined ? {} : { period });
  return out;
}

describe('adx lookback and options', () => {
  it('starts the DIs at bar period and ADX at 2 × period − 1 (14 and 27 by default)', () => {
    expect(diLookback()).toBe(14);
    expect(adxLookback()).toBe(27);
    expect(adxLookback({ period: 2 })).toBe(3);
  });

  it('rejects a bad period, unequal columns and short outputs', () => {
    const x = new Float64Array(40);
    for (const period of [0, -2, 2.5, NaN]) {
      expect(() => adxLookback({ period })).toThrow(RangeError);
      expect(() => diLookback({ period })).toThrow(RangeError);
      expect(() => adx1d(x, x, x, x.slice(), x.slice(), x.slice(), { period })).toThrow(/period must be a positive integer/);
    }
    expect(() => adx1d(x, x, new Float64Array(39), x.slice(), x.slice(), x.slice())).toThrow(/one value per bar/);
    expect(() => adx1d(x, x, x, x.slice(), new Float64Array(39), x.slice())).toThrow(/every output/);
  });
});

describe('adx values', () => {
  it('matches a 7-bar example computed by hand (period 2)', () => {
    // bar  H     L   C     up    down  +DM  −DM  TR
    // 0    10    8   9
    // 1    11    9   10.5  1     −1    1    0    max(2, 2, 0)       = 2
    // 2    12    10  11    1     −1    1    0    max(2, 1.5, 0.5)   = 2
    // 3    11.5  9   9.5   −0.5  1     0    1    max(2.5, 0.5, 2)   = 2.5
    // 4    10    8   8.5   −1.5  1     0    1    max(2, 0.5, 1.5)   = 2
    // 5    12    9   11.5  2     −1    2    0    max(3, 3.5, 0.5)   = 3.5
    // 6    12.5  11  12    0.5   −2    0.5  0    max(1.5, 1, 0.5)   = 1.5
    // Averages (seed = mean of bars 1–2, then (X + new) / 2), DI = 100 × DM / TR, DX = 100 × |+DI − −DI| / (+DI + −DI):
    // bar 2: TR 2,     +DM 1,     −DM 0     -> +DI 50,        −DI 0,         DX 100
    // bar 3: TR 2.25,  +DM 0.5,   −DM 0.5   -> +DI 200/9,     −DI 200/9,     DX 0    ADX = (100 + 0) / 2 = 50
    // bar 4: TR 2.125, +DM 0.25,  −DM 0.75  -> +DI 200/17,    −DI 600/17,    DX 50   ADX = (50 + 50) / 2 = 50
    // bar 5: TR 2.8125,+DM 1.125, −DM 0.375 -> +DI 40,        −DI 40/3,      DX 50   ADX = 50
    // bar 6: TR 2.15625,+DM 0.8125,−DM 0.1875 -> +DI 2600/69, −DI 600/69,    DX 62.5 ADX = (50 + 62.5) / 2 = 56.25
    // (rechecked with Python fractions over Wilder's sum form.)
    const bars = {
      high: Float64Array.of(10, 11, 12, 11.5, 10, 12, 12.5),
      low: Float64Array.of(8, 9, 10, 9, 8, 9, 11),
      close: Float64Array.of(9, 10.5, 11, 9.5, 8.5, 11.5, 12),
    };
    const out = run(bars, 2);
    expectSeries(out.plusDi, [NaN, NaN, 50, 200 / 9, 200 / 17, 40, 2600 / 69], 1e-12);
    expectSeries(out.minusDi, [NaN, NaN, 0, 200 / 9, 600 / 17, 40 / 3, 600 / 69], 1e-12);
    expectSeries(out.adx, [NaN, NaN, NaN, 50, 50, 50, 56.25], 1e-12);
  });

  it('equals its naive twin over a grid of periods on random bars', () => {
    const bars = randomBars(seededRandom(51), 900);
    const plain = { high: Array.from(bars.high), low: Array.from(bars.low), close: Array.from(bars.close) };
    for (const period of [1, 2, 3, 5, 7, 14, 20, 50, 200, 449, 450, 900]) {
      const fast = run(bars, period);
      const slow = naiveAdx(plain.high, plain.low, plain.close, period);
      expectSeries(fast.plusDi, slow.plusDi);
      expectSeries(fast.minusDi, slow.minusDi);
      expectSeries(fast.adx, slow.adx);
    }
  });

  it('stays within [0, 100] and reads 0 on bars that never move', () => {
    const bars = randomBars(seededRandom(52), 2000);
    const out = run(bars);
    for (const series of [out.adx, out.plusDi, out.minusDi]) {
      for (const v of series.subarray(adxLookback())) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(100);
      }
    }
    const flat = new Float64Array(40).fill(10);
    const still = run({ high: flat, low: flat, close: flat });
    expect([still.plusDi[39], still.minusDi[39], still.adx[39]]).toEqual([0, 0, 0]);
  });

  it('skips bars with a missing high, low or close: equal to the system run without them', () => {
    const bars = randomBars(seededRandom(53), 400);
    bars.close[0] = NaN;
    bars.high[10] = NaN;
    bars.low[11] = -Infinity;
    bars.close[200] = NaN;
    const at = Array.from(bars.close.keys()).filter((i) => [bars.high, bars.low, bars.close].every((xs) => Number.isFinite(xs[i]!)));
    const pick = (xs: Float64Array) => at.map((i) => xs[i]!);
    for (const period of [2, 14]) {
      const slow = naiveAdx(pick(bars.high), pick(bars.low), pick(bars.close), period);
      const fast = run(bars, period);
      const scatter = (ys: number[]) => {
        const out: number[] = Array(bars.close.length).fill(NaN);
        ys.forEach((y, k) => (out[at[k]!] = y));
        return out;
      };
      expectSeries(fast.adx, scatter(slow.adx));
      expectSeries(fast.plusDi, scatter(slow.plusDi));
      expectSeries(fast.minusDi, scatter(slow.minusDi));
    }
  });
});
