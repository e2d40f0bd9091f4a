/**
 * @module kernels/patterns/vcp
 * `vcp` (base, long): Mark Minervini's volatility contraction pattern,
 * triggered by the first close above the high of the last contraction.
 *
 * Definition: Mark Minervini, "Trade Like a Stock Market Wizard"
 * (McGraw-Hill, 2013), the chapter on the volatility contraction pattern:
 * from left to right the base's pullbacks get smaller (e.g. 25% → 15% → 8% →
 * 4%), typically two to six of them, each roughly half the one before, with
 * volume drying up on the later ones; the pivot is the high of the last,
 * tightest contraction; and the setup is only bought in a Stage 2 uptrend
 * (his trend template: price above the 150- and 200-day moving averages, the
 * 200-day trending up for at least a month). Stop: the last contraction's
 * low, never more than the 7–8% below the pivot at which both Minervini and
 * O'Neil ("How to Make Money in Stocks", 4th ed.) cap a loss. Target: the
 * measured move, pivot + the base's depth in price; O'Neil's +20–25%
 * profit-taking rule is given in the reasons.
 *
 * Geometry for a VCP ending at bar `e` (parameters in bars; defaults daily):
 * - Stage 2 at `e`: close above the 150- and 200-bar SMAs, the 200-bar SMA
 *   higher than `smaRiseBars` bars before;
 * - the base starts at `s`, a bar whose high no later close has exceeded and
 *   that tops the `peakBars` bars before it; every such bar within `maxBars`
 *   whose range to `e` is at most `maxDepthPct` deep is tried, and the
 *   earliest that gives a VCP wins (the full base, not its last few
 *   pullbacks); the match's `geometry.start` is the first contraction's high;
 * - the pullbacks are the swings of a zigzag from `s` to `e` whose reversal
 *   threshold is one ATR 14 at `e` in percent (clamped to
 *   `minSwingPct..maxSwingPct`), so a pullback is a move this stock's daily
 *   noise does not explain; a pullback that undercuts the one before continues
 *   it, one that starts above the one before absorbs it (a pause in the
 *   rally), and one deeper than `maxContractionRatio` of the one before (no
 *   contraction) or shallower than `minContractionRatio` of it (a pause in the
 *   rally) is dropped; what is left has falling highs, rising lows and
 *   depths that shrink step by step (the zigzag is `vcp-contractions.ts`);
 * - 2..6 contractions, the first at least `minFirstDepthPct`, the last at most
 *   `maxLastDepthPct` deep; the pivot (the last contraction's high, or a
 *   later intraday high with no close above it) at most `maxPivotBelowPct`
 *   below the base high; mean volume in the last contraction below the first's.
 *
 * Which instance: a breakout in the last `recentBars` bars wins over a VCP
 * still forming at `asOf`; of several, the latest breakout of a base with a
 * different start, and for one start its first breakout. Cost: the Stage 2
 * test rejects most bars in O(1); otherwise a walk of `maxBars` bars and one
 * zigzag per candidate start, at most `recentBars + 1` times; nothing is
 * allocated per call until a match is built.
 *
 * @example
 * const match = vcp.detect({ bars, ind: computeIndicators(bars), asOf: bars.close.length - 1 });
 * match?.reasons[0]; // => "3 contractions: 18.2% → 9.6% → 4.1%"
 */
import {
  argMaxHigh,
  baseMeasuredMoveText,
  cappedStop,
  cappedStopText,
  checkCounts,
  closesAbovePriorHigh,
  findBreakout,
  fmt1,
  fmtPrice,
  meanVolume,
  pctBelow,
  pctChange,
  pivotText,
  topsPriorBars,
  unit,
  weeksText,
} from './common';
import { shapeDetector } from './instance';
import type { PatternDetector, PatternInput, PatternMatch } from './types';
import { CONTRACTION_STACK, findContractions, swingDepth } from './vcp-contractions';

export interface VcpOptions {
  /** Fewest and most bars in the base (15..325 = Minervini's 3 to 65 weeks). */
  minBars: number;
  maxBars: number;
  /** Deepest base (the first contraction), percent below its high. */
  maxDepthPct: number;
  /** Shallowest first contraction, percent. */
  minFirstDepthPct: number;
  /** Deepest last contraction, percent (the tight area at the pivot). */
  maxLastDepthPct: number;
  /** Fewest and most contractions (Minervini: two to six). */
  minContractions: number;
  maxContractions: number;
  /**
   * Depth of a contraction as a share of the one before it: at most
   * `maxContractionRatio` (else it does not contract) and at least
   * `minContractionRatio` (else it is a pause in the rally, not a contraction).
   */
  minContractionRatio: number;
  maxContractionRatio: number;
  /** Bounds of the zigzag's reversal threshold, percent (the threshold is ATR 14 / close). */
  minSwingPct: number;
  maxSwingPct: number;
  /** Lowest the pivot may stand below the base high, percent. */
  maxPivotBelowPct: number;
  /** Bars before the base start that it must top (10 = two weeks). */
  peakBars: number;
  /** Bars over which the 200-bar SMA must have risen (21 ≈ one month). */
  smaRiseBars: number;
  /** Widest stop below the pivot, percent (the 7–8% rule). */
  maxStopPct: number;
  /** Bars after a breakout during which the pattern is still reported, triggered. */
  recentBars: number;
}

/** Daily-bar defaults from Minervini's definition above. */
export const VCP_DEFAULTS: Readonly<VcpOptions> = Object.freeze({
  minBars: 15,
  maxBars: 325,
  maxDepthPct: 40,
  minFirstDepthPct: 10,
  maxLastDepthPct: 10,
  minContractions: 2,
  maxContractions: 6,
  minContractionRatio: 0.25,
  maxContractionRatio: 0.8,
  minSwingPct: 0.5,
  maxSwingPct: 8,
  maxPivotBelowPct: 15,
  peakBars: 10,
  smaRiseBars: 21,
  maxStopPct: 8,
  recentBars: 5,
});

interface VcpFit {
  start: number;
  /** Contractions: swing-high and swing-low bar of each, oldest first, `count` of them. */
  highs: Int32Array;
  lows: Int32Array;
  count: number;
  pivot: number;
}

function checkOptions(o: VcpOptions): void {
  checkCounts('vcp', [o.minBars, o.maxBars, o.minContractions, o.maxContractions, o.peakBars, o.smaRiseBars, o.recentBars], 'bar and contraction counts');
  if (o.minBars > o.maxBars || o.minContractions < 2 || o.minContractions > o.maxContractions || o.maxContractions > CONTRACTION_STACK) {
    throw new RangeError(`vcp: need minBars ≤ maxBars and 2 ≤ minContractions ≤ maxContractions ≤ ${CONTRACTION_STACK}`);
  }
  if (!(o.maxDepthPct > 0 && o.maxDepthPct < 100 && o.minFirstDepthPct >= 0 && o.maxLastDepthPct > 0)) {
    throw new RangeError('vcp: need 0 < maxDepthPct < 100, minFirstDepthPct ≥ 0, maxLastDepthPct > 0');
  }
  if (!(o.minContractionRatio >= 0 && o.minContractionRatio < o.maxContractionRatio && o.maxContractionRatio < 1 && o.minSwingPct > 0 && o.minSwingPct <= o.maxSwingPct)) {
    throw new RangeError('vcp: need 0 ≤ minContractionRatio < maxContractionRatio < 1 and 0 < minSwingPct ≤ maxSwingPct');
  }
  if (!(o.maxPivotBelowPct >= 0 && o.maxStopPct > 0 && o.maxStopPct < 100)) throw new RangeError('vcp: need maxPivotBelowPct ≥ 0 and 0 < maxStopPct < 100');
}

/** Checks the contractions in `hs`/`ls` (count `n`) of a base ending at `e`; returns the pivot or NaN. */
function vcpPivot(input: PatternInput, e: number, n: number, hs: Int32Array, ls: Int32Array, o: VcpOptions): number {
  const { high, low, close, volume } = input.bars;
  if (n < o.minContractions || n > o.maxContractions) return NaN;
  if (swingDepth(high, low, hs[0]!, ls[0]!) < o.minFirstDepthPct / 100) return NaN;
  const last = hs[n - 1]!;
  if (swingDepth(high, low, last, ls[n - 1]!) > o.maxLastDepthPct / 100) return NaN;
  for (let i = last + 1; i <= e; i++) if (close[i]! > high[last]!) return NaN; // already broke out
  const pivot = high[argMaxHigh(high, last, e)]!;
  if (pivot < high[hs[0]!]! * (1 - o.maxPivotBelowPct / 100)) return NaN;
  if (!(meanVolume(volume, last, e) < meanVolume(volume, hs[0]!, ls[0]!))) return NaN; // volume dries up into the right side
  return pivot;
}

/** The VCP ending at `e` with the earliest valid start, or null. `out` is reused; `work` is scratch. */
function fitVcp(input: PatternInput, e: number, o: VcpOptions, out: VcpFit, work: VcpFit): VcpFit | null {
  const { high, low, close } = input.bars;
  const { sma150, sma200, atr14 } = input.ind;
  if (e < o.smaRiseBars || !(close[e]! > sma150[e]! && close[e]! > sma200[e]! && sma200[e]! > sma200[e - o.smaRiseBars]!)) return null;
  const atrPct = (100 * atr14[e]!) / close[e]!;
  if (!(atrPct > 0)) return null;
  const swing = Math.min(o.maxSwingPct, Math.max(o.minSwingPct, atrPct)) / 100;
  const floor = 1 - o.maxDepthPct / 100;
  let top = -Infinity, bottom = Infinity, closeAfter = -Infinity, found = false;
  for (let j = e; j >= o.peakBars && e - j < o.maxBars; j--) {
    if (high[j]! > top) top = high[j]!;
    if (low[j]! < bottom) bottom = low[j]!;
    if (bottom < top * floor) break;
    const unbroken = high[j]! >= closeAfter;
    if (close[j]! > closeAfter) closeAfter = close[j]!;
    if (!unbroken || e - j + 1 < o.minBars || !topsPriorBars(high, j, o.peakBars)) continue;
    const n = findContractions(input, j, e, swing, o, work.highs, work.lows);
    const pivot = vcpPivot(input, e, n, work.highs, work.lows, o);
    if (Number.isNaN(pivot)) continue;
    out.start = work.highs[0]!; // the base starts at the first contraction's high
    out.count = n;
    out.pivot = pivot;
    for (let k = 0; k < n; k++) {
      out.highs[k] = work.highs[k]!;
      out.lows[k] = work.lows[k]!;
    }
    found = true;
  }
  return found ? out : null;
}

function buildMatch(input: PatternInput, o: VcpOptions, fit: VcpFit, end: number): PatternMatch {
  const { high, low, close, volume } = input.bars;
  const { start, count: n, highs, lows, pivot } = fit;
  const depths: number[] = [];
  for (let k = 0; k < n; k++) depths.push(100 * swingDepth(high, low, highs[k]!, lows[k]!));
  const baseHigh = high[argMaxHigh(high, start, end)]!;
  const baseLow = low[lows[0]!]!;
  const depthPct = pctBelow(baseHigh, baseLow);
  const lastLow = low[lows[n - 1]!]!;
  const stopLoss = cappedStop(lastLow, pivot, o.maxStopPct);
  const target1 = pivot + (baseHigh - baseLow);
  const dryUp = meanVolume(volume, highs[n - 1]!, end) / meanVolume(volume, start, lows[0]!);
  let ratioSum = 0;
  for (let k = 1; k < n; k++) ratioSum += depths[k]! / depths[k - 1]!;
  const meanRatio = ratioSum / (n - 1);
  const { sma150, sma200 } = input.ind;
  const smaRisePct = pctChange(sma200[end - o.smaRiseBars]!, sma200[end]!);
  const lengthBars = end - start + 1;
  const breakout = findBreakout(input, end, pivot, 'long');

  const quality = unit(
    0.25 * unit(1 - Math.abs(meanRatio - 0.5) / 0.4) +
      0.25 * unit((o.maxLastDepthPct - depths[n - 1]!) / (o.maxLastDepthPct - 3)) +
      0.25 * unit((1 - dryUp) / 0.5) +
      0.15 * (n >= 3 && n <= 4 ? 1 : 0.7) +
      0.1 * (depths[0]! <= 35 ? 1 : 0.5),
  );
  // the sentences only when asked for (`PatternInput.brief`: a caller that reads the levels alone)
  const reasons = input.brief
    ? []
    : [
        `${n} contractions: ${depths.map((d) => `${fmt1(d)}%`).join(' → ')}`,
        `base depth ${fmt1(depthPct)}% over ${weeksText(lengthBars)} (${lengthBars} bars)`,
        `volume in the last contraction ${fmt1(dryUp)}× the first's`,
        `Stage 2: close ${fmtPrice(close[end]!)} above the 150-day (${fmtPrice(sma150[end]!)}) and 200-day (${fmtPrice(sma200[end]!)}) averages, the 200-day up ${fmt1(smaRisePct)}% in ${weeksText(o.smaRiseBars)}`,
        pivotText(breakout, pivot, 'long', 'day', "the last contraction's high"),
        cappedStopText(stopLoss, lastLow, o.maxStopPct, "the last contraction's low", 'the 7–8% loss limit'),
        baseMeasuredMoveText(pivot, baseHigh - baseLow, target1),
      ];
  return {
    patternType: 'vcp',
    patternFamily: 'base',
    direction: 'long',
    pivot,
    target1,
    stopLoss,
    geometry: { start, end, depthPct, lengthBars, contractions: n },
    breakout,
    quality,
    reasons,
  };
}

const newFit = (): VcpFit => ({ start: 0, highs: new Int32Array(CONTRACTION_STACK), lows: new Int32Array(CONTRACTION_STACK), count: 0, pivot: 0 });

/**
 * A VCP detector; `vcp` is `vcpDetector()` with the daily defaults.
 * @throws RangeError for options that cannot describe a VCP.
 */
export function vcpDetector(options: Partial<VcpOptions> = {}): PatternDetector {
  const o: VcpOptions = { ...VCP_DEFAULTS, ...options };
  checkOptions(o);
  const fit = newFit(), work = newFit();
  // the 200-bar SMA exists from bar 199 and must be compared smaRiseBars earlier
  const lookback = 200 + o.smaRiseBars;
  return shapeDetector<VcpFit>({
    type: 'vcp',
    family: 'base',
    direction: 'long',
    lookback,
    recentBars: o.recentBars,
    firstBar: lookback,
    fit: (input, end) => fitVcp(input, end, o, fit, work),
    mayBreakOut: closesAbovePriorHigh, // the pivot is at least the last bar's high
    breaksOut: (input, found, b) => input.bars.close[b]! > found.pivot,
    instanceKey: (found) => found.start,
    build: (input, found, end) => buildMatch(input, o, found, end),
  });
}

export const vcp: PatternDetector = vcpDetector();
