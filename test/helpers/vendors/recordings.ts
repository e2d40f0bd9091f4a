/**
 * @module test/helpers/vendors/recordings
 * The recorded vendor bars the loopback vendor servers replay and the roll-up
 * tests read: Alpaca's 1-minute SPY bars of 2025-04-24/25 and Polygon's
 * 5-minute aggregates (test/fixtures/intraday, SOURCES.md there), read into
 * one row shape with epoch-millisecond stamps (the start of each bar's window,
 * as both vendors stamp them).
 */
import { readFileSync } from 'node:fs';
import type { Ohlcv } from '../../../src/kernels/ohlcv';
import type { VendorBar } from '../../../src/providers/live/types';
import { fixture } from '../fixtures';

/** A recorded bar: the vendor bar (`t` its window start, epoch ms UTC), its symbol, trades and average price. */
export interface RecordedBar extends VendorBar {
  symbol: string;
  /** Trades in the window. */
  n: number;
  vw: number;
}

function rows(path: string): string[][] {
  const [, ...lines] = readFileSync(path, 'utf8').trim().split(/\r?\n/);
  return lines.map((line) => line.split(','));
}

/** Alpaca's 1-minute SPY bars (`timestamp` like `2025-04-24 08:00:00+00:00`), oldest first. */
export function alpacaMinutes(): RecordedBar[] {
  return rows(fixture('intraday', 'alpaca_spy_1min', 'SPY_1min.csv')).map(([timestamp, symbol, o, h, l, c, v, n, vw]) => ({
    symbol: symbol!,
    t: Date.parse(timestamp!.replace(' ', 'T')),
    o: Number(o),
    h: Number(h),
    l: Number(l),
    c: Number(c),
    v: Number(v),
    n: Number(n),
    vw: Number(vw),
  }));
}

/** The Polygon symbols recorded. */
export const POLYGON_SYMBOLS = ['XLK', 'UNH', 'ADBE', 'COST', 'MA', 'PEP'] as const;

/** Polygon's 5-minute aggregates of one symbol (`datetime` naive UTC), oldest first. */
export function polygonFiveMinutes(symbol: string): RecordedBar[] {
  return rows(fixture('intraday', 'polygon_5m', `${symbol}_5m.csv`)).map(([datetime, sym, o, h, l, c, v, vw, n]) => ({
    symbol: sym!,
    t: Date.parse(`${datetime!.replace(' ', 'T')}Z`),
    o: Number(o),
    h: Number(h),
    l: Number(l),
    c: Number(c),
    v: Number(v),
    n: Number(n),
    vw: Number(vw),
  }));
}

/** Recorded bars as OHLCV columns. */
export function columnsOf(bars: readonly RecordedBar[]): Ohlcv {
  const col = (pick: (b: RecordedBar) => number) => Float64Array.from(bars, pick);
  return { ts: col((b) => b.t), open: col((b) => b.o), high: col((b) => b.h), low: col((b) => b.l), close: col((b) => b.c), volume: col((b) => b.v) };
}
