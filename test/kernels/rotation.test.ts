import { describe, expect, it } from 'bun:test';
import {
  periodReturn,
  rotationLookback,
  rotationQuadrant,
  rotationSeries,
  rotationSnapshot,
  type RotationOptions,
} from '../../src/kernels/rotation';
import { randomWalk, seededRandom } from '../helpers/random';

const f64 = (xs: number[]) => Float64Array.from(xs);

/** Reference twin: the formulas of the module doc, one bar at a time, with fresh sums. */
function naiveRotation(a: Float64Array, b: Float64Array, s: number, n: number, m: number) {
  const rs = Array.from(a, (x, i) => (100 * x) / b[i]!);
  const sma = (k: number, t: number) => {
    let sum = 0;
    for (let j = t - k + 1; j <= t; j++) sum += rs[j]!;
    return sum / k;
  };
  const ratioAt = (t: number) => (100 * sma(s, t)) / sma(n, t);
  const ratio: number[] = [];
  const momentum: number[] = [];
  for (let t = 0; t < a.length; t++) {
    const valid = t >= n - 1 + m;
    ratio.push(valid ? ratioAt(t) : NaN);
    momentum.push(valid ? (100 * ratioAt(t)) / ratioAt(t - m) : NaN);
  }
  return { ratio, momentum };
}

function run(a: Float64Array, b: Float64Array, opts: RotationOptions = {}) {
  const ratio = new Float64Array(a.length);
  const momentum = new Float64Array(a.length);
  rotationSeries(a, b, ratio, momentum, opts);
  return { ratio, momentum };
}

describe('rotation lookback', () => {
  it('is ratioWindow − 1 + momentumWindow (59 with the 5/50/10 defaults)', () => {
    expect(rotationLookback()).toBe(59);
    expect(rotationLookback({ smoothing: 2, ratioWindow: 3, momentumWindow: 1 })).toBe(3);
  });

  it('rejects bad options up front with a RangeError', () => {
    expect(() => rotationLookback({ ratioWindow: 0 })).toThrow(RangeError);
    expect(() => rotationLookback({ momentumWindow: 2.5 })).toThrow(RangeError);
    expect(() => rotationLookback({ smoothing: NaN })).toThrow(RangeError);
    expect(() => rotationLookback({ smoothing: 20, ratioWindow: 10 })).toThrow(/must not exceed/);
    expect(() => rotationSnapshot(f64([1]), f64([1]), { tailStep: 0 })).toThrow(RangeError);
  });

  it('rejects unaligned series, short buffers and non-positive closes', () => {
    const ok = f64([1, 2, 3]);
    expect(() => rotationSeries(ok, f64([1, 2]), new Float64Array(3), new Float64Array(3))).toThrow(/align/);
    expect(() => rotationSeries(ok, ok, new Float64Array(2), new Float64Array(3))).toThrow(/buffers/);
    expect(() => run(f64([1, 0, 3]), ok)).toThrow(/finite and positive/);
    expect(() => run(f64([1, NaN, 3]), ok)).toThrow(/finite and positive/);
  });
});

describe('rotation series', () => {
  it('matches hand-computed values on a five-bar series', () => {
    // asset 10, 11, 12, 12, 13 against a flat benchmark of 10 -> RS = 100, 110, 120, 120, 130.
    // smoothing 2, ratioWindow 3, momentumWindow 1 -> lookback 3.
    // bar 2: SMA2 = (110+120)/2 = 115, SMA3 = 330/3 = 110, ratio = 100*115/110 = 1150/11
    // bar 3: SMA2 = 120, SMA3 = 350/3, ratio = 100*120*3/350 = 720/7 = 102.857142...
    //        momentum = 100 * (720/7) / (1150/11) = 100*7920/8050 = 98.385093...
    // bar 4: SMA2 = 125, SMA3 = 370/3, ratio = 37500/370 = 3750/37 = 101.351351...
    //        momentum = 100 * (3750/37) / (720/7) = 100*26250/26640 = 98.536036...
    const { ratio, momentum } = run(f64([10, 11, 12, 12, 13]), f64([10, 10, 10, 10, 10]), {
      smoothing: 2,
      ratioWindow: 3,
      momentumWindow: 1,
    });
    expect(Array.from(ratio.subarray(0, 3))).toEqual([NaN, NaN, NaN]);
    expect(Array.from(momentum.subarray(0, 3))).toEqual([NaN, NaN, NaN]);
    expect(ratio[3]).toBeCloseTo(720 / 7, 12);
    expect(momentum[3]).toBeCloseTo((100 * 7920) / 8050, 12);
    expect(ratio[4]).toBeCloseTo(3750 / 37, 12);
    expect(momentum[4]).toBeCloseTo((100 * 26250) / 26640, 12);
  });

  it('equals its naive twin over a grid of window sizes on random walks', () => {
    const rand = seededRandom(20230731);
    const asset = randomWalk(rand, 400, 50, 0.0005);
    const bench = randomWalk(rand, 400, 400);
    for (const s of [1, 2, 5, 13]) {
      for (const n of [s, 20, 50, 63]) {
        if (n < s) continue;
        for (const m of [1, 3, 10, 21]) {
          const fast = run(asset, bench, { smoothing: s, ratioWindow: n, momentumWindow: m });
          const slow = naiveRotation(asset, bench, s, n, m);
          const lookback = n - 1 + m;
          expect(Number.isNaN(fast.ratio[lookback - 1]!)).toBe(true);
          expect(Number.isNaN(fast.momentum[lookback - 1]!)).toBe(true);
          for (let t = lookback; t < asset.length; t++) {
            expect(Math.abs(fast.ratio[t]! - slow.ratio[t]!)).toBeLessThan(1e-9);
            expect(Math.abs(fast.momentum[t]! - slow.momentum[t]!)).toBeLessThan(1e-9);
          }
        }
      }
    }
  });

  it('writes NaN everywhere when the series is shorter than the lookback', () => {
    const x = f64([1, 2, 3, 4]);
    const { ratio, momentum } = run(x, x);
    expect(ratio.every(Number.isNaN)).toBe(true);
    expect(momentum.every(Number.isNaN)).toBe(true);
    expect(rotationSnapshot(x, x).latest).toBeNull();
  });

  it('puts an asset identical to its benchmark at (100, 100)', () => {
    const bench = randomWalk(seededRandom(7), 200, 300);
    const { ratio, momentum } = run(bench, bench);
    for (let t = rotationLookback(); t < bench.length; t++) {
      expect(ratio[t]).toBeCloseTo(100, 10);
      expect(momentum[t]).toBeCloseTo(100, 10);
    }
    // A constant multiple of the benchmark is the same relative trend.
    const scaled = bench.map((x) => x * 0.37);
    expect(rotationSnapshot(scaled, bench).latest?.rsRatio).toBeCloseTo(100, 10);
  });

  it('puts a steady outperformer right of centre, in leading or weakening', () => {
    const rand = seededRandom(42);
    const bench = randomWalk(rand, 300, 400);
    const asset = bench.map((x, i) => x * Math.exp(0.002 * i));
    const { latest } = rotationSnapshot(asset, bench);
    expect(latest!.rsRatio).toBeGreaterThan(100);
    expect(['leading', 'weakening']).toContain(latest!.quadrant);
  });
});

describe('rotation quadrants', () => {
  it('names the four quadrants, with 100 on the upper side', () => {
    expect(rotationQuadrant(101, 101)).toBe('leading');
    expect(rotationQuadrant(101, 99)).toBe('weakening');
    expect(rotationQuadrant(99, 99)).toBe('lagging');
    expect(rotationQuadrant(99, 101)).toBe('improving');
    expect(rotationQuadrant(100, 100)).toBe('leading');
    expect(rotationQuadrant(100, 99.99)).toBe('weakening');
    expect(rotationQuadrant(99.99, 100)).toBe('improving');
    expect(() => rotationQuadrant(NaN, 100)).toThrow(RangeError);
  });
});

describe('rotation snapshot', () => {
  it('returns a weekly tail ending with the latest point, oldest first', () => {
    const rand = seededRandom(3);
    const a = randomWalk(rand, 120, 80);
    const b = randomWalk(rand, 120, 90);
    const { ratio, momentum } = run(a, b);
    const snap = rotationSnapshot(a, b, { tailLength: 5, tailStep: 5 });
    expect(snap.tail.map((p) => p.index)).toEqual([99, 104, 109, 114, 119]);
    expect(snap.latest).toEqual(snap.tail[4]!);
    expect(snap.latest!.rsRatio).toBe(ratio[119]!);
    expect(snap.latest!.rsMomentum).toBe(momentum[119]!);
    // Only points past the lookback (59) enter the tail.
    expect(rotationSnapshot(a.subarray(0, 65), b.subarray(0, 65)).tail.map((p) => p.index)).toEqual([59, 64]);
  });

  it('reports 1w/1m/3m returns and their difference in percentage points', () => {
    // asset doubles over the last 5 bars (+100%), the benchmark rises 10%: relative = 90 points.
    const a = f64([...Array(60).fill(50), 50, 60, 70, 80, 90, 100]);
    const b = f64([...Array(60).fill(100), 100, 102, 104, 106, 108, 110]);
    const { performance } = rotationSnapshot(a, b);
    expect(performance['1w'].asset).toBeCloseTo(100, 10);
    expect(performance['1w'].benchmark).toBeCloseTo(10, 10);
    expect(performance['1w'].relative).toBeCloseTo(90, 10);
    expect(performance['3m']).toEqual({ bars: 63, asset: 100, benchmark: 10.000000000000009, relative: 89.99999999999999 });
    expect(periodReturn(a, 100)).toBeNull();
  });
});
