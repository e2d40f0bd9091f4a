/**
 * @module kernels/patterns/vcp-contractions
 * The contractions of a volatility contraction pattern (`vcp.ts`): the
 * pullbacks of a zigzag over the base, merged until what is left has falling
 * highs, rising lows and depths that shrink step by step (Mark Minervini,
 * "Trade Like a Stock Market Wizard", McGraw-Hill, 2013, the chapter on the
 * volatility contraction pattern: each pullback roughly half the one before).
 *
 * The zigzag turns on a move of `swing` (a fraction of price) against the
 * current swing. Each finished pullback goes on a stack: one that undercuts
 * the pullback before it continues that one (one wider pullback), one that
 * starts at or above the high before it absorbs it (the earlier dip was a
 * pause in the rally), and one whose depth is more than `maxContractionRatio`
 * (no contraction) or less than `minContractionRatio` (a pause) of the one
 * before is dropped. Nothing is allocated: the stack is the caller's two
 * `Int32Array`s of `CONTRACTION_STACK` entries.
 *
 * @example
 * const hs = new Int32Array(CONTRACTION_STACK), ls = new Int32Array(CONTRACTION_STACK);
 * const n = findContractions(input, s, e, 0.03, VCP_DEFAULTS, hs, ls); // a 3% zigzag over bars s..e
 * swingDepth(input.bars.high, input.bars.low, hs[n - 1]!, ls[n - 1]!); // => the last contraction's depth, a fraction of its high
 */
import type { PatternInput } from './types';

/** Most contractions the zigzag stack holds while merging (falling highs, rising lows keep it short). */
export const CONTRACTION_STACK = 64;

/** Bounds on a contraction's depth as a share of the one before it (the `VcpOptions` fields of the same names). */
export interface ContractionRatios {
  minContractionRatio: number;
  maxContractionRatio: number;
}

/** Depth of the swing from high bar `h` to low bar `l`, as a fraction of the high. */
export const swingDepth = (high: Float64Array, low: Float64Array, h: number, l: number) => (high[h]! - low[l]!) / high[h]!;

/** Pushes the pullback from `h` to `l` on the stack of `n` contractions with the merge rules of the module doc; returns the new count. */
function pushSwing(high: Float64Array, low: Float64Array, hs: Int32Array, ls: Int32Array, n: number, h: number, l: number, o: ContractionRatios): number {
  while (n > 0) {
    const th = hs[n - 1]!, tl = ls[n - 1]!;
    if (low[l]! <= low[tl]!) {
      if (high[th]! >= high[h]!) h = th; // the decline goes on: one wider pullback
      n--;
      continue;
    }
    if (high[h]! >= high[th]!) {
      n--; // the earlier dip was a pause in the rally to h
      continue;
    }
    const ratio = swingDepth(high, low, h, l) / swingDepth(high, low, th, tl);
    if (ratio > o.maxContractionRatio || ratio < o.minContractionRatio) return n; // no contraction, or only a pause
    break;
  }
  if (n === CONTRACTION_STACK) return n;
  hs[n] = h;
  ls[n] = l;
  return n + 1;
}

/**
 * Zigzag from `s` to `e` with reversal threshold `swing`; writes the
 * contractions' swing-high and swing-low bars into `hs`/`ls`, oldest first,
 * and returns how many there are.
 */
export function findContractions(input: PatternInput, s: number, e: number, swing: number, o: ContractionRatios, hs: Int32Array, ls: Int32Array): number {
  const { high, low } = input.bars;
  let n = 0, hi = s, lo = s, falling = false;
  for (let i = s + 1; i <= e; i++) {
    if (!falling) {
      if (high[i]! > high[hi]!) hi = i;
      else if (low[i]! <= high[hi]! * (1 - swing)) {
        falling = true;
        lo = i;
      }
    } else if (low[i]! < low[lo]!) lo = i;
    else if (high[i]! >= low[lo]! * (1 + swing)) {
      n = pushSwing(high, low, hs, ls, n, hi, lo, o);
      falling = false;
      hi = i;
    }
  }
  return falling ? pushSwing(high, low, hs, ls, n, hi, lo, o) : n;
}
