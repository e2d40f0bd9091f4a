/**
 * @module kernels/patterns/types
 * One signature for every chart-pattern detector (DESIGN §4 names the types,
 * families and directions). A detector looks at the bars up to `asOf` — never a
 * later bar — and returns the most recent instance of its pattern whose
 * geometry is complete by then, or `null`.
 */
import type { Direction, PatternFamily, PatternType } from '../../domain/signal';
import type { ScanIndicatorSet } from '../indicators/scan-set';
import type { Ohlcv } from '../ohlcv';


export interface PatternInput {
  bars: Ohlcv;
  /** Indicators over the same bars (kernels/indicators: the scan's set, `computeIndicators` or kept incrementally). */
  ind: ScanIndicatorSet;
  /** Index of the bar the scan stands on; bars after it must not be read. */
  asOf: number;
  /** Measurements kept between scans of the same series at successive bars (the replay); see `FitMemo`. */
  memo?: FitMemo;
  /**
   * True: the match's `reasons` is left empty, every other field as without
   * it (a caller that reads the levels and geometry alone: the scan's first
   * look at a match it may drop, the backtest). Default false.
   */
  brief?: boolean;
}

/**
 * What detectors measured on one series, by the bar a measurement ends at: a
 * caller that scans the same bars at successive `asOf`s (the replay, session
 * after session) passes one, so a pattern ending at bar `e` is fitted once,
 * not again at each later bar that looks back at it. A fit reads bars up to
 * its end only (`ShapeSpec.fit`), so it is the same at every later `asOf`;
 * the memo must be dropped when the bars change.
 */
export class FitMemo {
  private readonly byDetector = new Map<object, Map<number, unknown>>();

  /**
   * The fit of `owner` (a detector's own object) ending at bar `end`: kept, or
   * measured now by `measure` and kept as a copy (a fit may be a reused
   * scratch object); `null` is a measured non-pattern.
   */
  fit<F>(owner: object, end: number, measure: () => F | null): F | null {
    const kept = this.kept<F>(owner, end);
    return kept !== undefined ? kept : this.keep(owner, end, measure());
  }

  /** The fit of `owner` kept for bar `end` (`null`: a measured non-pattern), or undefined when none is kept. */
  kept<F>(owner: object, end: number): F | null | undefined {
    // One owner keeps one fit type: what it stored under `end` is an F or null.
    return this.byDetector.get(owner)?.get(end) as F | null | undefined;
  }

  /** Keeps a copy of `found` (a fit may be a reused scratch object) as the fit of `owner` ending at `end`, and returns the copy. */
  keep<F>(owner: object, end: number, found: F | null): F | null {
    let fits = this.byDetector.get(owner);
    if (!fits) this.byDetector.set(owner, (fits = new Map()));
    const kept = found === null ? null : copyFit(found);
    fits.set(end, kept);
    return kept;
  }
}

/**
 * A copy of a fit that shares nothing with it: a fit is a flat record of
 * numbers and typed arrays (the detectors' scratch objects), so its fields
 * are copied and its typed arrays sliced; a nested plain object or array is
 * copied the same way. What `structuredClone` gives for such records, without
 * its serialisation (the replay copies one fit per detector and session).
 */
export function copyFit<F>(fit: F): F {
  if (typeof fit !== 'object' || fit === null) return fit;
  if (ArrayBuffer.isView(fit)) return (fit as unknown as { slice(): F }).slice();
  if (Array.isArray(fit)) return fit.map((item: unknown) => copyFit(item)) as F;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fit)) out[key] = copyFit((fit as Record<string, unknown>)[key]);
  return out as F;
}

/**
 * The fit ending at `end`, through the input's memo when it has one (see
 * `FitMemo`). `measure` is called as `measure(input, end)`: pass a function
 * made once per detector, not a closure per call (this runs for every bar).
 */
export function memoFit<F>(input: PatternInput, owner: object, end: number, measure: (input: PatternInput, end: number) => F | null): F | null {
  const { memo } = input;
  if (!memo) return measure(input, end);
  const kept = memo.kept<F>(owner, end);
  return kept !== undefined ? kept : memo.keep(owner, end, measure(input, end));
}

export interface PatternGeometry {
  /** First and last bar index of the pattern (the base, flag or range), inclusive. */
  start: number;
  end: number;
  /** Depth of the pattern: (highest high − lowest low) / highest high, in percent. */
  depthPct: number;
  /** Bars from start to end, inclusive. */
  lengthBars: number;
  /** Number of successive contractions (VCP pullbacks, triangle touches); 0 where it means nothing. */
  contractions: number;
}

export interface PatternBreakout {
  /** Whether a close beyond the pivot happened in (end, asOf]. */
  triggered: boolean;
  /** Index of the first bar that closed beyond the pivot, or null. */
  barIndex: number | null;
  /** That bar's volume over the 50-bar average volume, or null. */
  volumeRatio: number | null;
}

export interface PatternMatch {
  patternType: PatternType;
  patternFamily: PatternFamily;
  direction: Direction;
  /** The trigger: the price whose crossing is the breakout. */
  pivot: number;
  /** First target, the pattern's measured move from the pivot. */
  target1: number;
  /** Where the setup is wrong (e.g. below the base's low or the handle's low). */
  stopLoss: number;
  geometry: PatternGeometry;
  breakout: PatternBreakout;
  /** Pattern quality 0..1 from the detector's own criteria (tightness, depth, symmetry, volume dry-up). */
  quality: number;
  /** Human-readable reasons with numbers in them: "base depth 12.4% over 7 weeks". */
  reasons: string[];
}

export interface PatternDetector {
  type: PatternType;
  family: PatternFamily;
  /** `either` only for donchian_55, which reports the side it broke. */
  direction: Direction | 'either';
  /** Bars of history needed before the detector can fire. */
  lookback: number;
  detect(input: PatternInput): PatternMatch | null;
}
