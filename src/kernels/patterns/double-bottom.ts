/**
 * @module kernels/patterns/double-bottom
 * `double_bottom` (base, long): after an advance, a W-shaped correction of at
 * least seven weeks whose second low undercuts the first slightly (or holds
 * within a few percent of it); it triggers on the first close above the W's
 * middle peak.
 *
 * Definition: William J. O'Neil, "How to Make Money in Stocks", 4th ed.
 * (McGraw-Hill, 2009), chapter 2, the double-bottom pattern: it looks like
 * the letter W; the middle peak of the W stays below the top of the base; the
 * second low should undercut the first by a point or two, shaking out the
 * last weak holders (a second low within a few percent of the first is
 * accepted with less quality); the buy point is the top of the middle peak;
 * the base lasts at least 7 weeks and, like every base, follows a prior
 * uptrend (30%). MarketSmith / IBD rules agree (second low undercuts the first,
 * pivot at the middle peak). Depth limits follow O'Neil's cup rules (12–33%,
 * up to ~50% in a bear market). Stop: the second low, never more than
 * O'Neil's 7–8% below the buy point (the book's chapter on cutting losses).
 * Target: the measured move, pivot + the base's depth in price; O'Neil's
 * +20–25% profit-taking rule is in the reasons.
 *
 * Geometry for a W ending at bar `e` (parameters in bars; defaults are daily):
 * - the left high `l` is a bar whose high no later close has exceeded and that
 *   tops the `peakBars` bars before it; candidates are tried from the latest
 *   back until the range from `l` to `e` is deeper than `maxDepthPct`;
 * - the middle peak `m` is the highest high between the two lows, the first
 *   low `a` the lowest low of (l, m), the second low `b` the lowest low of
 *   (m, e]; the candidates for `m` are the bars whose high no later close has
 *   exceeded (so no close above the pivot happened before `e + 1`);
 * - each of the legs l→a, a→m, m→b is at least `minLegBars` long, `e > b`, and
 *   the W is `minBars..maxBars` long and `minDepthPct..maxDepthPct` deep;
 * - the second low lies between `maxUndercutPct` below and `maxSecondAbovePct`
 *   above the first; the middle peak recovers at least `minPeakRetrace` of the
 *   base's depth and stays below the left high;
 * - the left high is at least `minPriorAdvancePct` above the lowest low of the
 *   `priorBars` bars before it.
 *
 * Which instance: a breakout in the last `recentBars` bars wins over a W still
 * forming at `asOf`; of several, the latest breakout of a W with a different
 * left high, and for one left high its first breakout. Cost: at most
 * `recentBars + 1` walks of `maxBars` bars with an O(length) pass per
 * candidate left high; nothing is allocated per call until a match is built.
 *
 * @example
 * const match = doubleBottom.detect({ bars, ind: computeIndicators(bars), asOf: bars.close.length - 1 });
 * match?.reasons[1]; // => "second low 96.12 undercuts the first (97.50) by 1.4%"
 */
import {
  argMaxHigh,
  baseDepthScore,
  baseMeasuredMoveText,
  cappedStop,
  cappedStopText,
  checkCounts,
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

export interface DoubleBottomOptions {
  /** Fewest and most bars from the left high to the end (35..325 = 7 to 65 weeks). */
  minBars: number;
  maxBars: number;
  /** Fewest bars in each of the legs left high → first low → middle peak → second low. */
  minLegBars: number;
  /** Shallowest and deepest base, percent below the left high. */
  minDepthPct: number;
  maxDepthPct: number;
  /** Deepest base that scores as textbook (O'Neil's 33%); deeper ones lose quality. */
  idealMaxDepthPct: number;
  /** How far the second low may undercut the first, percent of the first low. */
  maxUndercutPct: number;
  /** How far the second low may stay above the first, percent of the first low. */
  maxSecondAbovePct: number;
  /** Least share of the base's depth the middle peak recovers from the higher low. */
  minPeakRetrace: number;
  /** Bars before the left high that it must top (10 = two weeks). */
  peakBars: number;
  /** Bars before the left high searched for the prior advance (126 ≈ 6 months). */
  priorBars: number;
  /** Smallest prior advance into the left high, percent (O'Neil: 30%). */
  minPriorAdvancePct: number;
  /** Widest stop below the pivot, percent (O'Neil's 7–8% rule). */
  maxStopPct: number;
  /** Bars after a breakout during which the pattern is still reported, triggered. */
  recentBars: number;
}

/** Daily-bar defaults from O'Neil's definition above. */
export const DOUBLE_BOTTOM_DEFAULTS: Readonly<DoubleBottomOptions> = Object.freeze({
  minBars: 35,
  maxBars: 325,
  minLegBars: 5,
  minDepthPct: 12,
  maxDepthPct: 50,
  idealMaxDepthPct: 33,
  maxUndercutPct: 5,
  maxSecondAbovePct: 3,
  minPeakRetrace: 0.5,
  peakBars: 10,
  priorBars: 126,
  minPriorAdvancePct: 30,
  maxStopPct: 8,
  recentBars: 5,
});

interface WFit {
  left: number;
  firstLow: number;
  peak: number;
  secondLow: number;
  priorLow: number;
}

function checkOptions(o: DoubleBottomOptions): void {
  checkCounts('double_bottom', [o.minBars, o.maxBars, o.minLegBars, o.peakBars, o.priorBars, o.recentBars]);
  if (o.minBars > o.maxBars || 3 * o.minLegBars + 1 > o.maxBars) throw new RangeError('double_bottom: need minBars ≤ maxBars and room for three legs');
  if (!(o.minDepthPct > 0 && o.minDepthPct <= o.idealMaxDepthPct && o.idealMaxDepthPct <= o.maxDepthPct && o.maxDepthPct < 100)) {
    throw new RangeError('double_bottom: need 0 < minDepthPct ≤ idealMaxDepthPct ≤ maxDepthPct < 100');
  }
  if (!(o.maxUndercutPct >= 0 && o.maxSecondAbovePct >= 0 && o.minPeakRetrace > 0 && o.minPeakRetrace < 1)) {
    throw new RangeError('double_bottom: need maxUndercutPct ≥ 0, maxSecondAbovePct ≥ 0, 0 < minPeakRetrace < 1');
  }
  if (!(o.minPriorAdvancePct >= 0 && o.maxStopPct > 0 && o.maxStopPct < 100)) throw new RangeError('double_bottom: need minPriorAdvancePct ≥ 0 and 0 < maxStopPct < 100');
}

/** Per-detector work arrays of `maxBars` entries, allocated once. */
interface WScratch {
  /** `suffixLow[e − k]`: the lowest low of [k, e]. */
  suffixLow: Int32Array;
  /** `prefixLow[k − l − 1]`: the lowest low of (l, k]. */
  prefixLow: Int32Array;
  /** Bars whose high no later close exceeded, latest first. */
  unbroken: Int32Array;
}

/**
 * The W with left high `l`, first low `a`, second low `b` and end `e`, `m` the
 * middle-peak candidate that split them; fills `out` when it holds. The cheap
 * tests run before the scan for the true middle peak.
 */
function tryW(input: PatternInput, l: number, a: number, m: number, b: number, e: number, o: DoubleBottomOptions, out: WFit): boolean {
  const { high, low } = input.bars;
  const lip = high[l]!, lowA = low[a]!, lowB = low[b]!;
  if (b >= e || a - l < o.minLegBars || b - a < 2 * o.minLegBars) return false;
  if (lowB < lowA * (1 - o.maxUndercutPct / 100) || lowB > lowA * (1 + o.maxSecondAbovePct / 100)) return false;
  const floor = Math.min(lowA, lowB);
  const depth = (lip - floor) / lip;
  if (depth < o.minDepthPct / 100 || depth > o.maxDepthPct / 100) return false;
  if (high[m]! >= lip) return false; // the true middle peak is at least as high
  const peak = argMaxHigh(high, a, b); // the true middle peak: the highest high between the lows
  const top = high[peak]!;
  if (peak - a < o.minLegBars || b - peak < o.minLegBars || top >= lip) return false;
  if (top - Math.max(lowA, lowB) < o.minPeakRetrace * (lip - floor)) return false;
  out.left = l;
  out.firstLow = a;
  out.peak = peak;
  out.secondLow = b;
  return true;
}

/** The latest W ending at `e`, or null. `out` is reused, `work` is scratch. */
function fitW(input: PatternInput, e: number, o: DoubleBottomOptions, out: WFit, work: WScratch): WFit | null {
  const { high, low, close } = input.bars;
  const { suffixLow, prefixLow, unbroken } = work;
  const floor = 1 - o.maxDepthPct / 100;
  let top = -Infinity, bottom = Infinity, b = e, closeAfter = -Infinity, count = 0;
  for (let j = e; j >= 0 && e - j < o.maxBars; j--) {
    if (high[j]! > top) top = high[j]!;
    if (low[j]! <= bottom) {
      bottom = low[j]!;
      b = j;
    }
    if (bottom < top * floor) break;
    suffixLow[e - j] = b;
    const isUnbroken = high[j]! >= closeAfter; // no later close has exceeded this high
    if (close[j]! > closeAfter) closeAfter = close[j]!;
    if (!isUnbroken) continue;
    if (e - j + 1 >= o.minBars && topsPriorBars(high, j, o.peakBars)) {
      // lowest low of (j, k] for every k, then the middle-peak candidates from the latest back
      let best = j + 1;
      for (let k = j + 1; k <= e; k++) {
        if (low[k]! < low[best]!) best = k;
        prefixLow[k - j - 1] = best;
      }
      let lastA = -1, lastB = -1;
      for (let c = 0; c < count; c++) {
        const m = unbroken[c]!;
        if (m - j < 2 || e - m < 2) continue;
        const a = prefixLow[m - 2 - j]!; // lowest low of (j, m)
        const sb = suffixLow[e - m - 1]!; // lowest low of (m, e]
        if (a === lastA && sb === lastB) continue; // the same W as the candidate before
        lastA = a;
        lastB = sb;
        if (!tryW(input, j, a, m, sb, e, o, out)) continue;
        const priorLow = priorAdvanceLow(input, j, o.priorBars, o.minPriorAdvancePct);
        if (priorLow === null) break;
        out.priorLow = priorLow;
        return out;
      }
    }
    unbroken[count++] = j;
  }
  return null;
}

function buildMatch(input: PatternInput, o: DoubleBottomOptions, fit: WFit, end: number): PatternMatch {
  const { high, low } = input.bars;
  const { left: l, firstLow: a, peak: m, secondLow: b } = fit;
  const lip = high[l]!, lowA = low[a]!, lowB = low[b]!, pivot = high[m]!;
  const floor = Math.min(lowA, lowB);
  const depthPct = pctBelow(lip, floor);
  const undercutPct = pctBelow(lowA, lowB);
  const peakPosition = (pivot - floor) / (lip - floor);
  const peakBelowPct = pctBelow(lip, pivot);
  const lengthBars = end - l + 1;
  const lowVolume = meanVolumeRatio(input, l, Math.max(m + 1, b - 2), Math.min(end, b + 2));
  const symmetry = 1 - Math.abs(m - a - (b - m)) / (b - a);
  const advancePct = pctChange(fit.priorLow, lip);
  const stopLoss = cappedStop(lowB, pivot, o.maxStopPct);
  const target1 = pivot + (lip - floor);
  const breakout = findBreakout(input, end, pivot, 'long');

  const undercutScore = undercutPct >= 0 ? (undercutPct <= 3 ? 1 : 0.7) : 0.6; // O'Neil wants a slight undercut
  const quality = unit(
    0.2 * baseDepthScore(depthPct, o.idealMaxDepthPct, o.maxDepthPct) +
      0.2 * undercutScore +
      0.2 * unit((peakPosition - o.minPeakRetrace) / (0.9 - o.minPeakRetrace)) +
      0.2 * (lowVolume > 0 ? unit((1.3 - lowVolume) / 0.6) : 0.5) +
      0.2 * unit(symmetry),
  );
  // the sentences only when asked for (`PatternInput.brief`: a caller that reads the levels alone)
  const reasons = input.brief
    ? []
    : [
        `W over ${weeksText(lengthBars)}, ${fmt1(depthPct)}% deep${deepBaseNote(depthPct, o.idealMaxDepthPct)}`,
        undercutPct >= 0
          ? `second low ${fmtPrice(lowB)} undercuts the first (${fmtPrice(lowA)}) by ${fmt1(undercutPct)}%`
          : `second low ${fmtPrice(lowB)} holds ${fmt1(-undercutPct)}% above the first (${fmtPrice(lowA)}); O'Neil prefers an undercut`,
        `middle peak ${fmtPrice(pivot)} recovers ${fmt1(100 * peakPosition)}% of the base, ${fmt1(peakBelowPct)}% below the left high ${fmtPrice(lip)}`,
        lowVolume > 0 ? `volume around the second low ${fmt1(lowVolume)}× the 50-day average before the base` : 'no volume history before the base',
        `prior advance ${fmt1(advancePct)}% into the left high (${fmtPrice(fit.priorLow)} → ${fmtPrice(lip)})`,
        pivotText(breakout, pivot, 'long', 'day', 'the middle peak'),
        cappedStopText(stopLoss, lowB, o.maxStopPct, 'the second low'),
        baseMeasuredMoveText(pivot, lip - floor, target1),
      ];
  return {
    patternType: 'double_bottom',
    patternFamily: 'base',
    direction: 'long',
    pivot,
    target1,
    stopLoss,
    geometry: { start: l, end, depthPct, lengthBars, contractions: 0 },
    breakout,
    quality,
    reasons,
  };
}

/**
 * A double-bottom detector; `doubleBottom` is `doubleBottomDetector()` with the daily defaults.
 * @throws RangeError for options that cannot describe a double bottom.
 */
export function doubleBottomDetector(options: Partial<DoubleBottomOptions> = {}): PatternDetector {
  const o: DoubleBottomOptions = { ...DOUBLE_BOTTOM_DEFAULTS, ...options };
  checkOptions(o);
  const scratch: WFit = { left: 0, firstLow: 0, peak: 0, secondLow: 0, priorLow: 0 };
  const work: WScratch = { suffixLow: new Int32Array(o.maxBars), prefixLow: new Int32Array(o.maxBars), unbroken: new Int32Array(o.maxBars) };
  const lookback = o.priorBars + o.minBars;
  return shapeDetector<WFit>({
    type: 'double_bottom',
    family: 'base',
    direction: 'long',
    lookback,
    recentBars: o.recentBars,
    firstBar: lookback,
    fit: (input, end) => fitW(input, end, o, scratch, work),
    // a breakout closes up, and above the middle peak; the key is the W's left high
    mayBreakOut: (input, b) => input.bars.close[b]! > input.bars.close[b - 1]!,
    breaksOut: (input, fit, b) => input.bars.close[b]! > input.bars.high[fit.peak]!,
    instanceKey: (fit) => fit.left,
    build: (input, fit, end) => buildMatch(input, o, fit, end),
  });
}

export const doubleBottom: PatternDetector = doubleBottomDetector();
