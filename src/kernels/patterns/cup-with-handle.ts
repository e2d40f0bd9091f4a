/**
 * @module kernels/patterns/cup-with-handle
 * `cup_with_handle` (base, long): after an advance of 30% or more, a rounded,
 * 12–33% deep correction of 7 to 65 weeks (the cup), then a short pullback
 * that drifts down in the cup's upper half on drying volume (the handle); it
 * triggers on the first close above the handle's high.
 *
 * Definition: William J. O'Neil, "How to Make Money in Stocks", 4th ed.
 * (McGraw-Hill, 2009), chapter 2, the cup-with-handle pattern: a prior uptrend
 * of at least 30%; a cup of 7 to 65 weeks correcting about 12–15% up to 33%
 * from its peak (up to ~50% in a bear market, accepted here with less
 * quality); a U shape, not a V, because the time spent at the bottom is what
 * shakes out weak holders; a handle of at least one to two weeks that forms
 * in the upper half of the base, drifts down (a handle wedging up along its
 * lows is a fault), corrects 8–12% (up to ~15%) on drying volume; the buy
 * point is the handle's high (O'Neil adds 10 cents). MarketSmith / IBD base
 * rules agree: cup at least 7 weeks, handle at least 5 days, in the upper half.
 * Stop: the handle's low, never more than O'Neil's 7–8% below the buy point
 * (the book's chapter on cutting losses). Target: the measured move, pivot +
 * the base's depth in price; O'Neil's rule of taking most profits at +20–25%
 * is given in the reasons.
 *
 * Geometry for a cup-with-handle ending at bar `e` (parameters in bars; the
 * defaults are daily bars):
 * - the left lip `l` is a bar whose high no later close has exceeded and that
 *   is the highest high of the `peakBars` bars before it; candidates are tried
 *   from the latest back, and the walk stops once the range from `l` to `e`
 *   is deeper than `maxDepthPct` (the range only widens going back);
 * - the cup bottom `b` is the lowest low of [l, e]; the right rim `r` (the
 *   handle's start) is the highest high of [b, e]; the cup is [l, r], the
 *   handle [r, e];
 * - the cup is `minCupBars..maxCupBars` long and `minDepthPct..maxDepthPct`
 *   deep from the lip; the rim is at most `maxRimBelowLipPct` below the lip;
 *   from its first to its last close in the bottom third the cup spends at
 *   least `minBottomSpan` of its length (a straight-line V spends a third there,
 *   a bowl over half; the crash-and-rebound Vs of spring 2020 measure
 *   0.14–0.28: ASML, ANET, AMGN);
 * - the handle is `minHandleBars..maxHandleBars` long, at most
 *   `maxHandleDepthPct` deep, its low above the cup's midpoint, and the
 *   least-squares slope of its lows is not rising (it drifts down or sideways);
 * - the lip's high is at least `minPriorAdvancePct` above the lowest low of
 *   the `priorBars` bars before it.
 *
 * Which instance: a breakout in the last `recentBars` bars wins over a pattern
 * still forming at `asOf`; of several, the latest breakout of a cup with a
 * different lip, and for one lip its first breakout. Cost: at most
 * `recentBars + 1` walks of `maxCupBars + maxHandleBars` bars, with a few
 * O(cup) checks per candidate lip; nothing is allocated until a match is built.
 *
 * @example
 * const match = cupWithHandle.detect({ bars, ind: computeIndicators(bars), asOf: bars.close.length - 1 });
 * match?.reasons[1]; // => "handle 2 weeks, 6.1% deep, in the upper half of the cup (low at 66.7% of the cup's height)"
 */
import {
  argMaxHigh,
  argMinLow,
  baseDepthScore,
  baseMeasuredMoveText,
  cappedStop,
  cappedStopText,
  checkCounts,
  closesAbovePriorHigh,
  deepBaseNote,
  findBreakout,
  fmt1,
  fmtPrice,
  meanVolumeRatio,
  pctBelow,
  pctChange,
  pivotText,
  priorAdvanceLow,
  topsPriorBars,
  unit,
  weeksText,
} from './common';
import { shapeDetector } from './instance';
import type { PatternDetector, PatternInput, PatternMatch } from './types';

export interface CupWithHandleOptions {
  /** Fewest and most bars in the cup, lip to rim (35..325 = O'Neil's 7 to 65 weeks). */
  minCupBars: number;
  maxCupBars: number;
  /** Shallowest and deepest cup, percent below the lip (O'Neil: 12–33%, ~50% in bear markets). */
  minDepthPct: number;
  maxDepthPct: number;
  /** Deepest cup that scores as textbook, percent; deeper cups are accepted with less quality. */
  idealMaxDepthPct: number;
  /** Lowest the right rim may stand below the lip, percent. */
  maxRimBelowLipPct: number;
  /**
   * Least share of the cup's length between its first and last close in the
   * bottom third (U, not V: a straight-line V spends exactly a third there).
   */
  minBottomSpan: number;
  /** Fewest and most bars in the handle (5..25 = one to five weeks). */
  minHandleBars: number;
  maxHandleBars: number;
  /** Deepest handle, percent below its high (O'Neil: 8–12%, up to ~15%). */
  maxHandleDepthPct: number;
  /** Bars before the lip that it must top (10 = two weeks): the lip is a peak. */
  peakBars: number;
  /** Bars before the lip searched for the prior advance (126 ≈ 6 months). */
  priorBars: number;
  /** Smallest prior advance into the lip, percent (O'Neil: 30%). */
  minPriorAdvancePct: number;
  /** Widest stop below the pivot, percent (O'Neil's 7–8% rule). */
  maxStopPct: number;
  /** Bars after a breakout during which the pattern is still reported, triggered. */
  recentBars: number;
}

/** Daily-bar defaults from O'Neil's definition above. */
export const CUP_WITH_HANDLE_DEFAULTS: Readonly<CupWithHandleOptions> = Object.freeze({
  minCupBars: 35,
  maxCupBars: 325,
  minDepthPct: 12,
  maxDepthPct: 50,
  idealMaxDepthPct: 33,
  maxRimBelowLipPct: 15,
  minBottomSpan: 0.4,
  minHandleBars: 5,
  maxHandleBars: 25,
  maxHandleDepthPct: 15,
  peakBars: 10,
  priorBars: 126,
  minPriorAdvancePct: 30,
  maxStopPct: 8,
  recentBars: 5,
});

interface CupFit {
  lip: number;
  bottom: number;
  rim: number;
  handleLow: number;
  bottomSpan: number;
  priorLow: number;
}

function checkOptions(o: CupWithHandleOptions): void {
  checkCounts('cup_with_handle', [o.minCupBars, o.maxCupBars, o.minHandleBars, o.maxHandleBars, o.peakBars, o.priorBars, o.recentBars]);
  if (o.minCupBars < 3 || o.minCupBars > o.maxCupBars || o.minHandleBars < 2 || o.minHandleBars > o.maxHandleBars) {
    throw new RangeError('cup_with_handle: need 3 ≤ minCupBars ≤ maxCupBars and 2 ≤ minHandleBars ≤ maxHandleBars');
  }
  if (!(o.minDepthPct > 0 && o.minDepthPct <= o.idealMaxDepthPct && o.idealMaxDepthPct <= o.maxDepthPct && o.maxDepthPct < 100)) {
    throw new RangeError('cup_with_handle: need 0 < minDepthPct ≤ idealMaxDepthPct ≤ maxDepthPct < 100');
  }
  if (!(o.maxHandleDepthPct > 0 && o.maxRimBelowLipPct >= 0 && o.minBottomSpan >= 0 && o.minBottomSpan < 1)) {
    throw new RangeError('cup_with_handle: need maxHandleDepthPct > 0, maxRimBelowLipPct ≥ 0, 0 ≤ minBottomSpan < 1');
  }
  if (!(o.minPriorAdvancePct >= 0 && o.maxStopPct > 0 && o.maxStopPct < 100)) throw new RangeError('cup_with_handle: need minPriorAdvancePct ≥ 0 and 0 < maxStopPct < 100');
}

/** Checks the cup with lip `l` and bottom `b` and a handle ending at `e`; fills `out` when it is one. */
function tryCup(input: PatternInput, l: number, b: number, e: number, o: CupWithHandleOptions, out: CupFit): boolean {
  const { high, low, close } = input.bars;
  const lip = high[l]!;
  const bottom = low[b]!;
  if (lip - bottom < lip * (o.minDepthPct / 100) || b - l < 2) return false;
  const r = argMaxHigh(high, b, e);
  const handleBars = e - r + 1;
  const cupBars = r - l + 1;
  if (handleBars < o.minHandleBars || handleBars > o.maxHandleBars || cupBars < o.minCupBars || cupBars > o.maxCupBars) return false;
  const rim = high[r]!;
  if (rim < lip * (1 - o.maxRimBelowLipPct / 100) || r - b < 2) return false;
  const hl = argMinLow(low, r, e);
  if (low[hl]! < rim * (1 - o.maxHandleDepthPct / 100) || low[hl]! < (lip + bottom) / 2) return false;
  // the handle drifts down or sideways: least-squares slope of its lows is not positive
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let i = r; i <= e; i++) {
    const x = i - r;
    sx += x; sy += low[i]!; sxx += x * x; sxy += x * low[i]!;
  }
  if (handleBars * sxy - sx * sy > 0) return false;
  // U, not V: the span from the first to the last close in the cup's bottom third
  const third = bottom + (lip - bottom) / 3;
  let first = -1, lastIn = -1;
  for (let i = l; i <= r; i++) {
    if (close[i]! > third) continue;
    if (first < 0) first = i;
    lastIn = i;
  }
  const bottomSpan = first < 0 ? 0 : (lastIn - first + 1) / cupBars;
  if (bottomSpan < o.minBottomSpan) return false;
  const priorLow = priorAdvanceLow(input, l, o.priorBars, o.minPriorAdvancePct);
  if (priorLow === null) return false;
  out.lip = l;
  out.bottom = b;
  out.rim = r;
  out.handleLow = hl;
  out.bottomSpan = bottomSpan;
  out.priorLow = priorLow;
  return true;
}

/** The latest cup-with-handle ending at `e`, or null. `out` is reused. */
function fitCup(input: PatternInput, e: number, o: CupWithHandleOptions, out: CupFit): CupFit | null {
  const { high, low, close } = input.bars;
  const floor = 1 - o.maxDepthPct / 100;
  let top = -Infinity, bottom = Infinity, b = e, closeAfter = -Infinity;
  const last = Math.max(0, e - o.maxCupBars - o.maxHandleBars + 2);
  for (let j = e; j >= last; j--) {
    if (high[j]! > top) top = high[j]!;
    if (low[j]! < bottom) {
      bottom = low[j]!;
      b = j;
    }
    if (bottom < top * floor) break;
    const unbroken = high[j]! >= closeAfter; // no later close has exceeded this high
    if (close[j]! > closeAfter) closeAfter = close[j]!;
    if (!unbroken || e - j + 1 < o.minCupBars + o.minHandleBars - 1 || !topsPriorBars(high, j, o.peakBars)) continue;
    if (tryCup(input, j, b, e, o, out)) return out;
  }
  return null;
}

function buildMatch(input: PatternInput, o: CupWithHandleOptions, fit: CupFit, end: number): PatternMatch {
  const { high, low } = input.bars;
  const { lip: l, bottom: b, rim: r, handleLow: hl } = fit;
  const lipHigh = high[l]!, bottomLow = low[b]!, pivot = high[r]!, handleLow = low[hl]!;
  const top = Math.max(lipHigh, pivot);
  const depthPct = pctBelow(lipHigh, bottomLow);
  const baseDepthPct = pctBelow(top, bottomLow);
  const handleDepthPct = pctBelow(pivot, handleLow);
  const rimBelowPct = pctBelow(lipHigh, pivot);
  const handlePosition = (handleLow - bottomLow) / (lipHigh - bottomLow); // 0.5 = the cup's midpoint, 1 = the lip
  const cupBars = r - l + 1, handleBars = end - r + 1;
  const handleVolume = meanVolumeRatio(input, r, r, end);
  const advancePct = pctChange(fit.priorLow, lipHigh);
  const stopLoss = cappedStop(handleLow, pivot, o.maxStopPct);
  const target1 = pivot + (top - bottomLow);
  const breakout = findBreakout(input, end, pivot, 'long');

  const quality = unit(
    0.2 * baseDepthScore(depthPct, o.idealMaxDepthPct, o.maxDepthPct) +
      0.2 * unit((fit.bottomSpan - o.minBottomSpan) / (0.8 - o.minBottomSpan)) +
      0.2 * (handleDepthPct <= 12 ? unit(0.5 + (handlePosition - 0.5)) : 0.4) +
      0.2 * (handleVolume > 0 ? unit((1.2 - handleVolume) / 0.5) : 0.5) +
      0.2 * unit(1 - rimBelowPct / o.maxRimBelowLipPct),
  );
  // the sentences only when asked for (`PatternInput.brief`: a caller that reads the levels alone)
  const reasons = input.brief
    ? []
    : [
        `cup ${weeksText(cupBars)}, ${fmt1(depthPct)}% deep${deepBaseNote(depthPct, o.idealMaxDepthPct)}, ${weeksText(Math.round(fit.bottomSpan * cupBars))} (${fmt1(100 * fit.bottomSpan)}% of it) between its first and last close in the bottom third`,
        `handle ${weeksText(handleBars)}, ${fmt1(handleDepthPct)}% deep, in the upper half of the cup (low at ${fmt1(100 * handlePosition)}% of the cup's height)`,
        handleVolume > 0 ? `handle volume ${fmt1(handleVolume)}× the 50-day average` : 'no volume history before the handle',
        `prior advance ${fmt1(advancePct)}% into the lip (${fmtPrice(fit.priorLow)} → ${fmtPrice(lipHigh)}); rim ${fmt1(rimBelowPct)}% below the lip`,
        pivotText(breakout, pivot, 'long', 'day', 'the handle high'),
        cappedStopText(stopLoss, handleLow, o.maxStopPct, 'the handle low'),
        baseMeasuredMoveText(pivot, top - bottomLow, target1),
      ];
  return {
    patternType: 'cup_with_handle',
    patternFamily: 'base',
    direction: 'long',
    pivot,
    target1,
    stopLoss,
    geometry: { start: l, end, depthPct: baseDepthPct, lengthBars: end - l + 1, contractions: 0 },
    breakout,
    quality,
    reasons,
  };
}

/**
 * A cup-with-handle detector; `cupWithHandle` is `cupWithHandleDetector()` with the daily defaults.
 * @throws RangeError for options that cannot describe a cup with handle.
 */
export function cupWithHandleDetector(options: Partial<CupWithHandleOptions> = {}): PatternDetector {
  const o: CupWithHandleOptions = { ...CUP_WITH_HANDLE_DEFAULTS, ...options };
  checkOptions(o);
  const scratch: CupFit = { lip: 0, bottom: 0, rim: 0, handleLow: 0, bottomSpan: 0, priorLow: 0 };
  const lookback = o.priorBars + o.minCupBars + o.minHandleBars - 1;
  return shapeDetector<CupFit>({
    type: 'cup_with_handle',
    family: 'base',
    direction: 'long',
    lookback,
    recentBars: o.recentBars,
    firstBar: lookback,
    fit: (input, end) => fitCup(input, end, o, scratch),
    mayBreakOut: closesAbovePriorHigh, // the pivot, the rim, is at least the handle's last high
    breaksOut: (input, fit, b) => input.bars.close[b]! > input.bars.high[fit.rim]!,
    instanceKey: (fit) => fit.lip,
    build: (input, fit, end) => buildMatch(input, o, fit, end),
  });
}

export const cupWithHandle: PatternDetector = cupWithHandleDetector();
