/**
 * @module kernels/patterns/triangle-geometry
 * The right-angled triangle that `ascending_triangle` and `descending_triangle`
 * share: a flat side touched again and again at nearly one price, a sloping
 * side of rising lows (falling highs) squeezing price into it, and a breakout
 * by a close through the flat side.
 *
 * Definition: Thomas N. Bulkowski, "Encyclopedia of Chart Patterns", 2nd ed.
 * (Wiley, 2005), chapters "Triangles, Ascending" and "Triangles, Descending",
 * identification guidelines: a horizontal trendline along "at least two minor
 * highs" (lows) "at or near the same price", an up-sloping (down-sloping)
 * trendline along at least two minor lows (highs), price crossing the pattern
 * from side to side, volume trending down; the breakout is a close beyond the
 * horizontal line, and the measure rule adds the pattern's height (highest
 * high − lowest low) to the breakout price (subtracts it, going down).
 *
 * How a triangle ending at bar `e` is found (ascending side; the descending
 * side is the same walk on negated prices):
 * - a minor high (low) is a bar whose high (low) beats the `swingBars` bars
 *   before it and is not beaten by the `swingBars` bars after it, all at or
 *   before `e` (a swing is known only once those bars have traded);
 * - walking back from `e`, minor highs within `flatTolAtr` ATRs (ATR 14 at
 *   `e`) of the highest one are touches of the flat side; the walk stops at a
 *   higher earlier peak (the level was not resistance there), at a minor low
 *   that stands more than the tolerance above a later one (the lows were not
 *   rising there), or `maxBars` back;
 * - the triangle runs from its earliest touch to `e`: at least `minTouches`
 *   touches, a minor low after at least `minLows` of them (price crosses
 *   from side to side: touch, low, touch, low), `minBars..maxBars` bars, the
 *   latest minor low at least `minLowRise` of the height above the lowest low,
 *   and a height of at least `minHeightAtr` ATRs; no close since the latest
 *   minor low may lie under it (that breaks the sloping side), and none in
 *   the triangle above the flat side (that was the breakout);
 * - pivot = the highest touch; stop = the latest minor low (the last higher
 *   low); target1 = pivot + height.
 *
 * Which instance: a breakout in the last `recentBars` bars (the triangle then
 * ends the bar before it) wins over a triangle still forming at `asOf`; of
 * several, the latest.
 *
 * Cost: at most `recentBars + 1` walks of `maxBars` bars with `2 × swingBars`
 * comparisons a bar; the minor lows go in a scratch buffer the detector
 * allocates once.
 */
import { checkAsOf, checkCounts, findBreakout, fmt1, fmtPrice, lateVolumeRatio, measuredMoveText, pctChange, pivotText, unit, volumeComparisonText } from './common';
import { memoFit, type PatternDetector, type PatternInput, type PatternMatch } from './types';
import type { Direction, PatternType } from '../../domain/signal';

export interface TriangleOptions {
  /** Bars on each side that a minor high or low must beat (3 on daily bars). */
  swingBars: number;
  /** Fewest and most bars from the first touch to the end (15..120 ≈ 3 weeks to 6 months daily). */
  minBars: number;
  maxBars: number;
  /** Touches of the flat side must lie within this many ATRs of each other. */
  flatTolAtr: number;
  /** Fewest touches of the flat side, and fewest touches followed by a minor low (high) on the sloping side. */
  minTouches: number;
  minLows: number;
  /** The latest minor low must stand this fraction of the height above the lowest low. */
  minLowRise: number;
  /** Smallest height in ATRs. */
  minHeightAtr: number;
  /** Bars after a breakout during which the pattern is still reported as triggered. */
  recentBars: number;
}

/** Daily-bar defaults (Bulkowski: two or more touches a side; triangles last weeks to months). */
export const TRIANGLE_DEFAULTS: Readonly<TriangleOptions> = Object.freeze({
  swingBars: 3,
  minBars: 15,
  maxBars: 120,
  flatTolAtr: 0.6,
  minTouches: 2,
  minLows: 2,
  minLowRise: 0.25,
  minHeightAtr: 2,
  recentBars: 5,
});

/** A measured triangle in signed price space (× +1 ascending, × −1 descending). */
interface TriangleFit {
  start: number;
  /** Highest touch (signed): the pivot. */
  top: number;
  /** Lowest touch (signed). */
  minTouch: number;
  touches: number;
  /** Minor lows inside the triangle: `lowIndex[0]` is the latest, `lowIndex[lows − 1]` the earliest. */
  lows: number;
  lowIndex: Int32Array;
  lowest: number;
  height: number;
}

function checkOptions(o: TriangleOptions): void {
  checkCounts('triangle', [o.swingBars, o.minBars, o.maxBars, o.minTouches, o.minLows, o.recentBars]);
  if (o.minBars > o.maxBars || o.minTouches < 2 || o.minLows < 2) throw new RangeError('triangle: need minBars ≤ maxBars and ≥ 2 touches and lows');
  if (!(o.flatTolAtr > 0 && o.minLowRise >= 0 && o.minLowRise < 1 && o.minHeightAtr >= 0)) throw new RangeError('triangle: bad tolerance');
}

/**
 * Measures the triangle ending at `e`: `flat` holds the flat side's prices
 * (highs ascending, lows descending), `slope` the other side's, `sign` maps
 * both into a space where the flat side is on top.
 */
function fitTriangle(input: PatternInput, e: number, sign: 1 | -1, o: TriangleOptions, out: TriangleFit): TriangleFit | null {
  const flat = sign === 1 ? input.bars.high : input.bars.low;
  const slope = sign === 1 ? input.bars.low : input.bars.high;
  const atr = input.ind.atr14[e]!;
  if (!(atr > 0)) return null;
  const tol = o.flatTolAtr * atr;
  const k = o.swingBars;
  const lo = Math.max(k, e - o.maxBars + 1);
  const lowsBuffer = out.lowIndex;
  let top = NaN, minTouch = NaN, touches = 0, start = -1;
  let lowsSeen = 0, lowsIn = 0, minLaterLow = Infinity;
  // price must cross the pattern: a minor low after each touch (T1 L1 T2 L2 …), counted per gap between touches
  let lowInGap = false, gapsWithLow = 0, gapsIn = 0;
  for (let i = e - k; i >= lo; i--) {
    const right = i + k;
    // minor low on the sloping side
    const s = sign * slope[i]!;
    let isLow = true;
    for (let j = i - k; j < i && isLow; j++) if (sign * slope[j]! <= s) isLow = false;
    for (let j = i + 1; j <= right && isLow; j++) if (sign * slope[j]! < s) isLow = false;
    if (isLow) {
      if (s > minLaterLow + tol) break; // an earlier low clearly above a later one: not rising here
      lowsBuffer[lowsSeen++] = i;
      lowInGap = true;
      if (s < minLaterLow) minLaterLow = s;
    }
    // minor high on the flat side
    const f = sign * flat[i]!;
    let isHigh = true;
    for (let j = i - k; j < i && isHigh; j++) if (sign * flat[j]! >= f) isHigh = false;
    for (let j = i + 1; j <= right && isHigh; j++) if (sign * flat[j]! > f) isHigh = false;
    if (!isHigh) continue;
    if (touches > 0 && Math.max(top, f) - Math.min(minTouch, f) <= tol) {
      // inside the flat band: one more touch
      if (lowInGap) gapsWithLow++;
      lowInGap = false;
      top = Math.max(top, f); minTouch = Math.min(minTouch, f); touches++; start = i; lowsIn = lowsSeen; gapsIn = gapsWithLow;
    } else if (touches === 0 || f > top) {
      // the first minor high, or a higher one before it: a triangle under that peak starts here
      if (touches >= 2) break; // the touches' level was not resistance before this peak
      gapsWithLow = lowsSeen > 0 ? 1 : 0;
      lowInGap = false;
      top = f; minTouch = f; touches = 1; start = i; lowsIn = lowsSeen; gapsIn = gapsWithLow;
    } // else a lower high inside the triangle
  }
  if (touches < o.minTouches || gapsIn < o.minLows || e - start + 1 < o.minBars) return null;
  let lowest = Infinity;
  for (let i = start; i <= e; i++) if (sign * slope[i]! < lowest) lowest = sign * slope[i]!;
  const height = top - lowest;
  const latestLow = sign * slope[lowsBuffer[0]!]!;
  if (height < o.minHeightAtr * atr || latestLow - lowest < o.minLowRise * height) return null;
  // a close under the last higher low broke the sloping side: the triangle failed
  for (let i = lowsBuffer[0]! + 1; i <= e; i++) if (sign * input.bars.close[i]! < latestLow) return null;
  // a close over the flat side (or a bar far through it, still too recent to be a minor high) already broke out
  for (let i = start; i <= e; i++) if (sign * input.bars.close[i]! > top || sign * flat[i]! > top + tol) return null;
  out.start = start;
  out.top = top;
  out.minTouch = minTouch;
  out.touches = touches;
  out.lows = lowsIn;
  out.lowest = lowest;
  out.height = height;
  return out;
}

function buildMatch(input: PatternInput, type: PatternType, direction: Direction, o: TriangleOptions, fit: TriangleFit, end: number): PatternMatch {
  const sign = direction === 'long' ? 1 : -1;
  const slope = sign === 1 ? input.bars.low : input.bars.high;
  const pivot = sign * fit.top;
  const target1 = pivot + sign * fit.height;
  const latestLowIdx = fit.lowIndex[0]!;
  const earliestLowIdx = fit.lowIndex[fit.lows - 1]!;
  const stopLoss = slope[latestLowIdx]!;
  const firstLow = slope[earliestLowIdx]!;
  const upper = sign === 1 ? pivot : pivot + fit.height;
  const depthPct = (100 * fit.height) / upper;
  const lengthBars = end - fit.start + 1;
  const third = Math.max(1, Math.floor(lengthBars / 3));
  const volumeTrend = lateVolumeRatio(input.bars.volume, fit.start, end, third);
  const tol = o.flatTolAtr * input.ind.atr14[end]!;
  const rise = (sign * stopLoss - fit.lowest) / fit.height;
  const breakout = findBreakout(input, end, pivot, direction);
  const quality = unit(
    0.3 * unit((fit.touches - 1) / 3) +
      0.2 * unit(1 - (fit.top - fit.minTouch) / tol) +
      0.25 * unit(rise / 0.6) +
      0.25 * (Number.isFinite(volumeTrend) ? unit((1.3 - volumeTrend) / 0.6) : 0.5),
  );
  const side = direction === 'long' ? 'resistance' : 'support';
  const lows = direction === 'long' ? 'rising lows' : 'falling highs';
  const change = pctChange(firstLow, stopLoss);
  // not fmtSigned: a change that rounds to zero keeps its sign here ("−0.0")
  // the sentences only when asked for (`PatternInput.brief`: a caller that reads the levels alone)
  const reasons = input.brief
    ? []
    : [
        `${fit.touches} touches of ${fmtPrice(pivot)} ${side} (spread ${fmtPrice(fit.top - fit.minTouch)})`,
        `${fit.lows} ${lows}, ${fmtPrice(firstLow)} → ${fmtPrice(stopLoss)} (${change < 0 ? '−' : '+'}${fmt1(Math.abs(change))}%)`,
        `triangle ${lengthBars} bars, ${fmt1(depthPct)}% tall`,
        volumeComparisonText(volumeTrend, 'volume in the last third', "the first third's"),
        pivotText(breakout, pivot, direction, 'bar', `the ${side}`, side),
        measuredMoveText('height', fit.height, target1),
      ];
  return {
    patternType: type,
    patternFamily: 'continuation',
    direction,
    pivot,
    target1,
    stopLoss,
    geometry: { start: fit.start, end, depthPct, lengthBars, contractions: fit.touches },
    breakout,
    quality,
    reasons,
  };
}

/**
 * A right-angled triangle detector: `'long'` finds ascending triangles (flat
 * top), `'short'` descending ones (flat bottom).
 * @throws RangeError for options that cannot describe a triangle.
 */
export function triangleDetector(type: PatternType, direction: Direction, options: Partial<TriangleOptions> = {}): PatternDetector {
  const o: TriangleOptions = { ...TRIANGLE_DEFAULTS, ...options };
  checkOptions(o);
  const sign = direction === 'long' ? 1 : -1;
  const scratch: TriangleFit = { start: 0, top: 0, minTouch: 0, touches: 0, lows: 0, lowIndex: new Int32Array(o.maxBars), lowest: 0, height: 0 };
  const measure = (input: PatternInput, e: number) => fitTriangle(input, e, sign, o, scratch);
  return {
    type,
    family: 'continuation',
    direction,
    lookback: o.maxBars + o.swingBars + o.recentBars,
    detect(input) {
      checkAsOf(input, type);
      const { asOf } = input;
      const close = input.bars.close;
      // a fit reads bars up to its end only: a memo (the replay) keeps it for later bars
      const fitAt = (e: number) => memoFit(input, scratch, e, measure);
      // breakouts first, latest first; a triangle cannot break twice, since a close beyond its flat side ends it
      for (let b = asOf; b >= Math.max(1, asOf - o.recentBars + 1); b--) {
        const fit = fitAt(b - 1);
        if (fit && sign * close[b]! > fit.top) return buildMatch(input, type, direction, o, fit, b - 1);
      }
      const forming = fitAt(asOf);
      return forming ? buildMatch(input, type, direction, o, forming, asOf) : null;
    },
  };
}
