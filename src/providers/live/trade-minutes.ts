/**
 * @module providers/live/trade-minutes
 * Minute bars made from trades, for a feed subscribed to trades only
 * (`LIVE_BARS_FROM=trades`): each trade lands in the minute of its execution
 * time, left-closed and right-open, and the bar is stamped with the minute's
 * start (Alpaca, "Stock Minute Bars", alpaca.markets/learn: "Tstart <= trade
 * < Tend", "the bar with trades between 9:31-9:32 is labeled 9:31"). Open is
 * the first counted trade, high and low the extremes, close the last, volume
 * the sum of their sizes; a minute with no counted trade has no bar ("No
 * eligible trades - no bar").
 *
 * Which trades count (`countsInBar`): the vendor's own rule for its bars.
 * Alpaca lists the conditions that exclude a trade from a bar
 * (forum.alpaca.markets, "Unstable minute bar real time data", 2022, the
 * Alpaca staff answer's table, following the SIPs' guidance: CTS
 * specification p. 64, UTP p. 43): B and W (average price), 4 (derivatively
 * priced), 7 (qualified contingent trade), 9 (corrected consolidated close),
 * C (cash sale), G (bunched sold), H (price variation), I (odd lot), M and Q
 * (market center official close and open), N (next day), P (prior reference
 * price), R (seller), T (Form T: extended hours). A trade with no conditions,
 * or only others (`@` regular, `F` intermarket sweep, …), counts.
 *
 * A minute is finished `lateMs` after its end: exchanges have 10 seconds to
 * report a trade (Alpaca, "Market Data Update: Bars"), so a trade executed at
 * 9:31:55 may arrive at 9:32:04. A trade for a minute already finished is not
 * counted (`late` counts them); the REST backfill after a gap brings the
 * vendor's own bars.
 */
import type { LiveTrade, VendorBar } from './types';

/** Alpaca's conditions that keep a trade out of a bar (see the module comment for the source). */
export const ALPACA_EXCLUDED = new Set(['B', 'W', '4', '7', '9', 'C', 'G', 'H', 'I', 'M', 'N', 'P', 'Q', 'R', 'T']);

/** Whether a trade with these conditions counts in a bar under Alpaca's rule. */
export function countsInBar(conditions: readonly string[] | undefined): boolean {
  return !conditions || !conditions.some((condition) => ALPACA_EXCLUDED.has(condition));
}

/** Exchanges' reporting window (Alpaca, "Market Data Update: Bars"): a minute is finished this long after its end. */
export const TRADE_LATE_MS = 10_000;
const MINUTE_MS = 60_000;

/** A minute being formed, with the execution times of its first and last counted trades. */
interface Forming {
  bar: VendorBar;
  first: number;
  last: number;
}

export class TradeMinutes {
  /** Forming minutes by symbol, by minute start. */
  private readonly forming = new Map<string, Map<number, Forming>>();
  /** The start of the latest minute finished, per symbol (a later trade for it or before is late). */
  private readonly finishedThrough = new Map<string, number>();
  /** Trades not counted: excluded by their conditions, or late. */
  excluded = 0;
  late = 0;

  constructor(private readonly options: { emit(symbol: string, bar: VendorBar): void; lateMs?: number }) {}

  get lateMs(): number {
    return this.options.lateMs ?? TRADE_LATE_MS;
  }

  add(trade: LiveTrade): void {
    if (!countsInBar(trade.conditions)) {
      this.excluded++;
      return;
    }
    const start = Math.floor(trade.ts / MINUTE_MS) * MINUTE_MS;
    if (start <= (this.finishedThrough.get(trade.symbol) ?? -Infinity)) {
      this.late++;
      return;
    }
    let minutes = this.forming.get(trade.symbol);
    if (!minutes) this.forming.set(trade.symbol, (minutes = new Map()));
    const held = minutes.get(start);
    const { price, size, ts } = trade;
    if (!held) {
      minutes.set(start, { bar: { t: start, o: price, h: price, l: price, c: price, v: size }, first: ts, last: ts });
      return;
    }
    const { bar } = held;
    if (price > bar.h) bar.h = price;
    if (price < bar.l) bar.l = price;
    bar.v += size;
    // Trades may arrive out of execution order: the open is the earliest executed, the close the latest (ties: the later received).
    if (ts < held.first) [held.first, bar.o] = [ts, price];
    if (ts >= held.last) [held.last, bar.c] = [ts, price];
  }

  /** Emits every minute finished by `now` (its end `lateMs` past), oldest first. */
  flush(now: number): void {
    for (const [symbol, minutes] of this.forming) {
      for (const [start, { bar }] of [...minutes].sort(([a], [b]) => a - b)) {
        if (start + MINUTE_MS + this.lateMs > now) break;
        minutes.delete(start);
        this.finishedThrough.set(symbol, Math.max(this.finishedThrough.get(symbol) ?? -Infinity, start));
        this.options.emit(symbol, bar);
      }
      if (minutes.size === 0) this.forming.delete(symbol);
    }
  }

  /** The volume of the symbol's minutes not finished yet. */
  formingVolume(symbol: string): number {
    let volume = 0;
    for (const { bar } of this.forming.get(symbol)?.values() ?? []) volume += bar.v;
    return volume;
  }

  /** Forgets everything (a feed stopped). */
  clear(): void {
    this.forming.clear();
    this.finishedThrough.clear();
  }
}
