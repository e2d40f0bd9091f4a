import { describe, expect, it } from 'bun:test';
import {
  relativeStrength1d,
  relativeStrengthLookback,
  relativeStrengthNewHigh1d,
  relativeStrengthNewHighLookback,
} from '../../../src/kernels/indicators/relative-strength';
import { randomWalk, seededRandom } from '../../helpers/random';

/** Reference twins: the ratio bar by bar, and "no value in the window is above today's". */
function naiveRs(asset: ArrayLike<number>, benchmark: ArrayLike<number>): number[] {
  return Array.from(asset, (a, t) => {
    const b = benchmark[t]!;
    return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (100 * a) / b : NaN;
  });
}

function naiveNewHigh(rs: number[], period: number): number[] {
  return rs.map((x, t) => {
    if (t < period - 1) return NaN;
    const window = rs.slice(t - period + 1, t + 1);
    if (!window.every(Number.isFinite)) return NaN;
    return window.some((y) => y > x) ? 0 : 1;
  });
}

function rsLine(asset: Float64Array, benchmark: Float64Array): Float64Array {
  const out = new Float64Array(asset.length);
  relativeStrength1d(asset, benchmark, out);
  return out;
}

function newHigh(rs: Float64Array, period?: number): Float64Array {
  const out = new Float64Array(rs.length);
  relativeStrengthNewHigh1d(rs, out, { period });
  return out;
}

describe('relative strength lookbacks and options', () => {
  it('needs no history for the line and period − 1 bars for the new-high flag', () => {
    expect(relativeStrengthLookback()).toBe(0);
    expect(relativeStrengthNewHighLookback()).toBe(251);
    expect(relativeStrengthNewHighLookback({ period: 63 })).toBe(62);
  });

  it('rejects a bad period, unaligned series and short outputs', () => {
    const x = new Float64Array(10).fill(1);
    for (const period of [0, -1, 2.5, NaN]) {
      expect(() => relativeStrengthNewHighLookback({ period })).toThrow(RangeError);
      expect(() => relativeStrengthNewHigh1d(x, x.slice(), { period })).toThrow(/period must be a positive integer/);
    }
    expect(() => relativeStrength1d(x, new Float64Array(9), x.slice())).toThrow(/align them first/);
    expect(() => relativeStrength1d(x, x, new Float64Array(9))).toThrow(/output holds 9/);
    expect(() => relativeStrengthNewHigh1d(x, new Float64Array(9), { period: 2 })).toThrow(RangeError);
  });
});

describe('relative strength line and new highs', () => {
  it('match a hand-computed example', () => {
    // RS = 100 × A / B: 100×10/100 = 10, 100×11/100 = 11, 100×12/96 = 12.5, 100×12/120 = 10, 100×13/104 = 12.5.
    const rs = rsLine(Float64Array.of(10, 11, 12, 12, 13), Float64Array.of(100, 100, 96, 120, 104));
    expect(Array.from(rs)).toEqual([10, 11, 12.5, 10, 12.5]);
    // period 3: [10, 11, 12.5] -> high at 12.5 (1); [11, 12.5, 10] -> 0; [12.5, 10, 12.5] -> ties the high (1).
    expect(Array.from(newHigh(rs, 3))).toEqual([NaN, NaN, 1, 0, 1]);
  });

  it('give NaN for a missing close or a non-positive benchmark', () => {
    const rs = rsLine(Float64Array.of(NaN, 5, 5, 5, Infinity), Float64Array.of(10, 0, -1, NaN, 10));
    expect(Array.from(rs).every(Number.isNaN)).toBe(true);
  });

  it('equal their naive twins over a grid of periods on random walks', () => {
    const rand = seededRandom(101);
    const asset = randomWalk(rand, 600, 50);
    const benchmark = randomWalk(rand, 600, 400);
    benchmark[300] = NaN;
    const rs = rsLine(asset, benchmark);
    const expected = naiveRs(asset, benchmark);
    expect(Array.from(rs)).toEqual(expected);
    for (const period of [1, 2, 5, 20, 63, 252, 600]) {
      expect(Array.from(newHigh(rs, period))).toEqual(naiveNewHigh(expected, period));
    }
  });
});
