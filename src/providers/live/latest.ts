/**
 * @module providers/live/latest
 * Each symbol's session so far as the live feed has seen it — the forming
 * daily bar (open, high, low, volume; ./aggregator) and the latest price (a
 * trade, or the last minute's close) — so a snapshot is answered from the
 * stream (providers/live/vendor-provider) rather than a REST request each
 * time. One entry per symbol, replaced when its session changes.
 */
import { newYorkDate } from '../new-york-time';
import type { LiveBar, LiveDay, LiveTrade } from './types';

export class LatestQuotes {
  private readonly days = new Map<string, LiveDay>();

  constructor(private readonly now: () => number) {}

  /** A daily bar (forming or closed) of the session. */
  bar({ symbol, timeframe, bar }: LiveBar): void {
    if (timeframe !== 'daily') return;
    const date = new Date(bar.t).toISOString().slice(0, 10); // daily bars are stamped 00:00 UTC of their New York date
    const held = this.days.get(symbol);
    const at = this.now();
    const newer = !held || held.date !== date || at >= held.ts;
    this.days.set(symbol, { date, open: bar.o, high: bar.h, low: bar.l, volume: bar.v, price: newer ? bar.c : held.price, ts: newer ? at : held.ts });
  }

  /** A trade of a watched symbol: its price is the latest, within the session's bar. */
  trade(trade: LiveTrade): void {
    const held = this.days.get(trade.symbol);
    if (!held || held.date !== newYorkDate(trade.ts) || trade.ts < held.ts) return;
    held.price = trade.price;
    held.ts = trade.ts;
  }

  /** The symbol's session so far, when the feed has one for the session of `now`. */
  get(symbol: string, now: number): LiveDay | undefined {
    const held = this.days.get(symbol);
    return held && held.date === newYorkDate(now) ? held : undefined;
  }
}
