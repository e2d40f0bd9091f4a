/**
 * @module kernels/patterns/new-high-52w
 * `new_high_52w` (momentum, long): a close above every high of the previous
 * 252 bars (52 weeks of daily bars), the first such close after at least 20
 * bars (4 weeks) without one — a new high out of a pause, not one more day of
 * the same run.
 *
 * Definition: William J. O'Neil, "How to Make Money in Stocks" (4th ed.,
 * McGraw-Hill, 2009), "N = New Products, New Management, New Highs": leaders
 * make new price highs, and buying them as they emerge from a sound base is
 * the method; George & Hwang, "The 52-Week High and Momentum Investing"
 * (Journal of Finance 59(5), 2004) measured the effect. O'Neil wants the
 * breakout on volume at least 40–50% above normal; that enters `quality`, not
 * the test.
 *
 * Levels (momentum has no pattern to measure, so the levels are volatility
 * multiples, in ATR 14 at the event bar): pivot = the prior 52-week high
 * (`high252` of the bar before), stop = pivot − 2 ATR, target1 = pivot +
 * 4 ATR (twice the risk).
 *
 * The event bar is the breakout bar: geometry spans the pullback since the
 * prior 52-week high was set, from that bar to the bar before the event;
 * `findBreakout` from there reports the event bar. The latest event in the
 * last 5 bars is reported.
 *
 * @example
 * const match = newHigh52w.detect({ bars, ind: computeIndicators(bars), asOf });
 * match?.reasons[0]; // => "close 187.44 at a new 252-bar high, 1.2% above the prior high 185.20"
 */
import { argMaxHigh, argMinLow, closeLocation, findBreakout, fmt1, fmtPrice, pctBelow, pctChange, unit } from './common';
import { eventDetector } from './instance';
import type { PatternDetector, PatternInput, PatternMatch } from './types';

/** Bars in the year window (52 weeks of daily bars). */
const YEAR = 252;
/** Bars without a new-high close before an event (4 weeks). */
const QUIET_BARS = 20;
/** Stop and target distances from the pivot, in ATR 14. */
const STOP_ATR = 2;
const TARGET_ATR = 4;
/** Bars after the event during which it is still reported. */
const RECENT_BARS = 5;

/** Whether bar `b` closes above every high of the 252 bars before it. */
function closesAtNewHigh(input: PatternInput, b: number): boolean {
  const prior = input.ind.high252.at(b - 1)!;
  return prior > 0 && input.bars.close[b]! > prior;
}

/** A new high out of a pause at bar `b`, with an ATR to set the levels by. */
function isEvent(input: PatternInput, b: number): boolean {
  if (b < YEAR || !closesAtNewHigh(input, b)) return false;
  for (let j = b - 1; j >= b - QUIET_BARS; j--) if (closesAtNewHigh(input, j)) return false;
  return input.ind.atr14[b]! > 0;
}

function buildMatch(input: PatternInput, b: number): PatternMatch {
  const { bars, ind } = input;
  const pivot = ind.high252.at(b - 1)!;
  const atr = ind.atr14[b]!;
  const stopLoss = pivot - STOP_ATR * atr;
  const target1 = pivot + TARGET_ATR * atr;
  const end = b - 1;
  // the most recent bar that set the prior high: where the pause began
  let start = argMaxHigh(bars.high, b - YEAR, end);
  for (let i = end; i > start; i--) if (bars.high[i] === pivot) { start = i; break; }
  const pullbackLow = bars.low[argMinLow(bars.low, start, end)]!;
  const depthPct = pctBelow(pivot, pullbackLow);
  const lengthBars = end - start + 1;
  const breakout = findBreakout(input, end, pivot, 'long');
  const location = closeLocation(input, b);
  const extensionPct = pctChange(pivot, bars.close[b]!);
  const trendUp = bars.close[b]! > ind.sma50[b]! && ind.sma50[b]! > ind.sma200[b]!;
  const quality = unit(
    0.3 * (breakout.volumeRatio === null ? 0.5 : unit((breakout.volumeRatio - 1) / 0.8)) +
      0.2 * unit((lengthBars - 5) / 30) +
      0.15 * unit(1 - extensionPct / 5) +
      0.15 * location +
      0.2 * (trendUp ? 1 : 0),
  );
  // the sentences only when asked for (`PatternInput.brief`: a caller that reads the levels alone)
  const reasons = input.brief
    ? []
    : [
        `close ${fmtPrice(bars.close[b]!)} at a new 252-bar high, ${fmt1(extensionPct)}% above the prior high ${fmtPrice(pivot)}`,
        `prior high set ${lengthBars} bars earlier; pullback since ${fmt1(depthPct)}% deep`,
        breakout.volumeRatio === null ? 'no 50-bar volume average yet' : `volume ${fmt1(breakout.volumeRatio)}× the 50-bar average`,
        `close at ${Math.round(100 * location)}% of the bar's range${trendUp ? '; close > 50-bar SMA > 200-bar SMA' : ''}`,
        `ATR ${fmtPrice(atr)}: stop ${STOP_ATR} ATR at ${fmtPrice(stopLoss)}, target ${TARGET_ATR} ATR at ${fmtPrice(target1)}`,
      ];
  return {
    patternType: 'new_high_52w',
    patternFamily: 'momentum',
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

export const newHigh52w: PatternDetector = eventDetector({
  type: 'new_high_52w',
  family: 'momentum',
  direction: 'long',
  lookback: YEAR + QUIET_BARS + RECENT_BARS,
  recentBars: RECENT_BARS,
  firstBar: YEAR,
  isEvent,
  build: buildMatch,
});
