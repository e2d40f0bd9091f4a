import { describe, expect, it } from 'bun:test';
import { ema1d, emaLookback } from '../../../src/kernels/indicators/ema';
import { randomWalk, seededRandom } from '../../helpers/random';
import { expectSeries, withoutMissing } from '../../helpers/series';

/** Reference twin: the textbook recursion α·x + (1 − α)·EMA over a plain array, seeded with the SMA. */
function naiveEma(values: number[], period: number): number[] {
  const alpha = 2 / (period + 1);
  const out: number[] = values.map(() => NaN);
  if (values.length < period) return out;
  let ema = values.slice(0, period).reduce((a, b) => a + b, 0) / period;
  out[period - 1] = ema;
  for (let t = period; t < values.length; t++) {
    ema = alpha * values[t]! + (1 - alpha) * ema;
    out[t] = ema;
  }
  return out;
}

function run(values: Float64Array, period: number): Float64Array {
  const out = new Float64Array(values.length);
  ema1d(values, out, { period });
  return out;
}

describe('ema lookback and options', () => {
  it('starts at period − 1', () => {
    expect(emaLookback({ period: 1 })).toBe(0);
    expect(emaLookback({ period: 21 })).toBe(20);
  });

  it('rejects a period that is not a positive integer, and a short output', () => {
    for (const period of [0, -1, 1.5, NaN]) {
      expect(() => emaLookback({ period })).toThrow(RangeError);
      expect(() => ema1d(new Float64Array(3), new Float64Array(3), { period })).toThrow(/period must be a positive integer/);
    }
    expect(() => ema1d(new Float64Array(3), new Float64Array(2), { period: 2 })).toThrow(RangeError);
  });
});

describe('ema values', () => {
  it('matches a 10-bar example computed by hand', () => {
    // period 3 -> α = 2/4 = 0.5; seed = (2 + 4 + 6) / 3 = 4 at bar 2, then EMA += 0.5 × (x − EMA):
    // bar 3: 4 + 0.5×(8−4) = 6; bar 4: 6 + 0.5×(6−6) = 6; bar 5: 6 + 0.5×(4−6) = 5;
    // bar 6: 5 + 0.5×(6−5) = 5.5; bar 7: 5.5 + 0.5×(10−5.5) = 7.75; bar 8: 7.75 + 0.5×(8−7.75) = 7.875;
    // bar 9: 7.875 + 0.5×(8−7.875) = 7.9375 (all exact in binary; rechecked with Python fractions).
    const out = run(Float64Array.of(2, 4, 6, 8, 6, 4, 6, 10, 8, 8), 3);
    expect(Array.from(out)).toEqual([NaN, NaN, 4, 6, 6, 5, 5.5, 7.75, 7.875, 7.9375]);
  });

  it('equals its naive twin over a grid of periods on a random walk', () => {
    const close = randomWalk(seededRandom(21), 600);
    for (const period of [1, 2, 3, 9, 12, 21, 26, 50, 200, 600, 601]) {
      expectSeries(run(close, period), naiveEma(Array.from(close), period));
    }
  });

  it('skips missing bars: equal to the EMA of the series without them', () => {
    const close = randomWalk(seededRandom(22), 300);
    for (const i of [0, 1, 7, 8, 9, 100, 101, 299]) close[i] = NaN;
    close[150] = -Infinity;
    for (const period of [1, 3, 10, 21]) {
      const out = run(close, period);
      expectSeries(out, withoutMissing(close, (kept) => naiveEma(kept, period)));
      expect(out[150]).toBeNaN();
      expect(out[151]).not.toBeNaN();
    }
  });

  it('may write over its own input', () => {
    const close = randomWalk(seededRandom(23), 100);
    const expected = run(close, 10);
    ema1d(close, close, { period: 10 });
    expectSeries(close, expected, 0);
  });
});
