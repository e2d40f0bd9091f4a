/**
 * @module kernels/patterns/flag-geometry
 * The flag that `bull_flag` and `bear_flag` share: a sharp move (the pole),
 * then a short, tight channel that drifts against it (the flag), broken by a
 * close through the flag's far channel line in the pole's direction.
 *
 * Definition: Thomas N. Bulkowski, "Encyclopedia of Chart Patterns", 2nd ed.
 * (Wiley, 2005), chapter "Flags", identification guidelines: the flagpole is
 * "unusually steep and lasts several days"; the flag "looks like a small
 * rectangle often tilted against the prevailing price trend", bounded by two
 * parallel or near-parallel trendlines; flags are "short, less than 3 weeks
 * long" (longer ones are rectangles or channels); volume trends down in the
 * flag. Measured move: a flag "flies at half-mast", so the pole's length is
 * added to the breakout (Edwards & Magee, "Technical Analysis of Stock
 * Trends", chapter "Flags and Pennants"); Bulkowski's own rule (pole times the
 * 64% that reach it, from the flag's low) is the more cautious reading.
 *
 * How a flag ending at bar `e` is measured (long side; the short side is the
 * same arithmetic on negated prices):
 * - the pole top `t` is the highest high of the last `maxFlagBars` bars and the
 *   flag is `[t, e]`, `minFlagBars..maxFlagBars` bars long;
 * - the pole start is the lowest low of the `maxPoleBars` bars before `t`; the
 *   pole must gain `minPolePct` percent and `minPoleAtr` ATRs (ATR 14 at `t`),
 *   and `t` must be the highest high since the pole start;
 * - the flag's midpoints `(high + low) / 2` get a least-squares line; its slope
 *   must not point with the pole; the channel is that line shifted up to the
 *   highest high and down to the lowest low, and its width must stay within
 *   `maxChannel` of the pole; the flag's low may give back at most
 *   `maxRetrace` of the pole;
 * - the pivot is the upper channel line extended to bar `e + 1`, the stop is
 *   the flag's low, target1 is the pivot plus the pole's length (a bear flag
 *   whose target would fall to zero or below is rejected: such a drop is a
 *   collapse or an unadjusted corporate action, not a pole); a flag whose
 *   pivot does not clear its own low is rejected too, so stop < pivot < target1.
 *
 * Which instance: a breakout in the last `recentBars` bars (the flag then ends
 * the bar before it) wins over a flag still forming at `asOf`, because the
 * breakout is what a scan tracks. A flag (one pole top) breaks out once, at
 * its first close through its line: a later close through the line of the
 * same flag stretched over that break is not a new breakout, and a flag that
 * broke out before the window is neither triggered nor forming any more.
 *
 * Cost: at most `recentBars + maxFlagBars + 1` flag fits of
 * `maxPoleBars + maxFlagBars` bars each; nothing is allocated until a match is
 * built.
 */
import { argMaxHigh, argMinLow, checkAsOf, checkCounts, findBreakout, flagVolumeRatio, fmt1, fmtPrice, fmtSigned, measuredMoveText, pctBelow, pctChange, pivotText, unit, volumeComparisonText } from './common';
import { memoFit, type PatternDetector, type PatternInput, type PatternMatch } from './types';
import type { Direction, PatternType } from '../../domain/signal';

export interface FlagOptions {
  /** Most bars from the pole's start to its extreme (15 ≈ 3 weeks of daily bars). */
  maxPoleBars: number;
  /** Smallest pole move, percent of the pole's start price. */
  minPolePct: number;
  /** Smallest pole move in ATRs (ATR 14 at the pole's extreme): steep for this stock, not only in percent. */
  minPoleAtr: number;
  /** Fewest and most bars in the flag, the pole's extreme included (4..15 ≈ 1 to 3 weeks daily). */
  minFlagBars: number;
  maxFlagBars: number;
  /** Deepest the flag may retrace the pole, as a fraction of the pole. */
  maxRetrace: number;
  /** Widest channel (upper line − lower line) as a fraction of the pole. */
  maxChannel: number;
  /** Bars after a breakout during which the pattern is still reported as triggered. */
  recentBars: number;
}

/** Daily-bar defaults for both flags (Bulkowski's "less than 3 weeks"; pole ≥ 15% in ≤ 3 weeks). */
export const FLAG_DEFAULTS: Readonly<FlagOptions> = Object.freeze({
  maxPoleBars: 15,
  minPolePct: 15,
  minPoleAtr: 4,
  minFlagBars: 4,
  maxFlagBars: 15,
  maxRetrace: 0.5,
  maxChannel: 0.45,
  recentBars: 5,
});

/** The measured flag ending at one bar, in signed price space (prices × +1 long, × −1 short). */
interface FlagFit {
  poleStart: number;
  poleTop: number;
  /** Pole length in price, positive. */
  poleHeight: number;
  /** Signed pivot: the far channel line at `end + 1`. */
  pivotS: number;
  /** Signed extreme of the flag against the pole (its low for a bull flag). */
  flagLowS: number;
  /** Channel slope in price per bar, real sign. */
  slope: number;
  channel: number;
  retrace: number;
}

function checkOptions(o: FlagOptions): void {
  checkCounts('flag', [o.maxPoleBars, o.minFlagBars, o.maxFlagBars, o.recentBars]);
  if (o.minFlagBars < 3 || o.minFlagBars > o.maxFlagBars) throw new RangeError('flag: need 3 ≤ minFlagBars ≤ maxFlagBars');
  if (!(o.minPolePct > 0 && o.minPoleAtr >= 0 && o.maxRetrace > 0 && o.maxRetrace < 1 && o.maxChannel > 0)) {
    throw new RangeError('flag: minPolePct > 0, minPoleAtr ≥ 0, 0 < maxRetrace < 1, maxChannel > 0');
  }
}

/** Measures the flag ending at `e`, or null when the bars there are not one. `out` is reused. */
function fitFlag(input: PatternInput, e: number, sign: 1 | -1, o: FlagOptions, out: FlagFit): FlagFit | null {
  const { high, low } = input.bars;
  const long = sign === 1;
  const flagFrom = Math.max(0, e - o.maxFlagBars + 1);
  const t = long ? argMaxHigh(high, flagFrom, e) : argMinLow(low, flagFrom, e);
  const n = e - t + 1;
  if (n < o.minFlagBars || t < 1) return null;
  const poleFrom = Math.max(0, t - o.maxPoleBars);
  const p0 = long ? argMinLow(low, poleFrom, t - 1) : argMaxHigh(high, poleFrom, t - 1);
  // the pole top must be the extreme since the pole began (no earlier, higher peak)
  if ((long ? argMaxHigh(high, p0, t) : argMinLow(low, p0, t)) !== t) return null;
  const top = long ? high[t]! : low[t]!;
  const start = long ? low[p0]! : high[p0]!;
  const poleHeight = Math.abs(top - start);
  const atr = input.ind.atr14[t]!;
  if (!(atr > 0) || Math.abs(pctChange(start, top)) < o.minPolePct || poleHeight < o.minPoleAtr * atr) return null;

  // least-squares line through the flag's midpoints, x = i − t, in signed space
  let sx = 0, sy = 0, sxx = 0, sxy = 0, lowS = Infinity;
  for (let i = t; i <= e; i++) {
    const x = i - t;
    const y = (sign * (high[i]! + low[i]!)) / 2;
    sx += x; sy += y; sxx += x * x; sxy += x * y;
    const bottom = long ? low[i]! : -high[i]!;
    if (bottom < lowS) lowS = bottom;
  }
  const slopeS = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  if (slopeS > 0) return null; // drifting with the pole: not a flag
  const intercept = (sy - slopeS * sx) / n;
  let up = -Infinity, down = -Infinity;
  for (let i = t; i <= e; i++) {
    const line = intercept + slopeS * (i - t);
    const topS = long ? high[i]! : -low[i]!;
    const bottomS = long ? low[i]! : -high[i]!;
    if (topS - line > up) up = topS - line;
    if (line - bottomS > down) down = line - bottomS;
  }
  const channel = up + down;
  const retrace = (sign * top - lowS) / poleHeight;
  if (retrace > o.maxRetrace || channel > o.maxChannel * poleHeight) return null;
  const pivotS = intercept + slopeS * n + up;
  // a channel so steep that its far line at the next bar falls below the flag's
  // own low (a bull flag; above its high, a bear flag) is a slide, not a flag:
  // a close through that line breaks out of nothing, and the stop would sit
  // beyond the trigger (issue 14: VRSN's bull flag of 2022-08-24, IFF's bear flag of 2023-08-23)
  if (pivotS <= lowS) return null;
  // a measured move through zero is a collapse (or an unadjusted spin-off), not a pole
  if (sign * (pivotS + poleHeight) <= 0) return null;
  out.poleStart = p0;
  out.poleTop = t;
  out.poleHeight = poleHeight;
  out.pivotS = pivotS;
  out.flagLowS = lowS;
  out.slope = sign * slopeS;
  out.channel = channel;
  out.retrace = retrace;
  return out;
}

function buildMatch(input: PatternInput, type: PatternType, direction: Direction, o: FlagOptions, fit: FlagFit, end: number): PatternMatch {
  const { high, low, volume } = input.bars;
  const sign = direction === 'long' ? 1 : -1;
  const t = fit.poleTop;
  const pivot = sign * fit.pivotS;
  const stopLoss = sign * fit.flagLowS;
  const target1 = pivot + sign * fit.poleHeight;
  const flagHigh = high[argMaxHigh(high, t, end)]!;
  const flagLow = low[argMinLow(low, t, end)]!;
  const poleStartPrice = direction === 'long' ? low[fit.poleStart]! : high[fit.poleStart]!;
  const poleEndPrice = direction === 'long' ? high[t]! : low[t]!;
  const polePct = pctChange(poleStartPrice, poleEndPrice);
  const poleBars = t - fit.poleStart;
  const lengthBars = end - t + 1;
  const depthPct = pctBelow(flagHigh, flagLow);
  const slopePct = (100 * fit.slope) / poleEndPrice;
  const channelOfPole = fit.channel / fit.poleHeight;
  const volumeDryUp = flagVolumeRatio(volume, fit.poleStart, t, end);
  const breakout = findBreakout(input, end, pivot, direction);

  const quality = unit(
    0.3 * unit((Math.abs(polePct) - o.minPolePct) / (2 * o.minPolePct)) +
      0.25 * unit(1 - fit.retrace / o.maxRetrace) +
      0.25 * unit(1 - channelOfPole / o.maxChannel) +
      0.2 * (Number.isFinite(volumeDryUp) ? unit((1.2 - volumeDryUp) / 0.6) : 0.5),
  );
  const side = direction === 'long' ? 'upper' : 'lower';
  // the sentences only when asked for (`PatternInput.brief`: a caller that reads the levels alone)
  const reasons = input.brief
    ? []
    : [
        `pole ${fmtSigned(polePct)}% in ${poleBars} bars (${fmtPrice(poleStartPrice)} → ${fmtPrice(poleEndPrice)})`,
        `flag ${lengthBars} bars, ${fmt1(depthPct)}% deep, sloping ${fmtSigned(slopePct)}%/bar`,
        `flag gives back ${fmt1(100 * fit.retrace)}% of the pole in a channel ${fmt1(100 * channelOfPole)}% of the pole wide`,
        volumeComparisonText(volumeDryUp, 'flag volume', "the pole's"),
        pivotText(breakout, pivot, direction, 'bar', `the ${side} flag line`),
        measuredMoveText('pole', fit.poleHeight, target1),
      ];
  return {
    patternType: type,
    patternFamily: 'continuation',
    direction,
    pivot,
    target1,
    stopLoss,
    geometry: { start: t, end, depthPct, lengthBars, contractions: 0 },
    breakout,
    quality,
    reasons,
  };
}

/**
 * A flag detector for one side. `bull_flag` is `flagDetector('bull_flag', 'long')`.
 * @throws RangeError for options that cannot describe a flag.
 */
export function flagDetector(type: PatternType, direction: Direction, options: Partial<FlagOptions> = {}): PatternDetector {
  const o: FlagOptions = { ...FLAG_DEFAULTS, ...options };
  checkOptions(o);
  const sign = direction === 'long' ? 1 : -1;
  const scratch: FlagFit = { poleStart: 0, poleTop: 0, poleHeight: 0, pivotS: 0, flagLowS: 0, slope: 0, channel: 0, retrace: 0 };
  const tops = new Int32Array(o.recentBars);
  const measure = (input: PatternInput, e: number) => fitFlag(input, e, sign, o, scratch);
  return {
    type,
    family: 'continuation',
    direction,
    lookback: o.maxPoleBars + o.maxFlagBars + o.recentBars + 14, // pole, flag, breakout window, ATR 14 warm-up
    detect(input) {
      checkAsOf(input, type);
      const { asOf } = input;
      const close = input.bars.close;
      const windowStart = Math.max(1, asOf - o.recentBars + 1);
      // a fit reads bars up to its end only: a memo (the replay) keeps it for later bars
      const fitAt = (e: number) => memoFit(input, scratch, e, measure);
      // the first bar in [from + 1, to + 1] closing through the line of a flag with pole top t, or −1
      const firstBreak = (t: number, from: number, to: number): number => {
        for (let e = Math.max(from, t + o.minFlagBars - 1); e <= to; e++) {
          const fit = fitAt(e);
          if (fit && fit.poleTop === t && sign * close[e + 1]! > fit.pivotS) return e + 1;
        }
        return -1;
      };
      // breakouts first (b is the breakout bar, the flag ends at b − 1); a flag counts once, at its first break
      let bestEnd = -1, seen = 0;
      const wasSeen = (t: number) => {
        for (let k = 0; k < seen; k++) if (tops[k] === t) return true;
        return false;
      };
      for (let b = windowStart; b <= asOf; b++) {
        const fit = fitAt(b - 1);
        if (!fit || !(sign * close[b]! > fit.pivotS)) continue;
        const t = fit.poleTop;
        if (wasSeen(t)) continue;
        tops[seen++] = t;
        if (firstBreak(t, 0, windowStart - 2) < 0) bestEnd = b - 1; // else it broke before the window: stale
      }
      if (bestEnd >= 0) return buildMatch(input, type, direction, o, fitAt(bestEnd)!, bestEnd);
      const forming = fitAt(asOf);
      if (!forming) return null;
      const t = forming.poleTop;
      if (wasSeen(t) || firstBreak(t, 0, asOf - 1) >= 0) return null; // already broke out
      return buildMatch(input, type, direction, o, fitAt(asOf)!, asOf);
    },
  };
}
