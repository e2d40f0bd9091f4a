/**
 * @module providers/synthetic/records
 * What the simulator says it injected, in the words a pattern detector uses
 * (pivot, invalidation, base high and low, trigger), read back from the bars
 * that formed — and how much of that was knowable at a given close.
 *
 * @example
 * visibleAsOf(record, '2026-11-19'); // the record as a detector could have known it that evening
 */
import type { PatternDirection, PatternType } from './patterns';

export type PatternOutcome = 'breakout' | 'failure' | 'pending';

/** What was injected into one symbol's path, read back from the realised bars. */
export interface PatternRecord {
  symbol: string;
  pattern: PatternType;
  direction: PatternDirection;
  /** First session of the steered prior move (advance or pole); equals `start` for triangles. */
  trendStart: string;
  /** First session of the pattern proper (the base's left high, the pole's tip, the first touch of the line); `null` until it has come. */
  start: string | null;
  /** Last session of the pattern before the trigger session; `null` while the pattern is still forming. */
  end: string | null;
  /** Trigger level: the pivot window's highest high (lowest low for shorts). */
  pivot: number | null;
  /** Session whose high (low for shorts) set the pivot. */
  pivotDate: string | null;
  /** A close beyond this level (below it for longs) fails the pattern. */
  invalidation: number | null;
  baseHigh: number | null;
  baseLow: number | null;
  /** (baseHigh − baseLow) / baseHigh over the pattern proper. */
  depth: number | null;
  /** Close at `start` over the close before `trendStart`, minus 1 (the prior advance or pole). */
  priorMove: number | null;
  /** Pullbacks of a volatility contraction pattern; 0 otherwise. */
  contractions: number;
  outcome: PatternOutcome;
  /** Session whose close first crossed the pivot. */
  triggerDate: string | null;
  /** Breakout: the trigger session; failure: the session that closed through the invalidation level. */
  outcomeDate: string | null;
  /** Trigger-session volume over the mean of the 50 sessions before it. */
  triggerVolumeRatio: number | null;
}

/** The record as it stood at the close of `asOf`. */
export function visibleAsOf(record: PatternRecord, asOf: string): PatternRecord {
  const r = { ...record };
  if (r.end === null || r.end > asOf) {
    Object.assign(r, { end: null, pivot: null, pivotDate: null, invalidation: null, baseHigh: null, baseLow: null, depth: null });
    if (r.start === null || r.start > asOf) Object.assign(r, { start: null, priorMove: null });
  }
  if (r.triggerDate !== null && r.triggerDate > asOf) Object.assign(r, { triggerDate: null, triggerVolumeRatio: null });
  if (r.outcomeDate === null || r.outcomeDate > asOf) Object.assign(r, { outcome: 'pending', outcomeDate: null });
  return r;
}
