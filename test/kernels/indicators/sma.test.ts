import { describe, expect, it } from 'bun:test';
import { sma1d, smaLookback } from '../../../src/kernels/indicators/sma';
import { randomWalk, seededRandom } from '../../helpers/random';
import { expectSeries } from '../../helpers/series';

/** Reference twin: every window summed from scratch; a window with a non-finite value is NaN. */
function naiveSma(values: ArrayLike<number>, period: number): number[] {
  const out: number[] = [];
  for (let t = 0; t < values.length; t++) {
    if (t < period - 1) {
      out.push(NaN);
      continue;
    }
    const window = Array.from({ length: period }, (_, k) => values[t - period + 1 + k]!);
    out.push(window.every(Number.isFinite) ? window.reduce((a, b) => a + b, 0) / period : NaN);
  }
  return out;
}

function run(values: Float64Array, period: number): Float64Array {
  const out = new Float64Array(values.length);
  sma1d(values, out, { period });
  return out;
}

describe('sma lookback and options', () => {
  it('starts at period − 1', () => {
    expect(smaLookback({ period: 1 })).toBe(0);
    expect(smaLookback({ period: 200 })).toBe(199);
  });

  it('rejects a period that is not a positive integer, and a short output', () => {
    for (const period of [0, -3, 2.5, NaN, Infinity]) {
      expect(() => smaLookback({ period })).toThrow(RangeError);
      expect(() => sma1d(new Float64Array(5), new Float64Array(5), { period })).toThrow(/period must be a positive integer/);
    }
    expect(() => sma1d(new Float64Array(5), new Float64Array(4), { period: 2 })).toThrow(/output holds 4/);
  });
});

describe('sma values', () => {
  it("matches Achelis' 5-bar example (Technical Analysis from A to Z, p. 207, via Tulip tests/atoz.txt)", () => {
    const close = Float64Array.of(25, 24.875, 24.781, 24.594, 24.5, 24.625, 25.219, 27.25);
    const out = run(close, 5);
    expect(Array.from(out.subarray(0, 4))).toEqual([NaN, NaN, NaN, NaN]);
    // The book prints three decimals.
    [24.75, 24.675, 24.744, 25.238].forEach((v, k) => expect(Math.abs(out[4 + k]! - v)).toBeLessThan(5e-4));
  });

  it('equals its naive twin over a grid of periods on a random walk', () => {
    const close = randomWalk(seededRandom(11), 700);
    for (const period of [1, 2, 3, 5, 10, 20, 50, 150, 200, 699, 700, 701]) {
      expectSeries(run(close, period), naiveSma(close, period));
    }
  });

  it('is NaN while a missing value is in the window, and recovers after (the twin agrees)', () => {
    const close = randomWalk(seededRandom(12), 300);
    close[40] = NaN;
    close[41] = Infinity;
    close[200] = NaN;
    for (const period of [1, 5, 20, 50]) {
      const out = run(close, period);
      expectSeries(out, naiveSma(close, period));
      expect(out[41 + period - 1]).toBeNaN();
      expect(out[41 + period]).not.toBeNaN();
    }
  });

  it('writes NaN everywhere when the series is shorter than the period', () => {
    expect(Array.from(run(Float64Array.of(1, 2, 3), 4))).toEqual([NaN, NaN, NaN]);
    expect(run(new Float64Array(0), 4).length).toBe(0);
  });
});
