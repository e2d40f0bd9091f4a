/**
 * @module kernels/patterns/common
 * Pieces every detector shares: finding the breakout bar after a pattern,
 * volume against its average, extremes over a bar range, and the reason
 * sentences' number formats. Pure, no allocation beyond the returned objects.
 */
import type { Direction, PatternBreakout, PatternInput } from './types';

/** Percent change from `from` to `to`. */
export function pctChange(from: number, to: number): number {
  return (100 * (to - from)) / from;
}

/** Index of the highest high in [start, end] (inclusive; first on ties). */
export function argMaxHigh(high: Float64Array, start: number, end: number): number {
  let best = start;
  for (let i = start + 1; i <= end; i++) if (high[i]! > high[best]!) best = i;
  return best;
}

/** Index of the lowest low in [start, end] (inclusive; first on ties). */
export function argMinLow(low: Float64Array, start: number, end: number): number {
  let best = start;
  for (let i = start + 1; i <= end; i++) if (low[i]! < low[best]!) best = i;
  return best;
}

/** Volume of bar `i` over its 50-bar average (the average as of the bar before), or null without history. */
export function volumeRatio(input: PatternInput, i: number): number | null {
  const avg = i > 0 ? input.ind.avgVolume50[i - 1]! : NaN;
  if (!(avg > 0)) return null;
  return input.bars.volume[i]! / avg;
}

/**
 * The first close beyond `pivot` in (end, asOf]: above it for a long, below it
 * for a short. A pattern whose breakout bar is `end + 1 .. asOf` is triggered.
 */
export function findBreakout(input: PatternInput, end: number, pivot: number, direction: Direction): PatternBreakout {
  const { close } = input.bars;
  for (let i = end + 1; i <= input.asOf; i++) {
    const beyond = direction === 'long' ? close[i]! > pivot : close[i]! < pivot;
    if (beyond) return { triggered: true, barIndex: i, volumeRatio: volumeRatio(input, i) };
  }
  return { triggered: false, barIndex: null, volumeRatio: null };
}

/** "7 weeks" from a bar count on daily bars (5 bars a week), for reasons. */
export function weeksText(bars: number): string {
  const weeks = Math.round(bars / 5);
  return `${weeks} week${weeks === 1 ? '' : 's'}`;
}

/** A number with one decimal, for reasons ("12.4%"). */
export const fmt1 = (x: number) => (Math.round(x * 10) / 10).toFixed(1);
/** A price with two decimals. */
export const fmtPrice = (x: number) => x.toFixed(2);

/** Clamps to [0, 1]. */
export const unit = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);
