/**
 * @module kernels/patterns/gap-and-go
 * `gap_and_go` (momentum, long): a bar that opens at least 3% and at least
 * 1 ATR above the prior bar's high, trades at least 2× the 50-bar average
 * volume, never fills the gap (its low stays above the prior high) and closes
 * in the upper half of its range — the gap held and went.
 *
 * Definitions: Kristjan Kullamägi's "episodic pivot" setup, as he describes it
 * on qullamaggie.com: a stock gapping up on news on volume far above normal,
 * bought at the open or the opening-range high, stopped at the low of the day. Thomas N. Bulkowski,
 * "Encyclopedia of Chart Patterns", 2nd ed. (Wiley, 2005), chapter "Gaps":
 * an up gap is a bar whose low is above the prior bar's high; a breakaway gap
 * comes on high volume and stays open. Kullamägi's episodic pivots are
 * usually 10% or more on small caps; 3% and 1 ATR suit the S&P 500 and
 * Nasdaq-100 names this service scans, and the gap's size enters `quality`.
 *
 * Levels: pivot = the prior bar's high (the gap's lower edge, so the event bar
 * is the breakout bar); stop = the event bar's low (Kullamägi's low of the
 * day); target1 = the event close plus twice the risk from that close (at
 * least 1 ATR of risk, so a bar that closes on its low still gets a target).
 * A gap has no pattern height to measure.
 *
 * Geometry: the prior bar (`start = end = b − 1`), depth = that bar's range.
 * The latest event in the last 5 bars is reported.
 *
 * @example
 * const match = gapAndGo.detect({ bars, ind: computeIndicators(bars), asOf });
 * match?.reasons[0]; // => "gap +5.2% over the prior high 101.30 (open 106.57), 2.1 ATR"
 */
import { closeLocation, findBreakout, fmt1, fmtPrice, fmtSigned, pctBelow, pctChange, unit, volumeRatio } from './common';
import { eventDetector } from './instance';
import type { PatternDetector, PatternInput, PatternMatch } from './types';

/** Smallest gap from the prior high to the open: percent and ATRs (ATR 14 of the prior bar). */
const MIN_GAP_PCT = 3;
const MIN_GAP_ATR = 1;
/** Smallest event volume over the 50-bar average. */
const MIN_VOLUME_RATIO = 2;
/** Lowest close location in the bar's range (0 = low, 1 = high). */
const MIN_CLOSE_LOCATION = 0.5;
/** Reward-to-risk of target1 from the event close. */
const TARGET_R = 2;
/** Bars after the event during which it is still reported. */
const RECENT_BARS = 5;

function isEvent(input: PatternInput, b: number): boolean {
  const { open, high, low } = input.bars;
  const priorHigh = high[b - 1]!;
  const atr = input.ind.atr14[b - 1]!;
  if (!(atr > 0) || low[b]! <= priorHigh) return false; // no gap, or the gap filled
  const gap = open[b]! - priorHigh;
  if (pctChange(priorHigh, open[b]!) < MIN_GAP_PCT || gap < MIN_GAP_ATR * atr) return false;
  return (volumeRatio(input, b) ?? 0) >= MIN_VOLUME_RATIO && closeLocation(input, b) >= MIN_CLOSE_LOCATION;
}

function buildMatch(input: PatternInput, b: number): PatternMatch {
  const { open, high, low, close } = input.bars;
  const pivot = high[b - 1]!;
  const atr = input.ind.atr14[b - 1]!;
  const stopLoss = low[b]!;
  const risk = Math.max(close[b]! - stopLoss, atr);
  const target1 = close[b]! + TARGET_R * risk;
  const gapPct = pctChange(pivot, open[b]!);
  const gapAtr = (open[b]! - pivot) / atr;
  const breakout = findBreakout(input, b - 1, pivot, 'long');
  const ratio = breakout.volumeRatio ?? MIN_VOLUME_RATIO;
  const location = closeLocation(input, b);
  const heldOpen = close[b]! >= open[b]!;
  // bigger gaps on bigger volume are the episodic pivots Kullamägi trades
  const quality = unit(
    0.3 * unit((gapPct - MIN_GAP_PCT) / 7) +
      0.3 * unit((ratio - MIN_VOLUME_RATIO) / 3) +
      0.25 * unit((location - MIN_CLOSE_LOCATION) / (1 - MIN_CLOSE_LOCATION)) +
      0.15 * (heldOpen ? 1 : 0),
  );
  const reasons = [
    `gap ${fmtSigned(gapPct)}% over the prior high ${fmtPrice(pivot)} (open ${fmtPrice(open[b]!)}), ${fmt1(gapAtr)} ATR`,
    `volume ${fmt1(ratio)}× the 50-bar average`,
    `closed at ${Math.round(100 * location)}% of its range${heldOpen ? ', above the open' : ''}; gap unfilled (low ${fmtPrice(low[b]!)})`,
    `stop at the day's low ${fmtPrice(stopLoss)}; target ${TARGET_R}R from the close → ${fmtPrice(target1)}`,
  ];
  return {
    patternType: 'gap_and_go',
    patternFamily: 'momentum',
    direction: 'long',
    pivot,
    target1,
    stopLoss,
    geometry: { start: b - 1, end: b - 1, depthPct: pctBelow(high[b - 1]!, low[b - 1]!), lengthBars: 1, contractions: 0 },
    breakout,
    quality,
    reasons,
  };
}

export const gapAndGo: PatternDetector = eventDetector({
  type: 'gap_and_go',
  family: 'momentum',
  direction: 'long',
  lookback: 51 + RECENT_BARS,
  recentBars: RECENT_BARS,
  firstBar: 1,
  isEvent,
  build: buildMatch,
});
