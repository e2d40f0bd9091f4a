import { describe, expect, it } from 'bun:test';
import { rsi1d, rsiLookback } from '../../../src/kernels/indicators/rsi';
import { randomWalk, seededRandom } from '../../helpers/random';
import { expectSeries, withoutMissing } from '../../helpers/series';

/** Reference twin: Wilder's worksheet columns (change, gain, loss, averages) as plain arrays. */
function naiveRsi(close: number[], period: number): number[] {
  const out: number[] = close.map(() => NaN);
  const gain = close.map((c, t) => (t === 0 ? 0 : Math.max(c - close[t - 1]!, 0)));
  const loss = close.map((c, t) => (t === 0 ? 0 : Math.max(close[t - 1]! - c, 0)));
  if (close.length <= period) return out;
  let avgGain = gain.slice(1, period + 1).reduce((a, b) => a + b, 0) / period;
  let avgLoss = loss.slice(1, period + 1).reduce((a, b) => a + b, 0) / period;
  const rsi = () => (avgGain + avgLoss === 0 ? 50 : 100 - 100 / (1 + avgGain / avgLoss));
  out[period] = rsi();
  for (let t = period + 1; t < close.length; t++) {
    avgGain = (avgGain * (period - 1) + gain[t]!) / period;
    avgLoss = (avgLoss * (period - 1) + loss[t]!) / period;
    out[t] = rsi();
  }
  return out;
}

function run(close: Float64Array, period?: number): Float64Array {
  const out = new Float64Array(close.length);
  rsi1d(close, out, period === undefined ? {} : { period });
  return out;
}

describe('rsi lookback and options', () => {
  it('starts at bar period (14 by default)', () => {
    expect(rsiLookback()).toBe(14);
    expect(rsiLookback({ period: 5 })).toBe(5);
  });

  it('rejects a period that is not a positive integer, and a short output', () => {
    for (const period of [0, -14, 14.5, NaN]) {
      expect(() => rsiLookback({ period })).toThrow(RangeError);
      expect(() => rsi1d(new Float64Array(20), new Float64Array(20), { period })).toThrow(/period must be a positive integer/);
    }
    expect(() => rsi1d(new Float64Array(20), new Float64Array(19))).toThrow(/output holds 19/);
  });
});

describe('rsi values', () => {
  it("matches Achelis' 5-bar example (Technical Analysis from A to Z, p. 299, via Tulip tests/atoz.txt)", () => {
    const close = Float64Array.of(
      37.875, 39.5, 38.75, 39.8125, 40, 39.875, 40.1875, 41.25, 41.125, 41.625,
      41.25, 40.1875, 39.9375, 39.9375, 40.5, 41.9375, 42.25, 42.25, 41.875, 41.875,
    );
    const book = [
      76.6667, 78.8679, 84.9158, 81.4863, 84.5968, 73.0851, 49.3173, 45.0119,
      45.0119, 57.9252, 75.9596, 78.4676, 78.4676, 65.6299, 65.6299,
    ];
    const out = run(close, 5);
    expect(Array.from(out.subarray(0, 5)).every(Number.isNaN)).toBe(true);
    // The first value by hand: changes +1.625, −0.75, +1.0625, +0.1875, −0.125 -> gains 2.875, losses 0.875.
    expect(out[5]).toBeCloseTo((100 * 2.875) / 3.75, 12);
    book.forEach((v, k) => expect(Math.abs(out[5 + k]! - v)).toBeLessThan(5e-5));
  });

  it('equals its naive twin over a grid of periods on a random walk', () => {
    const close = randomWalk(seededRandom(31), 800);
    for (const period of [1, 2, 3, 5, 9, 14, 21, 50, 250, 799, 800]) {
      expectSeries(run(close, period), naiveRsi(Array.from(close), period));
    }
  });

  it('is 100 on a steady rise, 0 on a steady fall and 50 on a flat line', () => {
    const up = Float64Array.from({ length: 30 }, (_, i) => 10 + i);
    const down = Float64Array.from({ length: 30 }, (_, i) => 50 - i);
    expect(run(up)[29]).toBe(100);
    expect(run(down)[29]).toBe(0);
    expect(run(new Float64Array(30).fill(42))[29]).toBe(50);
  });

  it('stays within [0, 100] on a wild random series', () => {
    const rand = seededRandom(32);
    const close = Float64Array.from({ length: 5000 }, () => Math.exp(10 * (rand() - 0.5)));
    for (const v of run(close, 3).subarray(3)) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(100);
    }
  });

  it('skips missing closes: equal to the RSI of the series without them', () => {
    const close = randomWalk(seededRandom(33), 300);
    for (const i of [0, 3, 4, 14, 15, 120, 299]) close[i] = NaN;
    close[200] = Infinity;
    for (const period of [1, 5, 14]) {
      expectSeries(run(close, period), withoutMissing(close, (kept) => naiveRsi(kept, period)));
    }
    expect(Array.from(run(Float64Array.of(NaN, NaN, NaN), 1))).toEqual([NaN, NaN, NaN]);
  });
});
