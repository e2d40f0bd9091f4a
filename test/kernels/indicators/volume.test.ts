import { describe, expect, it } from 'bun:test';
import { averageDollarVolume1d, averageVolume1d, volumeLookback } from '../../../src/kernels/indicators/volume';
import { seededRandom } from '../../helpers/random';
import { expectSeries } from '../../helpers/series';

/** Reference twin: each window's mean from scratch; a window with a non-finite value is NaN. */
function naiveMean(values: number[], period: number): number[] {
  return values.map((_, t) => {
    if (t < period - 1) return NaN;
    const window = values.slice(t - period + 1, t + 1);
    return window.every(Number.isFinite) ? window.reduce((a, b) => a + b, 0) / period : NaN;
  });
}

function sessions(rand: () => number, length: number) {
  const close = new Float64Array(length);
  const volume = new Float64Array(length);
  let price = 50;
  for (let i = 0; i < length; i++) {
    close[i] = price *= Math.exp((rand() - 0.5) * 0.04);
    volume[i] = Math.round(1e6 * Math.exp(rand() * 2));
  }
  return { close, volume };
}

describe('volume lookback and options', () => {
  it('starts at period − 1 (49 by default)', () => {
    expect(volumeLookback()).toBe(49);
    expect(volumeLookback({ period: 20 })).toBe(19);
  });

  it('rejects a bad period, unequal columns and a short output', () => {
    const x = new Float64Array(10);
    for (const period of [0, -50, 2.5, NaN]) {
      expect(() => volumeLookback({ period })).toThrow(RangeError);
      expect(() => averageVolume1d(x, x.slice(), { period })).toThrow(/period must be a positive integer/);
      expect(() => averageDollarVolume1d(x, x, x.slice(), { period })).toThrow(/period must be a positive integer/);
    }
    expect(() => averageDollarVolume1d(x, new Float64Array(9), x.slice())).toThrow(/one value per bar/);
    expect(() => averageDollarVolume1d(x, x, new Float64Array(9))).toThrow(/output holds 9/);
    expect(() => averageVolume1d(x, new Float64Array(9))).toThrow(/output holds 9/);
  });
});

describe('average volume and dollar volume', () => {
  it('match a hand-computed example', () => {
    // volume 100, 300, 200; close 10, 20, 5 -> dollar volume 1,000, 6,000, 1,000.
    // period 2: volume (100+300)/2 = 200, (300+200)/2 = 250; dollars (1,000+6,000)/2 = 3,500, (6,000+1,000)/2 = 3,500.
    const close = Float64Array.of(10, 20, 5);
    const volume = Float64Array.of(100, 300, 200);
    const avg = new Float64Array(3);
    const dollars = new Float64Array(3);
    averageVolume1d(volume, avg, { period: 2 });
    averageDollarVolume1d(close, volume, dollars, { period: 2 });
    expect(Array.from(avg)).toEqual([NaN, 200, 250]);
    expect(Array.from(dollars)).toEqual([NaN, 3500, 3500]);
  });

  it('equal their naive twins over a grid of periods, missing values included', () => {
    const { close, volume } = sessions(seededRandom(81), 500);
    volume[100] = NaN;
    close[300] = NaN;
    const dollarVolume = Array.from(close, (c, i) => c * volume[i]!);
    for (const period of [1, 2, 5, 10, 20, 50, 200, 500]) {
      const avg = new Float64Array(500);
      const dollars = new Float64Array(500);
      averageVolume1d(volume, avg, { period });
      averageDollarVolume1d(close, volume, dollars, { period });
      expectSeries(avg, naiveMean(Array.from(volume), period));
      expectSeries(dollars, naiveMean(dollarVolume, period));
    }
  });
});
