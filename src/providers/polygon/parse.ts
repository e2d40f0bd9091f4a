/**
 * @module providers/polygon/parse
 * Polygon's (Massive's) REST JSON read into vendor bars and snapshots, with
 * the shapes of its OpenAPI document (polygon-io/client-js `src/openapi.json`)
 * and documentation (massive.com/docs/rest/stocks/aggregates/custom-bars,
 * …/daily-market-summary):
 *
 * - Custom bars `GET /v2/aggs/ticker/{t}/range/{mult}/{span}/{from}/{to}`:
 *   `{ticker, status, adjusted, queryCount, resultsCount, results: [{t, o, h, l, c, v, vw, n}], next_url?}`;
 *   `t` is the window start in Unix ms; `results` is left out when empty.
 * - Daily market summary `GET /v2/aggs/grouped/locale/us/market/stocks/{date}`:
 *   `{results: [{T, t, o, h, l, c, v, vw, n}]}`, one bar a ticker (`T`).
 * - Ticker snapshot `GET /v2/snapshot/locale/us/markets/stocks/tickers/{t}`:
 *   `{ticker: {day, lastTrade: {p, t (ns)}, prevDay, min, updated}}`.
 *
 * Pure: a payload that is not of these shapes is `ProviderError('bad_payload')`.
 */
import { z } from 'zod';
import type { VendorBar } from '../live/bars';
import { vendorPayload } from '../live/payload';
import { sessionAt } from '../calendar';
import { ProviderError, type Snapshot } from '../types';

export const NAME = 'polygon';

const Bar = z.object({ t: z.number(), o: z.number(), h: z.number(), l: z.number(), c: z.number(), v: z.number() });
const AggsPage = z.object({ status: z.string().optional(), results: z.array(Bar).nullable().optional(), next_url: z.string().optional() });
const Grouped = z.object({ results: z.array(Bar.extend({ T: z.string() })).nullable().optional() });
const DayBar = z.object({ o: z.number(), h: z.number(), l: z.number(), c: z.number(), v: z.number() }).partial();
const TickerSnapshot = z.object({
  ticker: z.object({
    day: DayBar.nullable().optional(),
    prevDay: DayBar.nullable().optional(),
    lastTrade: z.object({ p: z.number(), t: z.number() }).nullable().optional(),
  }),
});

const parsed = <T>(schema: z.ZodType<T>, payload: unknown, symbol: string | null, what: string): T => vendorPayload(schema, payload, NAME, symbol, what);

/** One page of aggregates and the `next_url` of the next (undefined on the last). */
export function parseAggsPage(payload: unknown, symbol: string): { bars: VendorBar[]; next: string | undefined } {
  const page = parsed(AggsPage, payload, symbol, 'an aggregates page');
  return { bars: page.results ?? [], next: page.next_url };
}

/** The day's bar of every ticker in a daily market summary. */
export function parseGroupedDaily(payload: unknown): Map<string, VendorBar> {
  const summary = parsed(Grouped, payload, null, 'a daily market summary');
  return new Map((summary.results ?? []).map(({ T, ...bar }) => [T, bar]));
}

/** A ticker snapshot as the standard quote (its `lastTrade.t` is in nanoseconds). */
export function parseSnapshot(payload: unknown, symbol: string, now: number): Snapshot {
  const { ticker } = parsed(TickerSnapshot, payload, symbol, 'a ticker snapshot');
  const trade = ticker.lastTrade;
  if (!trade) throw new ProviderError('unknown_symbol', NAME, symbol, 'no trade in the snapshot');
  const day = ticker.day ?? {};
  const previousClose = ticker.prevDay?.c ?? day.o ?? trade.p;
  const change = trade.p - previousClose;
  return {
    symbol,
    price: trade.p,
    volume: day.v ?? 0,
    open: day.o ?? trade.p,
    dayHigh: day.h ?? trade.p,
    dayLow: day.l ?? trade.p,
    previousClose,
    change,
    changePercent: previousClose ? (change / previousClose) * 100 : 0,
    ts: new Date(Math.floor(trade.t / 1e6)).toISOString(),
    marketOpen: sessionAt(now) !== null,
    source: NAME,
  };
}
