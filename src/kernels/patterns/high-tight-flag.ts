/**
 * @module kernels/patterns/high-tight-flag
 * `high_tight_flag` (continuation, long): price at least nearly doubles in
 * under two months, then pauses in a flag that gives back at most 25%, and
 * triggers on a close above the highest peak (the pole's top).
 *
 * Definition: Thomas N. Bulkowski, "Encyclopedia of Chart Patterns", 2nd ed.
 * (Wiley, 2005), chapter "Flags, High and Tight", pp. 350–361: "price should
 * rise by at least 90% in less than 2 months"; the consolidation "usually
 * doesn't look like a flag or pennant, just a pause"; confirmation is a close
 * "above the highest peak in the pattern (including the flagpole)". William
 * J. O'Neil, "How to Make Money in Stocks" (4th ed., 2009), describes the same
 * pattern: up 100–120% in four to eight weeks, then a sideways correction of
 * 10–25% over three to five weeks.
 *
 * Parameters in bars (daily meaning): the pole gains ≥ 90% in ≤ 42 bars
 * (2 months); the flag is 5–20 bars (1–4 weeks) from the pole's top, its low at
 * most 25% under that top. Pivot = the top, stop = the flag's low,
 * target1 = pivot + pole length: Bulkowski measured a 69% average rise after
 * the breakout, and a pole of ≥ 90% added to the top is a rise of ≥ 47%
 * (his own rule, half the pole from the flag's low, often lands under the
 * pivot for a deep flag).
 *
 * Which instance: as for flags, a breakout in the last 5 bars (the flag ends
 * the bar before it) wins over a flag still forming at `asOf`.
 *
 * @example
 * const match = highTightFlag.detect({ bars, ind: computeIndicators(bars), asOf });
 * match?.reasons[0]; // => "pole +112.4% in 31 bars (20.10 → 42.69)"
 */
import {
  argMaxHigh,
  argMinLow,
  findBreakout,
  flagVolumeRatio,
  fmt1,
  fmtPrice,
  fmtSigned,
  measuredMoveText,
  onVolumeText,
  pctBelow,
  pctChange,
  unit,
  volumeComparisonText,
} from './common';
import { shapeDetector } from './instance';
import type { PatternDetector, PatternInput, PatternMatch } from './types';

/** Most bars from the pole's low to its top (2 months of daily bars). */
const MAX_POLE_BARS = 42;
/** Smallest pole gain, percent (Bulkowski's 90%). */
const MIN_POLE_PCT = 90;
/** Flag length, pole top included (1–4 weeks of daily bars). */
const MIN_FLAG_BARS = 5;
const MAX_FLAG_BARS = 20;
/** Deepest flag, percent under the pole's top. */
const MAX_FLAG_DEPTH_PCT = 25;
/** Bars after a breakout during which it is still reported. */
const RECENT_BARS = 5;

/** The pole of a high-tight flag: the bars of its low and its top. */
interface Pole {
  start: number;
  top: number;
}

/** The pole of the flag ending at `e` when it qualifies, else null. `out` is reused. */
function fitHighTightFlag(input: PatternInput, e: number, out: Pole): Pole | null {
  const { high, low } = input.bars;
  const t = argMaxHigh(high, Math.max(0, e - MAX_FLAG_BARS + 1), e);
  const n = e - t + 1;
  if (n < MIN_FLAG_BARS || t < 1) return null;
  const p0 = argMinLow(low, Math.max(0, t - MAX_POLE_BARS), t - 1);
  if (argMaxHigh(high, p0, t) !== t || pctChange(low[p0]!, high[t]!) < MIN_POLE_PCT) return null;
  const flagLow = low[argMinLow(low, t, e)]!;
  if (pctChange(high[t]!, flagLow) < -MAX_FLAG_DEPTH_PCT) return null;
  out.start = p0;
  out.top = t;
  return out;
}

function buildMatch(input: PatternInput, { start: p0, top: t }: Pole, end: number): PatternMatch {
  const { high, low, volume } = input.bars;
  const pivot = high[t]!;
  const poleLow = low[p0]!;
  const stopLoss = low[argMinLow(low, t, end)]!;
  const poleHeight = pivot - poleLow;
  const target1 = pivot + poleHeight;
  const polePct = pctChange(poleLow, pivot);
  const depthPct = pctBelow(pivot, stopLoss);
  const lengthBars = end - t + 1;
  const volumeDryUp = flagVolumeRatio(volume, p0, t, end);
  const breakout = findBreakout(input, end, pivot, 'long');
  // shallower flags and drier volume did better in Bulkowski's HTF study; O'Neil's flag runs 3–5 weeks
  const quality = unit(
    0.3 * unit((polePct - MIN_POLE_PCT) / 110) +
      0.35 * unit(1 - depthPct / MAX_FLAG_DEPTH_PCT) +
      0.2 * (Number.isFinite(volumeDryUp) ? unit((1.2 - volumeDryUp) / 0.7) : 0.5) +
      0.15 * (lengthBars >= 10 ? 1 : lengthBars / 10),
  );
  // the sentences only when asked for (`PatternInput.brief`: a caller that reads the levels alone)
  const reasons = input.brief
    ? []
    : [
        `pole ${fmtSigned(polePct)}% in ${t - p0} bars (${fmtPrice(poleLow)} → ${fmtPrice(pivot)})`,
        `flag ${lengthBars} bars, ${fmt1(depthPct)}% deep under the ${fmtPrice(pivot)} top`,
        volumeComparisonText(volumeDryUp, 'flag volume', "the pole's"),
        breakout.triggered
          ? `closed above the ${fmtPrice(pivot)} top${onVolumeText(breakout.volumeRatio, 'bar')}`
          : `pivot ${fmtPrice(pivot)} at the pole's top`,
        measuredMoveText('pole', poleHeight, target1),
      ];
  return {
    patternType: 'high_tight_flag',
    patternFamily: 'continuation',
    direction: 'long',
    pivot,
    target1,
    stopLoss,
    geometry: { start: t, end, depthPct, lengthBars, contractions: 0 },
    breakout,
    quality,
    reasons,
  };
}

const scratch: Pole = { start: 0, top: 0 };

export const highTightFlag: PatternDetector = shapeDetector<Pole>({
  type: 'high_tight_flag',
  family: 'continuation',
  direction: 'long',
  lookback: MAX_POLE_BARS + MAX_FLAG_BARS + RECENT_BARS,
  recentBars: RECENT_BARS,
  firstBar: 1,
  fit: (input, end) => fitHighTightFlag(input, end, scratch),
  // the pivot is the pole's top, and the first close above a given top is its breakout
  breaksOut: (input, pole, b) => input.bars.close[b]! > input.bars.high[pole.top]!,
  instanceKey: (pole) => pole.top,
  build: buildMatch,
});
