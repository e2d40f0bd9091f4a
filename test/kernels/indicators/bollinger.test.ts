import { describe, expect, it } from 'bun:test';
import {
  bollingerLookback,
  bollingerWidth1d,
  percentileRank1d,
  percentileRankLookback,
} from '../../../src/kernels/indicators/bollinger';
import { randomWalk, seededRandom } from '../../helpers/random';
import { expectSeries } from '../../helpers/series';

/** Reference twin: each window's mean and population σ from scratch; (upper − lower) / middle. */
function naiveWidth(values: ArrayLike<number>, period: number, multiplier: number): number[] {
  const out: number[] = [];
  for (let t = 0; t < values.length; t++) {
    const window = Array.from({ length: Math.min(period, t + 1) }, (_, k) => values[t - k]!);
    if (window.length < period || !window.every(Number.isFinite)) {
      out.push(NaN);
      continue;
    }
    const middle = window.reduce((a, b) => a + b, 0) / period;
    const sigma = Math.sqrt(window.reduce((a, x) => a + (x - middle) ** 2, 0) / period);
    const upper = middle + multiplier * sigma;
    const lower = middle - multiplier * sigma;
    out.push((upper - lower) / middle);
  }
  return out;
}

/** Reference twin: the share of the previous period − 1 values strictly below the current one. */
function naiveRank(values: ArrayLike<number>, period: number): number[] {
  const out: number[] = [];
  for (let t = 0; t < values.length; t++) {
    const window = Array.from({ length: Math.min(period, t + 1) }, (_, k) => values[t - k]!);
    if (window.length < period || !window.every(Number.isFinite)) {
      out.push(NaN);
      continue;
    }
    const previous = window.slice(1);
    out.push((100 * previous.filter((x) => x < values[t]!).length) / previous.length);
  }
  return out;
}

function width(values: Float64Array, period?: number, multiplier?: number): Float64Array {
  const out = new Float64Array(values.length);
  bollingerWidth1d(values, out, { period, multiplier });
  return out;
}

function rank(values: Float64Array, period?: number): Float64Array {
  const out = new Float64Array(values.length);
  percentileRank1d(values, out, { period });
  return out;
}

describe('bollinger lookbacks and options', () => {
  it('starts the width at period − 1 and the rank at period − 1 of its input', () => {
    expect(bollingerLookback()).toBe(19);
    expect(bollingerLookback({ period: 5, multiplier: 1 })).toBe(4);
    expect(percentileRankLookback()).toBe(125);
    expect(percentileRankLookback({ period: 2 })).toBe(1);
  });

  it('rejects a bad period or multiplier, a rank window under 2, and short outputs', () => {
    const x = new Float64Array(10);
    for (const period of [0, -1, 2.5, NaN]) expect(() => bollingerLookback({ period })).toThrow(/period must be a positive integer/);
    for (const multiplier of [0, -2, NaN, Infinity]) {
      expect(() => bollingerWidth1d(x, x.slice(), { multiplier })).toThrow(/multiplier must be a finite positive number/);
    }
    for (const period of [1, 0, 3.5, NaN]) {
      expect(() => percentileRankLookback({ period })).toThrow(RangeError);
      expect(() => percentileRank1d(x, x.slice(), { period })).toThrow(/at least 2/);
    }
    expect(() => bollingerWidth1d(x, new Float64Array(9))).toThrow(/output holds 9/);
    expect(() => percentileRank1d(x, new Float64Array(9))).toThrow(/output holds 9/);
  });
});

describe('bollinger band width', () => {
  it("matches the bands of Achelis' 5-bar, 2σ example (Technical Analysis from A to Z, p. 73, via Tulip tests/atoz.txt)", () => {
    const close = Float64Array.of(
      31.875, 32.125, 32.3125, 32.125, 31.875, 32.3125, 32.25, 32.4375, 32.8125, 32.375, 32.5,
      32.4375, 32.75, 33.1875, 33.0625, 33.0625, 33.125, 33.0625, 32.8125, 32.875, 33.25, 33.125,
    );
    const lower = [31.7271, 31.8279, 31.8452, 31.8176, 31.7323, 32.0422, 32.0992, 32.2023, 32.2268, 32.0552, 32.1927, 32.3546, 32.7354, 33.0, 32.8071, 32.7451, 32.7029, 32.7029];
    const middle = [32.0625, 32.15, 32.175, 32.2, 32.3375, 32.4375, 32.475, 32.5125, 32.575, 32.65, 32.7875, 32.9, 33.0375, 33.1, 33.025, 32.9875, 33.025, 33.025];
    const upper = [32.3979, 32.4721, 32.5048, 32.5824, 32.9427, 32.8328, 32.8508, 32.8227, 32.9232, 33.2448, 33.3823, 33.4454, 33.3396, 33.2, 33.2429, 33.2299, 33.3471, 33.3471];
    const out = width(close, 5, 2);
    expect(Array.from(out.subarray(0, 4)).every(Number.isNaN)).toBe(true);
    // The book rounds the bands to four places: (U − L) is off by at most 1e-4, i.e. ~3e-6 of a 32 middle.
    middle.forEach((m, k) => expect(Math.abs(out[4 + k]! - (upper[k]! - lower[k]!) / m)).toBeLessThan(1e-5));
  });

  it('uses the population σ (hand-computed)', () => {
    // 9, 11: middle 10, σ = sqrt(((−1)² + 1²) / 2) = 1 (the sample σ would be √2); width = 4 × 1 / 10.
    expect(Array.from(width(Float64Array.of(9, 11), 2))).toEqual([NaN, 0.4]);
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, population σ = 2 (the textbook example); k = 1.5 -> width 3 × 2 / 5 = 1.2.
    expect(width(Float64Array.of(2, 4, 4, 4, 5, 5, 7, 9), 8, 1.5)[7]).toBeCloseTo(1.2, 14);
  });

  it('equals its naive twin over a grid of periods and multipliers on a random walk', () => {
    const close = randomWalk(seededRandom(61), 700);
    for (const period of [1, 2, 3, 5, 10, 20, 50, 200, 700]) {
      for (const multiplier of [1, 2, 2.5]) expectSeries(width(close, period, multiplier), naiveWidth(close, period, multiplier));
    }
  });

  it('is 0 on a flat window, and NaN while a missing value is in the window', () => {
    const close = randomWalk(seededRandom(62), 200);
    close.fill(50, 100, 130);
    close[20] = NaN;
    close[60] = Infinity;
    const out = width(close, 20);
    expectSeries(out, naiveWidth(close, 20, 2));
    expect(out[129]).toBeCloseTo(0, 12);
    expect(out[39]).toBeNaN();
    expect(out[40]).not.toBeNaN();
  });
});

describe('percentile rank', () => {
  it('matches a hand-computed example', () => {
    // period 4 -> compare with the 3 values before:
    // bar 3: 1 among [3, 1, 4]: none below -> 0      bar 4: 5 among [1, 4, 1]: 3 below -> 100
    // bar 5: 9 among [4, 1, 5]: 3 below -> 100        bar 6: 2 among [1, 5, 9]: 1 below -> 33.3…
    // bar 7: 6 among [5, 9, 2]: 2 below -> 66.6…
    const out = rank(Float64Array.of(3, 1, 4, 1, 5, 9, 2, 6), 4);
    expectSeries(out, [NaN, NaN, NaN, 0, 100, 100, 100 / 3, 200 / 3], 1e-15);
  });

  it('ranks a value tied with the low of the window at 0 (ties are not below)', () => {
    expect(rank(new Float64Array(10).fill(7), 5)[9]).toBe(0);
  });

  it('equals its naive twin over a grid of windows, missing values included', () => {
    const series = randomWalk(seededRandom(63), 600);
    series[300] = NaN;
    for (const period of [2, 3, 5, 20, 126, 252, 600]) expectSeries(rank(series, period), naiveRank(series, period));
  });

  it('ranks bbWidth20 from bar 19 + 125 = 144 when stacked on the width', () => {
    const close = randomWalk(seededRandom(64), 400);
    const ranked = rank(width(close));
    expect(ranked[143]).toBeNaN();
    expect(ranked[144]).not.toBeNaN();
    expect(bollingerLookback() + percentileRankLookback()).toBe(144);
  });
});
