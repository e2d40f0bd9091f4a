/**
 * @module kernels/backtest/fills
 * One trade through the bars: the entry fill, the exit (target1, stop, time
 * stop, end of window) and its costs. Our rules, the way resting orders fill
 * on daily bars:
 *
 * ```
 * entry (long; shorts mirror)
 *   stop order at the trigger, placed after the close of the signal bar:
 *     open ≥ trigger  → filled at the open (a gap), else high ≥ trigger → at the trigger
 *   market order (a setup first listed on its breakout bar) → at the next open
 *   no trade when the fill is not strictly between the stop and target1
 * exit, from the entry bar on
 *   stop:   low ≤ stop   → at the stop, or at the open when it opened below (a gap; never on
 *                          the entry bar, which was entered at or after its open)
 *   target: high ≥ target1 → at target1, or at the open when it opened above
 *   a bar touching both counts as the stop (the order of prices inside a daily bar is
 *   unknown, so the conservative reading; kernels/outcome reads it the same way)
 *   time stop: the close of bar entry + maxHold; end of window: the close of `lastIndex`
 * costs
 *   slippage on every fill, against the trade: buys at p·(1 + bps/10⁴), sells at p·(1 − bps/10⁴)
 *   commission: `commissionPerShare` dollars per share on the entry and again on the exit
 *   net per share = sign·(exit − entry) − 2·commission;  R = net per share / |entry − stop|
 * ```
 *
 * Prices in a result are after slippage. R uses the risk from the filled
 * entry to the stop level, so costs lower R exactly as they lower dollars.
 *
 * @example
 * // long, trigger 100, stop 95, target 110, 5 bps, $0.005/share; filled at 100 → 100.05
 * // target hit → sold at 110 → 109.945; net/share = 9.895 − 0.01 = 9.885; R = 9.885 / 5.05 = 1.9574…
 */
import type { Direction } from '../../domain/signal';
import type { Ohlcv } from '../ohlcv';

export interface Costs {
  /** Basis points of the price, charged on every fill against the trade. */
  slippageBps: number;
  /** Dollars per share, charged on entry and on exit. */
  commissionPerShare: number;
}

export const EXIT_REASONS = ['target', 'stop', 'time', 'window_end', 'end_of_data'] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

export type EntryKind = 'stop' | 'open';

export interface Levels {
  direction: Direction;
  trigger: number;
  target1: number;
  stopLoss: number;
}

/** The price a fill at `price` costs after slippage: buys pay more, sells get less. */
export function slipped(price: number, side: 'buy' | 'sell', bps: number): number {
  return side === 'buy' ? price * (1 + bps / 10_000) : price * (1 - bps / 10_000);
}

const entrySide = (d: Direction) => (d === 'long' ? 'buy' : 'sell');
const exitSide = (d: Direction) => (d === 'long' ? 'sell' : 'buy');

/** Strictly between the stop and target1 on the trade's side. */
function tradable(levels: Levels, price: number): boolean {
  return levels.direction === 'long' ? levels.stopLoss < price && price < levels.target1 : levels.target1 < price && price < levels.stopLoss;
}

/**
 * The entry fill on bar `i` (before slippage: `raw`; after: `price`), or
 * null when the order does not fill there or the fill leaves no trade.
 */
export function fillEntry(bars: Ohlcv, i: number, kind: EntryKind, levels: Levels, costs: Costs): { raw: number; price: number } | null {
  const long = levels.direction === 'long';
  const open = bars.open[i]!;
  let raw: number;
  if (kind === 'open') raw = open;
  else if (long ? open >= levels.trigger : open <= levels.trigger) raw = open;
  else if (long ? bars.high[i]! >= levels.trigger : bars.low[i]! <= levels.trigger) raw = levels.trigger;
  else return null;
  if (!Number.isFinite(raw) || !tradable(levels, raw)) return null;
  return { raw, price: slipped(raw, entrySide(levels.direction), costs.slippageBps) };
}

export interface Exit {
  index: number;
  /** Before slippage. */
  raw: number;
  /** After slippage. */
  price: number;
  reason: ExitReason;
}

/**
 * Where a position entered on bar `entryIndex` leaves: the first of stop,
 * target1, the time stop (`maxHold` bars after the entry bar) and
 * `lastIndex` (the end of a window or of the data: `reason` says which).
 * Reads bars `entryIndex … min(entryIndex + maxHold, lastIndex)` only.
 */
export function simulateExit(
  bars: Ohlcv,
  position: { direction: Direction; entryIndex: number; stopLoss: number; target1: number },
  options: { maxHold: number; lastIndex: number; lastReason: 'window_end' | 'end_of_data' },
  costs: Costs,
): Exit {
  const { direction, entryIndex, stopLoss, target1 } = position;
  const long = direction === 'long';
  const side = exitSide(direction);
  const out = (index: number, raw: number, reason: ExitReason): Exit => ({ index, raw, price: slipped(raw, side, costs.slippageBps), reason });
  const timeIndex = entryIndex + options.maxHold;
  const last = Math.min(timeIndex, options.lastIndex);
  for (let i = entryIndex; i <= last; i++) {
    const open = bars.open[i]!;
    const later = i > entryIndex; // the entry bar was entered at or after its open
    if (long ? bars.low[i]! <= stopLoss : bars.high[i]! >= stopLoss) {
      return out(i, later && (long ? open <= stopLoss : open >= stopLoss) ? open : stopLoss, 'stop');
    }
    if (long ? bars.high[i]! >= target1 : bars.low[i]! <= target1) {
      return out(i, later && (long ? open >= target1 : open <= target1) ? open : target1, 'target');
    }
  }
  return out(last, bars.close[last]!, last === timeIndex ? 'time' : options.lastReason);
}

/** Net dollars per share of a round trip after slippage (in the prices) and commission both ways. */
export function netPerShare(direction: Direction, entryPrice: number, exitPrice: number, costs: Costs): number {
  return (direction === 'long' ? exitPrice - entryPrice : entryPrice - exitPrice) - 2 * costs.commissionPerShare;
}

/** The trade's net result in R: net dollars per share over the risk from the filled entry to the stop. */
export function netR(direction: Direction, entryPrice: number, exitPrice: number, stopLoss: number, costs: Costs): number {
  return netPerShare(direction, entryPrice, exitPrice, costs) / Math.abs(entryPrice - stopLoss);
}
