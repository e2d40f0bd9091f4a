/**
 * @module kernels/patterns/common
 * Pieces every detector shares: checking `asOf`, finding the breakout bar
 * after a pattern, volume against its average, extremes over a bar range, the
 * base detectors' prior advance, capped stop and depth score, and the reason
 * sentences' number formats and recurring phrases. Pure, no allocation beyond
 * the returned objects and strings. Which instance a detector reports is
 * `instance.ts`.
 */
import type { PatternBreakout, PatternInput } from './types';
import type { Direction, PatternType } from '../../domain/signal';

/** Throws a RangeError naming `type` when `input.asOf` is not the index of one of `input.bars`. */
export function checkAsOf(input: PatternInput, type: PatternType): void {
  const { asOf } = input;
  if (!Number.isInteger(asOf) || asOf < 0 || asOf >= input.bars.close.length) throw new RangeError(`${type}: asOf ${asOf} outside the bars`);
}

/**
 * Throws a RangeError "`who`: `what` must be positive integers" unless every
 * one of `counts` (a detector's bar-count options) is a whole number ≥ 1.
 */
export function checkCounts(who: string, counts: readonly number[], what = 'bar counts'): void {
  if (!counts.every((n) => Number.isInteger(n) && n >= 1)) throw new RangeError(`${who}: ${what} must be positive integers`);
}

/**
 * Whether bar `b` closes above the high of the bar before it: a test cheaper
 * than a fit that every long breakout passes when its pivot is at least the
 * pattern's last high.
 */
export function closesAbovePriorHigh(input: PatternInput, b: number): boolean {
  return input.bars.close[b]! > input.bars.high[b - 1]!;
}

/** Percent change from `from` to `to`. */
export function pctChange(from: number, to: number): number {
  return (100 * (to - from)) / from;
}

/** How far `x` lies below `top`, in percent of `top` (a depth, a pullback). */
export function pctBelow(top: number, x: number): number {
  return (100 * (top - x)) / top;
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

/** Whether bar `i`'s high tops the highs of the `bars` bars before it (strictly; false when there are fewer bars before it). */
export function topsPriorBars(high: Float64Array, i: number, bars: number): boolean {
  return i >= bars && argMaxHigh(high, i - bars, i) === i;
}

/**
 * The lowest low of the `priorBars` bars before a base's start (fewer at the
 * series' start) when the start's high stands at least `minAdvancePct` above
 * it, else null (no advance into the base, or no bar before it). O'Neil's
 * bases all follow a prior uptrend ("How to Make Money in Stocks", ch. 2).
 */
export function priorAdvanceLow(input: PatternInput, start: number, priorBars: number, minAdvancePct: number): number | null {
  const { high, low } = input.bars;
  const from = Math.max(0, start - priorBars);
  if (from >= start) return null;
  const priorLow = low[argMinLow(low, from, start - 1)]!;
  return high[start]! < priorLow * (1 + minAdvancePct / 100) ? null : priorLow;
}

/** Mean volume over bars [from, to] (inclusive; NaN when empty). */
export function meanVolume(volume: Float64Array, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i <= to; i++) sum += volume[i]!;
  return sum / (to - from + 1);
}

/** Volume of bar `i` over its 50-bar average (the average as of the bar before), or null without history. */
export function volumeRatio(input: PatternInput, i: number): number | null {
  const avg = i > 0 ? input.ind.avgVolume50[i - 1]! : NaN;
  if (!(avg > 0)) return null;
  return input.bars.volume[i]! / avg;
}

/**
 * Mean volume over [from, to] over the 50-bar average volume as of the bar
 * before `before` (the volume a pattern had before it formed), or NaN without
 * that average.
 */
export function meanVolumeRatio(input: PatternInput, before: number, from: number, to: number): number {
  const avg = before > 0 ? input.ind.avgVolume50[before - 1]! : NaN;
  return avg > 0 ? meanVolume(input.bars.volume, from, to) / avg : NaN;
}

/**
 * Mean volume of the last `bars` bars of [start, end] over that of its first
 * `bars` bars: below 1 when volume dries up as a pattern forms (NaN or ±∞
 * when a side has no bars or no volume).
 */
export function lateVolumeRatio(volume: Float64Array, start: number, end: number, bars: number): number {
  return meanVolume(volume, end - bars + 1, end) / meanVolume(volume, start, start + bars - 1);
}

/**
 * Mean volume of a flag, the bars after its pole's top `top` to `end`, over
 * that of its pole, the bars after `poleStart` to `top`: below 1 when volume
 * dries up in the flag (Bulkowski, "Encyclopedia of Chart Patterns", chapter
 * "Flags": a downward volume trend in 71% of flags). NaN or ±∞ without bars
 * or volume on a side.
 */
export function flagVolumeRatio(volume: Float64Array, poleStart: number, top: number, end: number): number {
  return meanVolume(volume, top + 1, end) / meanVolume(volume, poleStart + 1, top);
}

/** Where bar `i` closed in its range: 0 at the low, 1 at the high (1 for a bar with no range). */
export function closeLocation(input: PatternInput, i: number): number {
  const { high, low, close } = input.bars;
  const range = high[i]! - low[i]!;
  return range > 0 ? (close[i]! - low[i]!) / range : 1;
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

/**
 * A long stop at the pattern's own low (`low`), but never more than
 * `maxStopPct` below the pivot: O'Neil's rule to cut every loss at 7–8% below
 * the buy point ("How to Make Money in Stocks", the chapter on cutting losses).
 */
export function cappedStop(low: number, pivot: number, maxStopPct: number): number {
  return Math.max(low, pivot * (1 - maxStopPct / 100));
}

/**
 * Score 0.2..1 of a base's depth (O'Neil's cup and double-bottom rules): 1
 * from 15% to `idealMaxDepthPct`, 0.8 shallower, then falling to 0.2 at
 * `maxDepthPct`.
 */
export function baseDepthScore(depthPct: number, idealMaxDepthPct: number, maxDepthPct: number): number {
  return depthPct <= idealMaxDepthPct
    ? (depthPct >= 15 ? 1 : 0.8)
    : 0.8 - (0.6 * (depthPct - idealMaxDepthPct)) / (maxDepthPct - idealMaxDepthPct || 1);
}

/** "7 weeks" from a bar count on daily bars (5 bars a week), for reasons. */
export function weeksText(bars: number): string {
  const weeks = Math.round(bars / 5);
  return `${weeks} week${weeks === 1 ? '' : 's'}`;
}

/** A number with one decimal, for reasons ("12.4%"). */
export const fmt1 = (x: number) => (Math.round(x * 10) / 10).toFixed(1);
/** A number with one decimal and its sign, for reasons ("+5.2", "−0.3"; "+0.0" when it rounds to zero). */
export function fmtSigned(x: number): string {
  const size = fmt1(Math.abs(x));
  return (x < 0 && size !== '0.0' ? '−' : '+') + size;
}
/** A price with two decimals. */
export const fmtPrice = (x: number) => x.toFixed(2);

/** " on volume 1.8× the 50-day average" for a breakout with a volume ratio, else "" (`period` names the bars). */
export function onVolumeText(volumeRatio: number | null, period: 'day' | 'bar'): string {
  return volumeRatio === null ? '' : ` on volume ${fmt1(volumeRatio)}× the 50-${period} average`;
}

/**
 * The reason naming the pivot: "closed above the handle high 52.30 on volume
 * 1.8× the 50-day average" once the pattern triggered, else "pivot 52.30 at
 * the handle high". `level` names what the pivot is, with its article;
 * `brokenLevel` names it in the triggered sentence where that reads
 * differently ("closed above the pivot", "closed below support").
 */
export function pivotText(breakout: PatternBreakout, pivot: number, direction: Direction, period: 'day' | 'bar', level: string, brokenLevel = level): string {
  return breakout.triggered
    ? `closed ${direction === 'long' ? 'above' : 'below'} ${brokenLevel} ${fmtPrice(pivot)}${onVolumeText(breakout.volumeRatio, period)}`
    : `pivot ${fmtPrice(pivot)} at ${level}`;
}

/** "flag volume 0.6× the pole's" from a finite `ratio` of `what` to `reference`, else "no volume to compare". */
export function volumeComparisonText(ratio: number, what: string, reference: string): string {
  return Number.isFinite(ratio) ? `${what} ${fmt1(ratio)}× ${reference}` : 'no volume to compare';
}

/** "measured move: pole 8.20 from the pivot → 61.40": the pattern's `height` (named `what`) added to the pivot gives `target1`. */
export function measuredMoveText(what: string, height: number, target1: number): string {
  return `measured move: ${what} ${fmtPrice(height)} from the pivot → ${fmtPrice(target1)}`;
}

/** " (deeper than O'Neil's 33%: …)" for a base deeper than `idealMaxDepthPct`, else "". */
export function deepBaseNote(depthPct: number, idealMaxDepthPct: number): string {
  return depthPct > idealMaxDepthPct ? ` (deeper than O'Neil's ${fmt1(idealMaxDepthPct)}%: only sound after a bear market)` : '';
}

/**
 * "stop 92.00: 8.0% below the pivot (O'Neil's loss limit)" when `cappedStop`
 * capped it, else "stop 93.10: <lowText>" naming the pattern's low.
 */
export function cappedStopText(stopLoss: number, low: number, maxStopPct: number, lowText: string, limitText = "O'Neil's loss limit"): string {
  return `stop ${fmtPrice(stopLoss)}: ${stopLoss > low ? `${fmt1(maxStopPct)}% below the pivot (${limitText})` : lowText}`;
}

/** A base's measured-move reason: the base's depth in price added to the pivot, and O'Neil's +20–25% profit-taking zone. */
export function baseMeasuredMoveText(pivot: number, baseDepth: number, target1: number): string {
  return `${measuredMoveText('base depth', baseDepth, target1)}; O'Neil takes profits at +20–25% (${fmtPrice(pivot * 1.2)}–${fmtPrice(pivot * 1.25)})`;
}

/** Clamps to [0, 1]. */
export const unit = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);
