/**
 * @module providers/alpaca/parse
 * Alpaca Market Data v2's REST JSON read into vendor bars and snapshots, with
 * the shapes of its documentation (alpacahq/alpaca-docs,
 * content/api-references/market-data-api/stock-pricing-data/historical.md;
 * docs.alpaca.markets/reference/stockbars):
 *
 * - Bars `GET /v2/stocks/{symbol}/bars`: `{bars: [{t, o, h, l, c, v, n, vw}], symbol, next_page_token}`;
 *   multi-symbol `GET /v2/stocks/bars`: `{bars: {SYM: [...]}, next_page_token}`, sorted by
 *   symbol, then time. `t` is RFC-3339; `next_page_token` is null on the last page.
 * - Snapshot `GET /v2/stocks/{symbol}/snapshot`: `{symbol, latestTrade: {t, p, s, …},
 *   latestQuote, minuteBar, dailyBar, prevDailyBar}`.
 *
 * Pure: a payload that is not of these shapes is `ProviderError('bad_payload')`.
 */
import { z } from 'zod';
import type { VendorBar } from '../live/bars';
import { vendorPayload } from '../live/payload';
import { sessionAt } from '../calendar';
import { ProviderError, type Snapshot } from '../types';

export const NAME = 'alpaca';

const rfc3339 = z.string().transform((value, ctx) => {
  const ms = Date.parse(value);
  if (Number.isFinite(ms)) return ms;
  ctx.addIssue({ code: 'custom', message: `'${value}' is not an RFC-3339 time` });
  return z.NEVER;
});

const Bar = z.object({ t: rfc3339, o: z.number(), h: z.number(), l: z.number(), c: z.number(), v: z.number() });
const Trade = z.object({ t: rfc3339, p: z.number(), s: z.number().optional() });

const BarsPage = z.object({ bars: z.array(Bar).nullable(), next_page_token: z.string().nullable().optional() });
const MultiBarsPage = z.object({ bars: z.record(z.string(), z.array(Bar)).nullable(), next_page_token: z.string().nullable().optional() });
const SnapshotPayload = z.object({
  latestTrade: Trade.nullable().optional(),
  dailyBar: Bar.nullable().optional(),
  prevDailyBar: Bar.nullable().optional(),
});

const parsed = <T>(schema: z.ZodType<T>, payload: unknown, symbol: string | null, what: string): T => vendorPayload(schema, payload, NAME, symbol, what);

/** One page of a symbol's bars and the token of the next (undefined on the last). */
export function parseBarsPage(payload: unknown, symbol: string): { bars: VendorBar[]; next: string | undefined } {
  const page = parsed(BarsPage, payload, symbol, 'a bars page');
  return { bars: page.bars ?? [], next: page.next_page_token ?? undefined };
}

/** One page of the multi-symbol bars and the token of the next. */
export function parseMultiBarsPage(payload: unknown): { bars: Map<string, VendorBar[]>; next: string | undefined } {
  const page = parsed(MultiBarsPage, payload, null, 'a multi-symbol bars page');
  return { bars: new Map(Object.entries(page.bars ?? {})), next: page.next_page_token ?? undefined };
}

/** The snapshot as the standard quote: last trade price, the day's bar, the previous close. */
export function parseSnapshot(payload: unknown, symbol: string, now: number): Snapshot {
  const snapshot = parsed(SnapshotPayload, payload, symbol, 'a snapshot');
  const trade = snapshot.latestTrade;
  if (!trade) throw new ProviderError('unknown_symbol', NAME, symbol, 'no trade in the snapshot');
  const day = snapshot.dailyBar;
  const previousClose = snapshot.prevDailyBar?.c ?? day?.o ?? trade.p;
  const change = trade.p - previousClose;
  return {
    symbol,
    price: trade.p,
    volume: day?.v ?? 0,
    open: day?.o ?? trade.p,
    dayHigh: day?.h ?? trade.p,
    dayLow: day?.l ?? trade.p,
    previousClose,
    change,
    changePercent: previousClose ? (change / previousClose) * 100 : 0,
    ts: new Date(trade.t).toISOString(),
    marketOpen: sessionAt(now) !== null,
    source: NAME,
  };
}
