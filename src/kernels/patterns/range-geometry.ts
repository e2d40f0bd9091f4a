/**
 * @module kernels/patterns/range-geometry
 * The horizontal trading range that `range_breakout` and `range_breakdown`
 * share: at least `minBars` bars boxed between a ceiling and a floor no more
 * than `maxWidthAtr` ATRs (and `maxWidthPct` percent) apart, with price
 * crossing from one side to the other, broken by a close outside it on
 * volume.
 *
 * Definition: Thomas N. Bulkowski, "Encyclopedia of Chart Patterns", 2nd ed.
 * (Wiley, 2005), chapters "Rectangle Tops" and "Rectangle Bottoms": price
 * bounded by two horizontal trendlines, at least two touches of each, the
 * breakout a close beyond a trendline, and the measure rule adds the
 * rectangle's height to the breakout price (subtracts it going down). The
 * "close outside on volume" test follows Richard D. Wyckoff's sign of
 * strength out of a trading range (a breakout on expanding volume); we ask
 * for `minVolumeRatio` × the 50-bar average volume.
 *
 * How a range ending at bar `e` is measured:
 * - from `e` back, bars join the range while its high − low stays within
 *   `min(maxWidthAtr × ATR 14 at e, maxWidthPct % of the top)`; the range is
 *   the longest such run, `minBars..maxBars` bars long;
 * - a close outside it on volume after its first `minBars` bars was a
 *   breakout: the range restarts after that bar;
 * - it must be horizontal, not a slow channel: the least-squares line through
 *   its closes moves at most `maxDrift` of the width over the range;
 * - price must cross it: counting visits to its top quarter (a high there) and
 *   bottom quarter (a low there), at least `minCrossings` switches between
 *   them (2 = top, bottom, top or bottom, top, bottom);
 * - pivot = the top (breakout) or the bottom (breakdown); target1 = pivot ±
 *   height; stop = the range's midpoint: a close back in the far half of the
 *   box says the break failed, and it keeps the risk at half the reward.
 *
 * Which instance: a qualifying breakout (close beyond the pivot on volume) in
 * the last `recentBars` bars, the range ending the bar before it, wins over a
 * range still intact at `asOf`; of two breaks of one range, the first. A close outside on thin volume is not a
 * breakout: the box then simply widens to hold it, if it still can.
 *
 * Cost: at most `recentBars + 1` backward extensions of `maxBars` bars.
 */
import { checkCounts, findBreakout, fmt1, fmtPrice, lateVolumeRatio, measuredMoveText, pctBelow, unit, volumeComparisonText, volumeRatio } from './common';
import { shapeDetector } from './instance';
import type { PatternDetector, PatternInput, PatternMatch } from './types';
import type { Direction, PatternType } from '../../domain/signal';

export interface RangeOptions {
  /** Fewest and most bars in the range (20..120 ≈ 4 weeks to 6 months of daily bars). */
  minBars: number;
  maxBars: number;
  /** Widest range in ATRs (ATR 14 at its last bar) and in percent of its top. */
  maxWidthAtr: number;
  maxWidthPct: number;
  /** Most the closes' regression line may move across the range, as a fraction of its width. */
  maxDrift: number;
  /** Fewest switches between the top and bottom quarters. */
  minCrossings: number;
  /** Breakout volume over the 50-bar average. */
  minVolumeRatio: number;
  /** Bars after a breakout during which the pattern is still reported as triggered. */
  recentBars: number;
}

/** Daily-bar defaults. */
export const RANGE_DEFAULTS: Readonly<RangeOptions> = Object.freeze({
  minBars: 20,
  maxBars: 120,
  maxWidthAtr: 5,
  maxWidthPct: 15,
  maxDrift: 0.5,
  minCrossings: 2,
  minVolumeRatio: 1.5,
  recentBars: 5,
});

interface RangeFit {
  start: number;
  top: number;
  bottom: number;
  crossings: number;
  topTouches: number;
  bottomTouches: number;
}

function checkOptions(o: RangeOptions): void {
  checkCounts('range', [o.minBars, o.maxBars, o.minCrossings, o.recentBars]);
  if (o.minBars > o.maxBars || o.minBars < 3) throw new RangeError('range: need 3 ≤ minBars ≤ maxBars');
  if (!(o.maxWidthAtr > 0 && o.maxWidthPct > 0 && o.maxDrift > 0 && o.minVolumeRatio >= 0)) throw new RangeError('range: widths, drift and volume ratio must be positive');
}

/** Measures the longest range ending at `e`, or null. */
function fitRange(input: PatternInput, e: number, o: RangeOptions, out: RangeFit): RangeFit | null {
  const { high, low, close } = input.bars;
  const atr = input.ind.atr14[e]!;
  if (!(atr > 0)) return null;
  const atrCap = o.maxWidthAtr * atr;
  let top = high[e]!, bottom = low[e]!, start = e;
  const from = Math.max(0, e - o.maxBars + 1);
  for (let i = e - 1; i >= from; i--) {
    const t = high[i]! > top ? high[i]! : top;
    const b = low[i]! < bottom ? low[i]! : bottom;
    if (t - b > atrCap || t - b > (o.maxWidthPct / 100) * t) break;
    top = t; bottom = b; start = i;
  }
  // a range that already broke out on volume ends there: only the box after that break can still be forming
  let runTop = high[start]!, runBottom = low[start]!;
  for (let j = start + 1; j <= e; j++) {
    const outside = close[j]! > runTop || close[j]! < runBottom;
    if (outside && j - start >= o.minBars && (volumeRatio(input, j) ?? 0) >= o.minVolumeRatio) {
      start = j + 1;
      if (start > e) return null;
      runTop = high[start]!; runBottom = low[start]!;
      j = start;
      continue;
    }
    if (high[j]! > runTop) runTop = high[j]!;
    if (low[j]! < runBottom) runBottom = low[j]!;
  }
  top = runTop; bottom = runBottom;
  const n = e - start + 1;
  const width = top - bottom;
  // a box with no height is a price that did not trade (stale prints), not a range: its stop, target and pivot would coincide
  if (n < o.minBars || !(width > 0)) return null;
  // drift: slope of the closes' least-squares line times the range's length
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let i = start; i <= e; i++) {
    const x = i - start;
    sx += x; sy += close[i]!; sxx += x * x; sxy += x * close[i]!;
  }
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  if (Math.abs(slope * (n - 1)) > o.maxDrift * width) return null;
  // crossings between the top and bottom quarters, and separate visits to each
  const upper = top - width / 4, lower = bottom + width / 4;
  let side = 0, crossings = 0, topTouches = 0, bottomTouches = 0;
  for (let i = start; i <= e; i++) {
    if (high[i]! >= upper && side !== 1) {
      if (side === -1) crossings++;
      side = 1; topTouches++;
    } else if (low[i]! <= lower && side !== -1) {
      if (side === 1) crossings++;
      side = -1; bottomTouches++;
    }
  }
  if (crossings < o.minCrossings) return null;
  out.start = start;
  out.top = top;
  out.bottom = bottom;
  out.crossings = crossings;
  out.topTouches = topTouches;
  out.bottomTouches = bottomTouches;
  return out;
}

function buildMatch(input: PatternInput, type: PatternType, direction: Direction, o: RangeOptions, fit: RangeFit, end: number): PatternMatch {
  const long = direction === 'long';
  const height = fit.top - fit.bottom;
  const pivot = long ? fit.top : fit.bottom;
  const target1 = long ? pivot + height : pivot - height;
  const stopLoss = (fit.top + fit.bottom) / 2;
  const lengthBars = end - fit.start + 1;
  const depthPct = pctBelow(fit.top, fit.bottom);
  const atr = input.ind.atr14[end]!;
  const widthAtr = height / atr;
  const breakout = findBreakout(input, end, pivot, direction);
  const half = Math.floor(lengthBars / 2);
  const volumeTrend = lateVolumeRatio(input.bars.volume, fit.start, end, half);
  const touches = long ? fit.topTouches : fit.bottomTouches;
  const quality = unit(
    0.3 * unit(1.3 - widthAtr / o.maxWidthAtr) +
      0.25 * unit((lengthBars - o.minBars) / (2 * o.minBars)) +
      0.25 * unit((fit.crossings - 1) / 4) +
      0.2 * (breakout.volumeRatio === null ? 0.5 : unit((breakout.volumeRatio - 1) / 1.5)),
  );
  const side = long ? 'top' : 'bottom';
  // the sentences only when asked for (`PatternInput.brief`: a caller that reads the levels alone)
  const reasons = input.brief
    ? []
    : [
        `range ${lengthBars} bars between ${fmtPrice(fit.bottom)} and ${fmtPrice(fit.top)}, ${fmt1(depthPct)}% (${fmt1(widthAtr)} ATR) wide`,
        `${fit.crossings} crossings; ${touches} visits to the ${side} quarter`,
        volumeComparisonText(volumeTrend, 'volume in the second half', "the first half's"),
        breakout.triggered
          ? `closed ${long ? 'above' : 'below'} the ${fmtPrice(pivot)} ${side} on volume ${fmt1(breakout.volumeRatio ?? NaN)}× the 50-bar average`
          : `pivot ${fmtPrice(pivot)} at the range ${side}`,
        `${measuredMoveText('height', height, target1)}; stop at the midpoint ${fmtPrice(stopLoss)}`,
      ];
  return {
    patternType: type,
    patternFamily: 'range',
    direction,
    pivot,
    target1,
    stopLoss,
    geometry: { start: fit.start, end, depthPct, lengthBars, contractions: touches },
    breakout,
    quality,
    reasons,
  };
}

/**
 * A range detector for one side: `'long'` reports breakouts through the top,
 * `'short'` breakdowns through the bottom.
 * @throws RangeError for options that cannot describe a range.
 */
export function rangeDetector(type: PatternType, direction: Direction, options: Partial<RangeOptions> = {}): PatternDetector {
  const o: RangeOptions = { ...RANGE_DEFAULTS, ...options };
  checkOptions(o);
  const sign = direction === 'long' ? 1 : -1;
  const scratch: RangeFit = { start: 0, top: 0, bottom: 0, crossings: 0, topTouches: 0, bottomTouches: 0 };
  return shapeDetector<RangeFit>({
    type,
    family: 'range',
    direction,
    lookback: o.maxBars + o.recentBars,
    recentBars: o.recentBars,
    firstBar: 1,
    fit: (input, end) => fitRange(input, end, o, scratch),
    // a close beyond the pivot on volume; of two breaks of one range (same start), the first is kept
    breaksOut: (input, fit, b) => {
      const pivot = sign === 1 ? fit.top : fit.bottom;
      return sign * input.bars.close[b]! > sign * pivot && (volumeRatio(input, b) ?? 0) >= o.minVolumeRatio;
    },
    instanceKey: (fit) => fit.start,
    build: (input, fit, end) => buildMatch(input, type, direction, o, fit, end),
  });
}
