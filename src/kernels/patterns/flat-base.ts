/**
 * @module kernels/patterns/flat-base
 * `flat_base` (base, long): after an advance, the stock moves sideways in a
 * range no deeper than 15% from its high for at least five weeks, and triggers
 * on the first close above the base's high.
 *
 * Definition: William J. O'Neil, "How to Make Money in Stocks", 4th ed.
 * (McGraw-Hill, 2009), chapter 2 on chart patterns: the flat base is a
 * second-stage base that moves sideways in a tight range for at least five or
 * six weeks, corrects no more than about 10–15%, and usually forms after the
 * stock has advanced 20% or more off an earlier base; MarketSmith / Investor's
 * Business Daily base rules say the same (at least 5 weeks, at most ~15% deep,
 * pivot at the base's high). Stop: O'Neil's rule to cut every loss at 7–8%
 * below the buy point (the book's chapter on cutting losses), tightened to the
 * base's last low when that is closer. Target: the measured move, pivot + the
 * base's depth in price; O'Neil's own rule, to take most profits 20–25% above
 * the buy point, is given in the reasons.
 *
 * Geometry for a base ending at bar `e` (parameters in bars; the defaults are
 * daily bars, so they read as weeks × 5 on daily data):
 * - the base window is the longest run of bars ending at `e`, at most
 *   `maxBars`, whose range (highest high − lowest low) stays within `maxDepthPct`
 *   of its highest high (the range only widens going back, so one walk finds it);
 * - the base starts at its left-side peak: the highest high among the first
 *   `peakBars` bars from the window's earliest bar whose high no later close
 *   has exceeded (so the base holds no earlier breakout, and a right-side poke
 *   above the left high without a close above it does not cut the base
 *   short); that peak tops the `peakBars` bars before it (else the range began
 *   inside a deeper decline) and the base is `minBars..maxBars` long;
 * - the prior advance is the rise from the lowest low of the `priorBars` bars
 *   before the start to the start's high, at least `minPriorAdvancePct`, and
 *   the base high is within `maxBelowYearHighPct` of the 252-bar high (a
 *   second-stage base near new highs, not a pause in a bear-market rally);
 * - pivot = the base's highest high; stop = max(lowest low of the base's last
 *   `lastLowBars` bars, pivot × (1 − maxStopPct/100)).
 *
 * Which instance: a breakout in the last `recentBars` bars (the base then ends
 * the bar before it) wins over a base still forming at `asOf`; of several, the
 * latest breakout of a base with a different start, and for one start its
 * first breakout (the same choice as `flag-geometry.ts`).
 * Cost: at most `recentBars + 1` fits of O(maxBars + priorBars); nothing is
 * allocated until a match is built.
 *
 * @example
 * const match = flatBase.detect({ bars, ind: computeIndicators(bars), asOf: bars.close.length - 1 });
 * match?.reasons[0]; // => "base depth 12.4% over 7 weeks (35 bars)"
 */
import {
  argMaxHigh,
  argMinLow,
  baseMeasuredMoveText,
  cappedStop,
  cappedStopText,
  checkCounts,
  closesAbovePriorHigh,
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

export interface FlatBaseOptions {
  /** Fewest bars in the base (25 = O'Neil's five weeks of daily bars). */
  minBars: number;
  /** Most bars in the base (75 = 15 weeks). */
  maxBars: number;
  /** Deepest correction from the base high, percent (O'Neil: 10–15%). */
  maxDepthPct: number;
  /**
   * Bars at the base's start among which the highest high is its left-side
   * peak, and bars before it that the peak must top (10 = two weeks).
   */
  peakBars: number;
  /** Bars before the base searched for the prior advance (126 ≈ 6 months). */
  priorBars: number;
  /** Smallest prior advance into the base, percent (O'Neil: 20% or more). */
  minPriorAdvancePct: number;
  /**
   * Farthest the base high may sit below the 52-week high, percent: a flat base
   * is a second-stage base near new highs, not a pause in a bear-market rally.
   */
  maxBelowYearHighPct: number;
  /** Bars at the end of the base whose lowest low is the protective stop (10 = 2 weeks). */
  lastLowBars: number;
  /** Widest stop below the pivot, percent (O'Neil's 7–8% loss-cutting rule). */
  maxStopPct: number;
  /** Bars after a breakout during which the base is still reported, triggered. */
  recentBars: number;
}

/** Daily-bar defaults from O'Neil's definition above. */
export const FLAT_BASE_DEFAULTS: Readonly<FlatBaseOptions> = Object.freeze({
  minBars: 25,
  maxBars: 75,
  maxDepthPct: 15,
  peakBars: 10,
  priorBars: 126,
  minPriorAdvancePct: 20,
  maxBelowYearHighPct: 15,
  lastLowBars: 10,
  maxStopPct: 8,
  recentBars: 5,
});

interface FlatBaseFit {
  start: number;
  pivot: number;
  baseLow: number;
  priorLow: number;
}

function checkOptions(o: FlatBaseOptions): void {
  checkCounts('flat_base', [o.minBars, o.maxBars, o.peakBars, o.priorBars, o.lastLowBars, o.recentBars]);
  if (o.minBars < 2 || o.minBars > o.maxBars) throw new RangeError('flat_base: need 2 ≤ minBars ≤ maxBars');
  if (!(o.maxDepthPct > 0 && o.maxDepthPct < 100)) throw new RangeError('flat_base: need 0 < maxDepthPct < 100');
  if (!(o.minPriorAdvancePct >= 0 && o.maxBelowYearHighPct >= 0 && o.maxStopPct > 0 && o.maxStopPct < 100)) {
    throw new RangeError('flat_base: need minPriorAdvancePct ≥ 0, maxBelowYearHighPct ≥ 0 and 0 < maxStopPct < 100');
  }
}

/** Measures the flat base ending at `e`, or null when the bars there are not one. `out` is reused. */
function fitFlatBase(input: PatternInput, e: number, o: FlatBaseOptions, out: FlatBaseFit): FlatBaseFit | null {
  const { high, low, close } = input.bars;
  const floor = 1 - o.maxDepthPct / 100;
  // widest window ending at e whose lowest low stays within maxDepthPct of its
  // highest high; the base starts at its earliest bar whose high no later close exceeded
  let top = -Infinity, bottom = Infinity, closeAfter = -Infinity, first = e;
  for (let j = e; j >= 0 && e - j < o.maxBars; j--) {
    if (high[j]! > top) top = high[j]!;
    if (low[j]! < bottom) bottom = low[j]!;
    if (bottom < top * floor) break;
    if (high[j]! >= closeAfter) first = j;
    if (close[j]! > closeAfter) closeAfter = close[j]!;
  }
  // the left-side peak: the highest high of the base's first peakBars bars, and
  // a peak (no higher high in the peakBars bars before it), else the range began
  // in the middle of a deeper decline
  const start = argMaxHigh(high, first, Math.min(e, first + o.peakBars - 1));
  if (e - start + 1 < o.minBars || !topsPriorBars(high, start, o.peakBars)) return null;
  const priorLow = priorAdvanceLow(input, start, o.priorBars, o.minPriorAdvancePct);
  if (priorLow === null) return null;
  const pivot = high[argMaxHigh(high, start, e)]!;
  const yearHigh = input.ind.high252.at(e)!; // NaN in a stock's first year: no test
  if (yearHigh > 0 && pivot < yearHigh * (1 - o.maxBelowYearHighPct / 100)) return null;
  // a base needs some depth, and its last lows (the stop) below its high: a
  // price that did not move is a series of stale prints, not a base (AMCR's
  // zero-volume rows of 2015–2017 made stop = pivot = target1)
  const baseLow = low[argMinLow(low, start, e)]!;
  if (!(baseLow < pivot) || !(low[argMinLow(low, Math.max(start, e - o.lastLowBars + 1), e)]! < pivot)) return null;
  out.start = start;
  out.pivot = pivot;
  out.baseLow = baseLow;
  out.priorLow = priorLow;
  return out;
}

function buildMatch(input: PatternInput, o: FlatBaseOptions, fit: FlatBaseFit, end: number): PatternMatch {
  const { high, low, close } = input.bars;
  const { start, pivot, baseLow } = fit;
  const lengthBars = end - start + 1;
  const depthPct = pctBelow(pivot, baseLow);
  const tailFrom = Math.max(start, end - o.lastLowBars + 1);
  const lastLow = low[argMinLow(low, tailFrom, end)]!;
  const stopLoss = cappedStop(lastLow, pivot, o.maxStopPct);
  const target1 = pivot + (pivot - baseLow);
  const advancePct = pctChange(fit.priorLow, high[start]!);
  // tightness: how far apart the closes of the last two weeks sit, against the pivot
  let cHi = -Infinity, cLo = Infinity;
  for (let i = tailFrom; i <= end; i++) {
    if (close[i]! > cHi) cHi = close[i]!;
    if (close[i]! < cLo) cLo = close[i]!;
  }
  const closeSpreadPct = (100 * (cHi - cLo)) / pivot;
  const dryUp = meanVolumeRatio(input, start, tailFrom, end);
  const breakout = findBreakout(input, end, pivot, 'long');

  const quality = unit(
    0.3 * unit(1 - Math.max(0, depthPct - 10) / 10) +
      0.3 * unit((10 - closeSpreadPct) / 7) +
      0.25 * (dryUp > 0 ? unit((1.2 - dryUp) / 0.5) : 0.5) +
      0.15 * unit(advancePct / 40),
  );
  // the sentences only when asked for (`PatternInput.brief`: a caller that reads the levels alone)
  const reasons = input.brief
    ? []
    : [
        `base depth ${fmt1(depthPct)}% over ${weeksText(lengthBars)} (${lengthBars} bars)`,
        `prior advance ${fmt1(advancePct)}% into the base (${fmtPrice(fit.priorLow)} → ${fmtPrice(high[start]!)})`,
        `closes of the last ${weeksText(end - tailFrom + 1)} within ${fmt1(closeSpreadPct)}% of each other`,
        dryUp > 0 ? `volume in the last ${weeksText(end - tailFrom + 1)} ${fmt1(dryUp)}× the 50-day average before the base` : 'no volume history before the base',
        pivotText(breakout, pivot, 'long', 'day', 'the base high', 'the pivot'),
        cappedStopText(stopLoss, lastLow, o.maxStopPct, `the lowest low of the last ${weeksText(end - tailFrom + 1)}`),
        baseMeasuredMoveText(pivot, pivot - baseLow, target1),
      ];
  return {
    patternType: 'flat_base',
    patternFamily: 'base',
    direction: 'long',
    pivot,
    target1,
    stopLoss,
    geometry: { start, end, depthPct, lengthBars, contractions: 0 },
    breakout,
    quality,
    reasons,
  };
}

/**
 * A flat-base detector; `flatBase` is `flatBaseDetector()` with the daily defaults.
 * @throws RangeError for options that cannot describe a flat base.
 */
export function flatBaseDetector(options: Partial<FlatBaseOptions> = {}): PatternDetector {
  const o: FlatBaseOptions = { ...FLAT_BASE_DEFAULTS, ...options };
  checkOptions(o);
  const scratch: FlatBaseFit = { start: 0, pivot: 0, baseLow: 0, priorLow: 0 };
  const lookback = o.priorBars + o.minBars;
  return shapeDetector<FlatBaseFit>({
    type: 'flat_base',
    family: 'base',
    direction: 'long',
    lookback,
    recentBars: o.recentBars,
    firstBar: lookback,
    fit: (input, end) => fitFlatBase(input, end, o, scratch),
    mayBreakOut: closesAbovePriorHigh, // the pivot is at least the base's last high
    breaksOut: (input, fit, b) => input.bars.close[b]! > fit.pivot,
    instanceKey: (fit) => fit.start,
    build: (input, fit, end) => buildMatch(input, o, fit, end),
  });
}

export const flatBase: PatternDetector = flatBaseDetector();
