/**
 * @module providers/synthetic/patterns
 * Shapes of the chart patterns the simulator steers prices through, as target
 * log-price paths (offsets from the close before the episode). The geometry
 * follows the trade literature: flat base, cup with handle and their prior
 * advance of at least 30 % from O'Neil (*How to Make Money in Stocks*, 4th ed.,
 * ch. 2); the volatility contraction pattern from Minervini (*Trade Like a
 * Stock Market Wizard*, ch. 10); flags and triangles from Bulkowski
 * (*Encyclopedia of Chart Patterns*, 2nd ed.). Control points are joined by a
 * monotone cubic (Fritsch & Carlson, "Monotone piecewise cubic interpolation",
 * SIAM J. Numer. Anal. 17, 1980), so turning points are exact and nothing
 * overshoots between them.
 *
 * A plan says which steps belong to the prior move and which to the pattern,
 * and which windows of the realised bars give the pivot (the trigger level)
 * and the invalidation level (a close through it is a failure).
 */
import type { Rng } from './rng';

export type PatternType =
  | 'flat_base'
  | 'cup_with_handle'
  | 'vcp'
  | 'bull_flag'
  | 'ascending_triangle'
  | 'bear_flag'
  | 'descending_triangle';

export const PATTERN_TYPES: readonly PatternType[] = [
  'flat_base',
  'cup_with_handle',
  'vcp',
  'bull_flag',
  'ascending_triangle',
  'bear_flag',
  'descending_triangle',
];

export type PatternDirection = 'long' | 'short';

export interface PatternPlan {
  pattern: PatternType;
  direction: PatternDirection;
  /** Target log offset per step; `path[0]` = 0 is the close before the episode, steps run 1..L. */
  path: Float64Array;
  /** Volume multiplier per step (index 0 unused). */
  volume: Float64Array;
  /** First step of the pattern proper (the prior advance or pole comes before it). */
  patternStart: number;
  /** First step of the window whose extreme is the pivot. */
  pivotFrom: number;
  /** First step of the window whose opposite extreme is the invalidation level. */
  invalidationFrom: number;
  /** Pullbacks in a volatility contraction; 0 for other patterns. */
  contractions: number;
  /**
   * Deepest a close may sit inside the pattern proper, as a fraction of the
   * pattern's extreme so far (below its highest high for longs, above its
   * lowest low for shorts). Closes are also kept from crossing that extreme,
   * so the pattern cannot trigger before its end.
   */
  maxDepth: number;
  /** From this step on, closes stay in the upper half of the pattern's range so far (a cup's handle); 0 = never. */
  upperHalfFrom: number;
  /** Steps whose close comes back within about 1 % of the pattern's extreme: a triangle's tests of its flat line. */
  touches: readonly number[];
}

type Knot = readonly [step: number, logOffset: number];

const ln1p = Math.log1p;

/**
 * Fritsch–Carlson monotone cubic through `knots` (steps strictly increasing),
 * sampled at every integer step from 0 to the last knot.
 */
export function monotoneCubic(knots: readonly Knot[]): Float64Array {
  const n = knots.length;
  const xs = knots.map((k) => k[0]);
  const ys = knots.map((k) => k[1]);
  const secant = xs.slice(1).map((x, i) => (ys[i + 1]! - ys[i]!) / (x - xs[i]!));
  const slope = xs.map((_, i) => {
    if (i === 0) return secant[0]!;
    if (i === n - 1) return secant[n - 2]!;
    const a = secant[i - 1]!;
    const b = secant[i]!;
    // A sign change or a flat side makes the knot an extremum: zero slope there.
    if (a * b <= 0) return 0;
    // Weighted harmonic mean of the secants (Fritsch & Butland 1984, as in SciPy's PCHIP).
    const h0 = xs[i]! - xs[i - 1]!;
    const h1 = xs[i + 1]! - xs[i]!;
    const w1 = 2 * h1 + h0;
    const w2 = h1 + 2 * h0;
    return (w1 + w2) / (w1 / a + w2 / b);
  });
  const last = xs[n - 1]!;
  const out = new Float64Array(last + 1);
  let seg = 0;
  for (let s = 0; s <= last; s++) {
    while (seg < n - 2 && s > xs[seg + 1]!) seg++;
    const x0 = xs[seg]!;
    const h = xs[seg + 1]! - x0;
    const u = (s - x0) / h;
    const h00 = (1 + 2 * u) * (1 - u) * (1 - u);
    const h10 = u * (1 - u) * (1 - u);
    const h01 = u * u * (3 - 2 * u);
    const h11 = u * u * (u - 1);
    out[s] = h00 * ys[seg]! + h10 * h * slope[seg]! + h01 * ys[seg + 1]! + h11 * h * slope[seg + 1]!;
  }
  return out;
}

/** Volume multipliers: `levels` as (from step, multiplier) pairs, constant until the next. */
function volumeSteps(length: number, levels: ReadonlyArray<readonly [number, number]>): Float64Array {
  const out = new Float64Array(length + 1);
  let j = 0;
  for (let s = 1; s <= length; s++) {
    while (j < levels.length - 1 && s >= levels[j + 1]![0]) j++;
    out[s] = levels[j]![1];
  }
  return out;
}

/** A steady advance of `gain` over `length` steps, a little steeper in its middle. */
function advanceKnots(rng: Rng, gain: number, length: number): Knot[] {
  const top = ln1p(gain);
  return [
    [0, 0],
    [Math.round(length * 0.5), top * rng.range(0.42, 0.58)],
    [length, top],
  ];
}

/** Builds the plan of one pattern episode. */
export function planPattern(pattern: PatternType, rng: Rng): PatternPlan {
  switch (pattern) {
    case 'flat_base': {
      const la = rng.int(25, 45);
      const lb = rng.int(25, 50);
      const top = ln1p(rng.range(0.38, 0.6));
      const d = rng.range(0.085, 0.115);
      const knots: Knot[] = [
        ...advanceKnots(rng, Math.expm1(top), la),
        [la + Math.round(lb * rng.range(0.2, 0.3)), top + ln1p(-d)],
        [la + Math.round(lb * 0.45), top + ln1p(-d * rng.range(0.35, 0.55))],
        [la + Math.round(lb * rng.range(0.65, 0.75)), top + ln1p(-d * rng.range(0.75, 0.95))],
        [la + lb, top + ln1p(-d * rng.range(0.1, 0.3))],
      ];
      return plan(pattern, 'long', knots, { start: la, pivotFrom: la, invalidationFrom: la, maxDepth: 0.125 }, [
        [1, 1.2],
        [la + 1, 0.75],
        [la + Math.round(lb / 2), 0.65],
      ]);
    }
    case 'cup_with_handle': {
      const la = rng.int(25, 45);
      const lc = rng.int(35, 115);
      const lh = rng.int(6, 15);
      const top = ln1p(rng.range(0.38, 0.6));
      const depth = rng.range(0.15, 0.26);
      const lip = top + ln1p(-rng.range(0, 0.02));
      const handle = Math.min(0.12, depth * rng.range(0.2, 0.33));
      const knots: Knot[] = [
        ...advanceKnots(rng, Math.expm1(top), la),
        [la + Math.round(lc * 0.33), top + ln1p(-depth * rng.range(0.82, 0.92))],
        [la + Math.round(lc * 0.5), top + ln1p(-depth)],
        [la + Math.round(lc * 0.67), top + ln1p(-depth * rng.range(0.82, 0.92))],
        [la + lc, lip],
        [la + lc + Math.round(lh * 0.6), lip + ln1p(-handle)],
        [la + lc + lh, lip + ln1p(-handle * rng.range(0.6, 0.8))],
      ];
      return plan(pattern, 'long', knots, { start: la, pivotFrom: la + lc, invalidationFrom: la + lc, maxDepth: 0.3, upperHalfFrom: la + lc + 1 }, [
        [1, 1.2],
        [la + 1, 0.95],
        [la + Math.round(lc * 0.35), 0.7],
        [la + Math.round(lc * 0.65), 0.9],
        [la + lc + 1, 0.6],
      ]);
    }
    case 'vcp': {
      const la = rng.int(25, 45);
      const top = ln1p(rng.range(0.36, 0.55));
      const count = rng.int(2, 4);
      const knots: Knot[] = advanceKnots(rng, Math.expm1(top), la);
      const volume: Array<[number, number]> = [[1, 1.15]];
      let depth = rng.range(0.14, 0.24);
      let length = rng.int(14, 24);
      let step = la;
      let high = top;
      let lastStart = la;
      for (let j = 0; j < count; j++) {
        lastStart = step;
        volume.push([step + 1, 0.9 - (0.4 * j) / Math.max(1, count - 1)]);
        const nextHigh = high + ln1p(-rng.range(0.003, 0.015));
        knots.push([step + Math.round(length * 0.45), high + ln1p(-depth)], [step + length, nextHigh]);
        step += length;
        high = nextHigh;
        depth *= rng.range(0.45, 0.65);
        length = Math.max(6, Math.round(length * rng.range(0.6, 0.8)));
      }
      return plan(pattern, 'long', knots, { start: la, pivotFrom: lastStart, invalidationFrom: lastStart, maxDepth: 0.32, contractions: count }, volume);
    }
    case 'bull_flag':
    case 'bear_flag': {
      const sign = pattern === 'bull_flag' ? 1 : -1;
      const lp = rng.int(5, 12);
      const lf = rng.int(6, 18);
      const pole = sign > 0 ? ln1p(rng.range(0.15, 0.35)) : ln1p(-rng.range(0.12, 0.25));
      const drift = -sign * rng.range(0.04, Math.min(0.12, 0.45 * Math.abs(pole)));
      const width = rng.range(0.025, 0.05);
      const channel = (f: number, lower: boolean) => pole + drift * f - (lower ? sign * width : 0);
      const knots: Knot[] = [
        [0, 0],
        [Math.round(lp * 0.5), pole * rng.range(0.4, 0.6)],
        [lp, pole],
        [lp + Math.round(lf * 0.3), channel(0.3, true)],
        [lp + Math.round(lf * 0.6), channel(0.6, false)],
        [lp + Math.round(lf * 0.85), channel(0.85, true)],
        [lp + lf, channel(1, false) - sign * width * 0.3],
      ];
      const maxDepth = 0.5 * Math.abs(Math.expm1(pole));
      return plan(pattern, sign > 0 ? 'long' : 'short', knots, { start: lp, pivotFrom: lp, invalidationFrom: lp, maxDepth }, [
        [1, 1.8],
        [lp + 1, 0.65],
        [lp + Math.round(lf / 2), 0.55],
      ]);
    }
    case 'ascending_triangle':
    case 'descending_triangle': {
      const sign = pattern === 'ascending_triangle' ? 1 : -1;
      const length = rng.int(25, 55);
      const line = sign * ln1p(rng.range(0.06, 0.12));
      const d1 = rng.range(0.08, 0.14);
      const d2 = d1 * rng.range(0.5, 0.65);
      const d3 = d2 * rng.range(0.4, 0.6);
      const at = (f: number) => Math.round(length * f);
      // Swings away from the flat line shrink: rising lows under flat highs, or falling highs over flat lows.
      const away = (d: number) => line - sign * d;
      const knots: Knot[] = [
        [0, 0],
        [at(0.15), line],
        [at(0.3), away(d1)],
        [at(0.45), line],
        [at(0.6), away(d2)],
        [at(0.74), line],
        [at(0.87), away(d3)],
        [length, away(0.008)],
      ];
      return plan(pattern, sign > 0 ? 'long' : 'short', knots, {
        start: at(0.15),
        pivotFrom: at(0.15),
        invalidationFrom: at(0.74),
        maxDepth: 0.16,
        touches: [at(0.45), at(0.74)],
      }, [
        [1, 0.9],
        [at(0.45), 0.75],
        [at(0.74), 0.6],
      ]);
    }
  }
}

interface Windows {
  start: number;
  pivotFrom: number;
  invalidationFrom: number;
  maxDepth: number;
  contractions?: number;
  upperHalfFrom?: number;
  touches?: number[];
}

function plan(
  pattern: PatternType,
  direction: PatternDirection,
  knots: Knot[],
  windows: Windows,
  volume: ReadonlyArray<readonly [number, number]>,
): PatternPlan {
  const path = monotoneCubic(knots);
  return {
    pattern,
    direction,
    path,
    volume: volumeSteps(path.length - 1, volume),
    patternStart: windows.start,
    pivotFrom: windows.pivotFrom,
    invalidationFrom: windows.invalidationFrom,
    contractions: windows.contractions ?? 0,
    maxDepth: windows.maxDepth,
    upperHalfFrom: windows.upperHalfFrom ?? 0,
    touches: windows.touches ?? [],
  };
}
