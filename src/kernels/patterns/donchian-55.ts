/**
 * @module kernels/patterns/donchian-55
 * `donchian_55` (range, either direction): the Turtles' System 2 entry — a
 * close above the highest high of the previous 55 bars goes long, a close
 * below the lowest low of the previous 55 bars goes short — taken only when
 * System 2 would be flat, i.e. a fresh breakout rather than one more bar of
 * the same trend.
 *
 * Definition: Curtis M. Faith, "Way of the Turtle" (McGraw-Hill, 2007),
 * chapter "The Original Turtle Trading Rules" and its appendix: System 2
 * enters on a breakout of the 55-day high or low and exits on a 20-day
 * breakout the other way; the stop is 2N from the entry, N being the 20-day
 * exponential average of the true range (Richard Dennis and William Eckhardt's
 * rules). Departures, on purpose:
 * - N here is Wilder's ATR 14 (`atr14`), the volatility the rest of the scan
 *   uses, not the Turtles' 20-day N;
 * - the Turtles entered intraday when price touched the channel; a signal here
 *   needs the bar's close beyond it, as every other detector's breakout does;
 * - the Turtles had no profit target; target1 = pivot ± 4N, twice the 2N
 *   risk, so the ledger can score the outcome.
 *
 * Freshness: the latest earlier close beyond the same channel in the previous
 * 55 bars must have been followed by a close through the opposite 20-bar
 * channel (System 2's exit), else this bar continues that position.
 *
 * The event bar is the breakout bar: geometry spans the 55-bar channel
 * `[b − 55, b − 1]`, the pivot is that channel's edge, and `findBreakout`
 * from `b − 1` reports bar `b`. The latest event in the last 5 bars is
 * reported, whichever side it broke.
 *
 * @example
 * const match = donchian55.detect({ bars, ind: computeIndicators(bars), asOf });
 * match?.direction; // => 'long' when the close cleared the prior 55-bar high
 */
import { checkAsOf, closeLocation, findBreakout, fmt1, fmtPrice, pctBelow, unit } from './common';
import type { PatternDetector, PatternInput, PatternMatch } from './types';
import type { Direction } from '../../domain/signal';

/** Channel length (System 2). */
const CHANNEL = 55;
/** Stop distance and target distance in N (ATR 14). */
const STOP_N = 2;
const TARGET_N = 4;
/** Bars after the event during which it is still reported. */
const RECENT_BARS = 5;

/** Whether bar `b` closes beyond the 55-bar channel on side `sign` (+1 above the high, −1 below the low). */
function beyond(input: PatternInput, b: number, sign: 1 | -1): boolean {
  const edge = sign === 1 ? input.ind.donchianHigh55.at(b)! : input.ind.donchianLow55.at(b)!;
  return edge > 0 && sign * input.bars.close[b]! > sign * edge;
}

/** A fresh System 2 entry at `b`: no earlier breakout on this side still open (not exited on the 20-bar channel). */
function isEntry(input: PatternInput, b: number, sign: 1 | -1): boolean {
  if (!beyond(input, b, sign)) return false;
  const close = input.bars.close;
  const exitEdge = sign === 1 ? input.ind.donchianLow20 : input.ind.donchianHigh20;
  for (let j = b - 1; j >= Math.max(0, b - CHANNEL); j--) {
    if (sign * close[j]! < sign * exitEdge.at(j)!) return true; // exited on the 20-bar channel since
    if (beyond(input, j, sign)) return false; // still in that earlier breakout's trade
  }
  return true;
}

function buildMatch(input: PatternInput, b: number, direction: Direction): PatternMatch {
  const { ind, bars } = input;
  const long = direction === 'long';
  const sign = long ? 1 : -1;
  const pivot = long ? ind.donchianHigh55.at(b)! : ind.donchianLow55.at(b)!;
  const channelHigh = ind.donchianHigh55.at(b)!;
  const channelLow = ind.donchianLow55.at(b)!;
  const n = ind.atr14[b]!;
  const stopLoss = pivot - sign * STOP_N * n;
  const target1 = pivot + sign * TARGET_N * n;
  const end = b - 1;
  const breakout = findBreakout(input, end, pivot, direction);
  const widthN = (channelHigh - channelLow) / n;
  const location = closeLocation(input, b);
  const strength = long ? location : 1 - location;
  const trendAgrees = sign * (bars.close[b]! - ind.sma200[b]!) > 0;
  const quality = unit(
    0.3 * (breakout.volumeRatio === null ? 0.5 : unit((breakout.volumeRatio - 1) / 1)) +
      0.25 * unit((15 - widthN) / 9) +
      0.25 * strength +
      0.2 * (Number.isNaN(ind.sma200[b]!) ? 0.5 : trendAgrees ? 1 : 0),
  );
  const word = long ? 'above the prior 55-bar high' : 'below the prior 55-bar low';
  // the sentences only when asked for (`PatternInput.brief`: a caller that reads the levels alone)
  const reasons = input.brief
    ? []
    : [
        `close ${fmtPrice(bars.close[b]!)} ${word} ${fmtPrice(pivot)}, a fresh System 2 entry`,
        `55-bar channel ${fmtPrice(channelLow)}–${fmtPrice(channelHigh)}, ${fmt1(widthN)} N wide`,
        `N (ATR 14) ${fmtPrice(n)}: stop ${STOP_N}N at ${fmtPrice(stopLoss)}, target ${TARGET_N}N at ${fmtPrice(target1)}`,
        breakout.volumeRatio === null ? 'no 50-bar volume average yet' : `volume ${fmt1(breakout.volumeRatio)}× the 50-bar average`,
        `close at ${Math.round(100 * location)}% of the bar's range`,
      ];
  return {
    patternType: 'donchian_55',
    patternFamily: 'range',
    direction,
    pivot,
    target1,
    stopLoss,
    geometry: { start: b - CHANNEL, end, depthPct: pctBelow(channelHigh, channelLow), lengthBars: CHANNEL, contractions: 0 },
    breakout,
    quality,
    reasons,
  };
}

export const donchian55: PatternDetector = {
  type: 'donchian_55',
  family: 'range',
  direction: 'either',
  lookback: 2 * CHANNEL + RECENT_BARS,
  detect(input) {
    checkAsOf(input, 'donchian_55');
    const { asOf } = input;
    for (let b = asOf; b >= Math.max(CHANNEL, asOf - RECENT_BARS + 1); b--) {
      if (!(input.ind.atr14[b]! > 0)) return null;
      if (isEntry(input, b, 1)) return buildMatch(input, b, 'long');
      if (isEntry(input, b, -1)) return buildMatch(input, b, 'short');
    }
    return null;
  },
};
