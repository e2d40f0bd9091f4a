/**
 * @module kernels/patterns/instance
 * Which instance of its pattern a detector reports, and the `detect` step
 * built on that choice, for the two kinds of detector that share it:
 *
 * - `shapeDetector`: a pattern measured at its last bar (a base, a high-tight
 *   flag, a range). A breakout in the last `recentBars` bars wins over a
 *   pattern still forming at `asOf`, because the breakout is what a scan
 *   tracks (DESIGN §4: `forming` → `triggered`); of several breakouts, see
 *   `instanceEnd`.
 * - `eventDetector`: a one-bar event (a new 52-week high, a gap): the latest
 *   event in the last `recentBars` bars.
 *
 * Flags, triangles and the Donchian channel choose their instance by rules
 * of their own (see `flag-geometry.ts`, `triangle-geometry.ts`,
 * `donchian-55.ts`) and build their `detect` by hand.
 *
 * @example
 * const highTightFlag = shapeDetector({ type: 'high_tight_flag', family: 'continuation', direction: 'long', lookback: 67,
 *   recentBars: 5, firstBar: 1, fit, breaksOut, instanceKey, build });
 * highTightFlag.detect({ bars, ind: computeIndicators(bars), asOf }); // => the flag that broke out last, or the one forming, or null
 */
import { checkAsOf } from './common';
import { memoFit, type PatternDetector, type PatternInput, type PatternMatch } from './types';
import type { Direction, PatternFamily, PatternType } from '../../domain/signal';

/** What both specs below give: the detector's own fields (`PatternDetector` less `detect`, one side) and how long an instance stays reported. */
interface DetectorSpec {
  type: PatternType;
  family: PatternFamily;
  direction: Direction;
  /** Bars of history needed before the detector can fire. */
  lookback: number;
  /** Bars after a breakout (or an event) during which it is still reported. */
  recentBars: number;
}

/** The detector `spec` describes, detecting with `detect`. */
function detectorOf(spec: DetectorSpec, detect: (input: PatternInput) => PatternMatch | null): PatternDetector {
  return { type: spec.type, family: spec.family, direction: spec.direction, lookback: spec.lookback, detect };
}

/**
 * The last bar of the instance a detector reports: a breakout in the last
 * `recentBars` bars (from bar `firstBar` on) wins over a pattern still forming
 * at `asOf`. `breakoutKey(input, b)` is, when bar `b` closes beyond the pivot
 * of the pattern ending at `b − 1`, a non-negative key that tells patterns
 * apart (their start bar), else −1. Of several breakouts, the latest whose key
 * differs from the one chosen before it wins, so for one pattern its first
 * breakout; the answer is then that breakout bar − 1, and `asOf` when no bar
 * broke out. Define `breakoutKey` once per detector, not per call.
 */
export function instanceEnd(
  input: PatternInput,
  recentBars: number,
  firstBar: number,
  breakoutKey: (input: PatternInput, b: number) => number,
): number {
  const { asOf } = input;
  let bestEnd = -1, bestKey = -1;
  for (let b = Math.max(firstBar, asOf - recentBars + 1); b <= asOf; b++) {
    const key = breakoutKey(input, b);
    if (key >= 0 && key !== bestKey) {
      bestEnd = b - 1;
      bestKey = key;
    }
  }
  return bestEnd >= 0 ? bestEnd : asOf;
}

/** How a shape pattern is measured, broken and reported; `F` is the detector's own measurement (its "fit"). */
export interface ShapeSpec<F> extends DetectorSpec {
  /** The earliest bar that can break out; with `asOf` before `firstBar − 1` nothing is reported. */
  firstBar: number;
  /**
   * The pattern ending at bar `end`, or null when the bars there are not one
   * (it may hand back one reused scratch object). It must read no bar after
   * `end`: a scan at a later `asOf` reuses it (`FitMemo`).
   */
  fit(input: PatternInput, end: number): F | null;
  /**
   * Optional: false when bar `b` cannot break out of a pattern ending at
   * `b − 1` (a test cheaper than fitting, e.g. no close above the bar before's high).
   */
  mayBreakOut?(input: PatternInput, b: number): boolean;
  /** Whether bar `b` breaks out of `fit`, the pattern ending at `b − 1` (a close beyond its pivot, and whatever else it asks). */
  breaksOut(input: PatternInput, fit: F, b: number): boolean;
  /** What tells one instance from another, non-negative: its start bar, its lip, its pole's top. */
  instanceKey(fit: F): number;
  /** The match of `fit`, the pattern ending at `end`. */
  build(input: PatternInput, fit: F, end: number): PatternMatch;
}

/**
 * A detector for a shape pattern: checks `asOf`, picks the instance's last
 * bar with `instanceEnd` (a bar breaks out when `mayBreakOut`, a fit at the
 * bar before and `breaksOut` all say so, and `instanceKey` tells the
 * instances apart), fits the pattern there and builds its match.
 * @throws RangeError from `detect` when `asOf` is not a bar's index.
 */
export function shapeDetector<F>(spec: ShapeSpec<F>): PatternDetector {
  const { type, firstBar, mayBreakOut, breaksOut, instanceKey, build, fit: measure } = spec;
  // With a memo, each end bar is fitted once per series.
  const fit = (input: PatternInput, end: number): F | null => memoFit(input, spec, end, measure);
  const breakoutKey = (input: PatternInput, b: number): number => {
    if (mayBreakOut && !mayBreakOut(input, b)) return -1;
    const broken = fit(input, b - 1);
    return broken !== null && breaksOut(input, broken, b) ? instanceKey(broken) : -1;
  };
  return detectorOf(spec, (input) => {
    checkAsOf(input, type);
    if (input.asOf < firstBar - 1) return null;
    const end = instanceEnd(input, spec.recentBars, firstBar, breakoutKey);
    const found = fit(input, end);
    return found ? build(input, found, end) : null;
  });
}

/** How a one-bar event is recognised and reported. */
export interface EventSpec extends DetectorSpec {
  /** The earliest bar that can be the event. */
  firstBar: number;
  /** Whether bar `b` is the event. */
  isEvent(input: PatternInput, b: number): boolean;
  /** The match of the event at bar `b`. */
  build(input: PatternInput, b: number): PatternMatch;
}

/**
 * A detector for a one-bar event: checks `asOf` and reports the latest bar
 * among the last `recentBars` (from `firstBar` on) for which `isEvent` holds.
 * @throws RangeError from `detect` when `asOf` is not a bar's index.
 */
export function eventDetector(spec: EventSpec): PatternDetector {
  const { type, recentBars, firstBar, isEvent, build } = spec;
  return detectorOf(spec, (input) => {
    checkAsOf(input, type);
    const { asOf } = input;
    for (let b = asOf; b >= Math.max(firstBar, asOf - recentBars + 1); b--) if (isEvent(input, b)) return build(input, b);
    return null;
  });
}
