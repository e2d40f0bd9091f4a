import { describe, expect, it } from 'bun:test';
import { highLowDistance1d, highLowLookback } from '../../../src/kernels/indicators/high-low';
import { seededRandom } from '../../helpers/random';

type Bars = { high: Float64Array; low: Float64Array; close: Float64Array };

function randomBars(rand: () => number, length: number): Bars {
  const high = new Float64Array(length);
  const low = new Float64Array(length);
  const close = new Float64Array(length);
  let price = 100;
  for (let i = 0; i < length; i++) {
    close[i] = price *= Math.exp((rand() - 0.5) * 0.04);
    high[i] = price * (1 + rand() * 0.02);
    low[i] = price * (1 - rand() * 0.02);
  }
  return { high, low, close };
}

/** Reference twin: scan each window for the highest high and lowest low, then the two percentages. */
function naiveDistance(bars: Bars, period: number) {
  const fromHigh: number[] = [];
  const fromLow: number[] = [];
  for (let t = 0; t < bars.close.length; t++) {
    const highs = Array.from(bars.high.subarray(Math.max(0, t - period + 1), t + 1));
    const lows = Array.from(bars.low.subarray(Math.max(0, t - period + 1), t + 1));
    const c = bars.close[t]!;
    const full = highs.length === period && Number.isFinite(c);
    const top = full && highs.every(Number.isFinite) ? Math.max(...highs) : NaN;
    const bottom = full && lows.every(Number.isFinite) ? Math.min(...lows) : NaN;
    fromHigh.push((100 * (c - top)) / top);
    fromLow.push((100 * (c - bottom)) / bottom);
  }
  return { fromHigh, fromLow };
}

function run(bars: Bars, period?: number) {
  const len = bars.close.length;
  const out = { fromHigh: new Float64Array(len), fromLow: new Float64Array(len) };
  highLowDistance1d(bars.high, bars.low, bars.close, out.fromHigh, out.fromLow, { period });
  return out;
}

describe('high-low distance lookback and options', () => {
  it('starts at period − 1 (251 for 52 weeks)', () => {
    expect(highLowLookback()).toBe(251);
    expect(highLowLookback({ period: 2 })).toBe(1);
  });

  it('rejects a bad period, unequal columns and short outputs', () => {
    const x = new Float64Array(10).fill(1);
    for (const period of [0, -252, 1.5, NaN]) {
      expect(() => highLowLookback({ period })).toThrow(RangeError);
      expect(() => highLowDistance1d(x, x, x, x.slice(), x.slice(), { period })).toThrow(/period must be a positive integer/);
    }
    expect(() => highLowDistance1d(x, new Float64Array(9), x, x.slice(), x.slice())).toThrow(/one value per bar/);
    expect(() => highLowDistance1d(x, x, x, x.slice(), new Float64Array(9), { period: 2 })).toThrow(/every output/);
  });
});

describe('high-low distance', () => {
  it('matches a hand-computed example', () => {
    // period 2. bar 1: high max(100, 90) = 100, low min(80, 75) = 75, close 90 -> 100×(90−100)/100 = −10, 100×(90−75)/75 = 20.
    // bar 2: high max(90, 120) = 120, low min(75, 96) = 75, close 96 -> −20 and 28.
    const out = run({ high: Float64Array.of(100, 90, 120), low: Float64Array.of(80, 75, 96), close: Float64Array.of(95, 90, 96) }, 2);
    expect(Array.from(out.fromHigh)).toEqual([NaN, -10, -20]);
    expect(Array.from(out.fromLow)).toEqual([NaN, 20, 28]);
  });

  it('equals its naive twin over a grid of periods, missing values included', () => {
    const bars = randomBars(seededRandom(111), 700);
    bars.high[100] = NaN;
    bars.low[400] = NaN;
    bars.close[500] = Infinity;
    for (const period of [1, 2, 5, 20, 55, 252, 700]) {
      const fast = run(bars, period);
      const slow = naiveDistance(bars, period);
      expect(Array.from(fast.fromHigh)).toEqual(slow.fromHigh);
      expect(Array.from(fast.fromLow)).toEqual(slow.fromLow);
    }
  });

  it('is at most 0 from the high and at least 0 from the low', () => {
    const out = run(randomBars(seededRandom(112), 1000));
    for (const v of out.fromHigh.subarray(251)) expect(v).toBeLessThanOrEqual(0);
    for (const v of out.fromLow.subarray(251)) expect(v).toBeGreaterThanOrEqual(0);
  });
});
