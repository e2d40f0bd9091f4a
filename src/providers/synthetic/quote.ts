/**
 * @module providers/synthetic/quote
 * Session arithmetic shared by bars and quotes: which sessions are complete
 * at an instant, which one is in progress, and the quote at that instant.
 */
import type { Snapshot } from '../types';
import { BarColumns, SOURCE } from './columns';
import { appendIntradayBars } from './intraday';
import type { World } from './market';
import type { PathSessions } from './held-path';
import type { SessionGrid } from './session-grid';
import { tickPrice } from './ticks';

/** Where the clock stands against the world's sessions. */
export interface ClockState {
  /** Sessions fully closed at the instant: indices 0..complete−1. */
  complete: number;
  /** Index of the session in progress, or −1 when the market is shut. */
  live: number;
}

/** Index of the last session that opened at or before `at`, or −1. */
export function lastOpenedSession(world: World, at: number): number {
  const ts = world.openTs;
  let lo = 0;
  let hi = ts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid]! <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export function clockState(world: World, at: number): ClockState {
  const i = lastOpenedSession(world, at);
  if (i < 0) return { complete: 0, live: -1 };
  return at < world.closeTs[i]! ? { complete: i, live: i } : { complete: i + 1, live: -1 };
}

/** The daily bar of a session in progress, gathered from its 1h bars up to `now`. */
export function partialDay(grid: SessionGrid, now: number): { open: number; high: number; low: number; close: number; volume: number } {
  const columns = new BarColumns(8);
  appendIntradayBars(grid, now, columns, new BarColumns(2));
  const hour = columns.bars();
  const n = hour.ts.length;
  let high = -Infinity;
  let low = Infinity;
  let volume = 0;
  for (let i = 0; i < n; i++) {
    high = Math.max(high, hour.high[i]!);
    low = Math.min(low, hour.low[i]!);
    volume += hour.volume[i]!;
  }
  return { open: hour.open[0]!, high, low, close: hour.close[n - 1]!, volume };
}

/**
 * The quote at `at`: the ticking price inside a session (`grid` is that
 * session's grid), else the last close.
 */
export function quoteAt(
  symbol: string,
  world: World,
  daily: PathSessions,
  startPrice: number,
  at: number,
  grid: (session: number) => SessionGrid,
): Snapshot | null {
  const { complete, live } = clockState(world, at);
  const index = live >= 0 ? live : complete - 1;
  if (index < 0) return null;
  const previousClose = index > 0 ? daily.close(index - 1) : startPrice;
  let day: { open: number; high: number; low: number; close: number; volume: number };
  let price: number;
  let ts: number;
  if (live >= 0) {
    const g = grid(live);
    day = partialDay(g, at);
    price = tickPrice(g, at);
    ts = at;
  } else {
    day = {
      open: daily.open(index),
      high: daily.high(index),
      low: daily.low(index),
      close: daily.close(index),
      volume: daily.volume(index),
    };
    price = day.close;
    ts = world.closeTs[index]!;
  }
  const change = Math.round((price - previousClose) * 100) / 100;
  return {
    symbol,
    price,
    volume: day.volume,
    open: day.open,
    dayHigh: day.high,
    dayLow: day.low,
    previousClose,
    change,
    changePercent: Math.round(((price - previousClose) / previousClose) * 1e6) / 1e4,
    ts: new Date(ts).toISOString(),
    marketOpen: live >= 0,
    source: SOURCE,
  };
}
