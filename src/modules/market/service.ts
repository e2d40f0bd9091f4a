/**
 * @module modules/market/service
 * Bars and quote snapshots over the cache-through market data.
 */
import { AppError } from '../../errors';
import { etagOf } from '../../plugins/representation';
import type { HeldRef, MarketData } from '../../market-data';
import type { ApiVersion } from '../../config';
import type { Timeframe } from '../../domain/signal';
import { newYorkDate } from '../../providers/new-york-time';
import type { BarSeries } from '../../providers/types';
import { decodeCursor, encodeCursor } from '../../pagination';
import { BARS_PAGE_DEFAULT, BARS_PAGE_MAX, RANGE_SESSIONS, RANGES, type BarsResponse, type Range, type SnapshotResponse } from './model';

/** The session date of a bar: a daily bar opens at 00:00 UTC of it, an intraday one on the New York clock. */
export const sessionDate = (ts: number, timeframe: Timeframe = 'daily') => (timeframe === 'daily' ? new Date(ts).toISOString().slice(0, 10) : newYorkDate(ts));

export interface BarsWindow {
  timeframe: Timeframe;
  range: Range;
  /** First and last session dates (`YYYY-MM-DD`, inclusive). */
  from?: string;
  to?: string;
  /** Bars per page (clamped to [1, BARS_PAGE_MAX]); default BARS_PAGE_DEFAULT. */
  limit?: number;
  /** The opaque cursor of an earlier page (pagination.nextCursor). */
  cursor?: string;
}

/** A cursor's id: a cursor read with another symbol or timeframe is malformed (→ the first page, as the spec's envelope rule). */
const cursorId = (symbol: string, timeframe: Timeframe) => `${symbol}:${timeframe}`;

/** The bar time a cursor of this series continues after, or undefined (no cursor, or one that is not of this series). */
function cursorAfter(cursor: string | undefined, symbol: string, timeframe: Timeframe): number | undefined {
  const after = decodeCursor(cursor)?.after;
  return after && typeof after[0] === 'number' && Number.isSafeInteger(after[0]) && after[1] === cursorId(symbol, timeframe) ? after[0] : undefined;
}

export const clampBarsLimit = (limit: number | undefined) => Math.min(BARS_PAGE_MAX, Math.max(1, Math.trunc(limit ?? BARS_PAGE_DEFAULT)));

/**
 * The bars of the window, oldest first: those whose session date lies in
 * [from, to], of which the last `range` sessions (counted back from `to`, or
 * the latest bar; every session for `max`). A window longer than `limit`
 * bars is paged oldest first, keyset on the bar time (a cursor stays right
 * when the series grows); `pagination` says where the page lies, present
 * for `max` and for a window longer than one page.
 */
export function barsOf(series: BarSeries, symbol: string, { timeframe, range, from, to, limit, cursor }: BarsWindow): BarsResponse {
  const date = (i: number) => sessionDate(series.ts[i]!, timeframe);
  let end = series.ts.length - 1;
  while (end >= 0 && to !== undefined && date(end) > to) end--;
  let start = end + 1;
  let sessions = 0;
  let session = '';
  for (let i = end; i >= 0; i--) {
    const d = date(i);
    if (from !== undefined && d < from) break;
    if (d !== session) {
      if (++sessions > RANGE_SESSIONS[range]) break;
      session = d;
    }
    start = i;
  }
  const size = clampBarsLimit(limit);
  const after = cursorAfter(cursor, symbol, timeframe);
  let first = start;
  if (after !== undefined) while (first <= end && series.ts[first]! <= after) first++;
  const last = Math.min(end, first + size - 1);
  const bars: BarsResponse['bars'] = [];
  for (let j = first; j <= last; j++) {
    const ts = series.ts[j]!;
    bars.push({
      date: date(j),
      ...(timeframe === 'daily' ? {} : { ts: new Date(ts).toISOString() }),
      open: series.open[j]!,
      high: series.high[j]!,
      low: series.low[j]!,
      close: series.close[j]!,
      volume: series.volume[j]!,
    });
  }
  const answer: BarsResponse = { symbol, range, timeframe, source: series.source, bars };
  const hasMore = last < end;
  if (range === 'max' || hasMore || first > start) {
    answer.pagination = {
      nextCursor: hasMore ? encodeCursor({ order: 'asc', after: [series.ts[last]!, cursorId(symbol, timeframe)] }) : null,
      hasMore,
      total: end - start + 1,
      limit: size,
      offset: first - start,
      order: 'asc',
    };
  }
  return answer;
}

/** The key the serialised answer of a window is held under (a page past the first is not held: a bulk reader reads it once). */
const barsKey = (range: Range, from: string | undefined, to: string | undefined, limit: number | undefined) => `bars:${range}:${from ?? ''}:${to ?? ''}:${clampBarsLimit(limit)}`;

type BarsParams = { symbol: string; timeframe: Timeframe; range?: Range; from?: string; to?: string; limit?: number; cursor?: string };

/** Where the answer of a bars query is held (made once per query string by the fast path). */
export function barsRef(marketData: MarketData, { symbol, timeframe, range, from, to, limit }: BarsParams): HeldRef {
  return marketData.heldRef(symbol, timeframe, barsKey(range ?? '6mo', from, to, limit));
}

/**
 * `barsJson`'s answer when the market data holds it for a fresh series
 * (`MarketData.heldBody`), at once; undefined otherwise, and for a query
 * `barsJson` refuses (it is asked then, and says why). `ref`: the query's
 * `barsRef`, when the caller keeps it.
 */
export function heldBarsJson(marketData: MarketData, query: BarsParams, apiVersion: ApiVersion, ref: HeldRef = barsRef(marketData, query)): string | undefined {
  const { range, from, to } = query;
  if ((range === undefined && apiVersion !== '1.0.0') || (from !== undefined && to !== undefined && from > to) || query.cursor !== undefined) return undefined;
  return marketData.heldBody(ref);
}

/** The window's range after the version rule: required from 1.1.0 (400), the spec's default 6mo under 1.0.0; `from` after `to` is 400. */
function rangeOf({ range, from, to }: BarsParams, apiVersion: ApiVersion): Range {
  if (range === undefined && apiVersion !== '1.0.0') {
    throw new AppError('invalid_parameter', `Query parameter 'range' is required from API-Version 1.1.0 (one of: ${RANGES.join(', ')})`);
  }
  if (from !== undefined && to !== undefined && from > to) throw new AppError('invalid_parameter', `Query parameter 'from' (${from}) must not be after 'to' (${to})`);
  // Under 1.0.0 the spec's default applies; from 1.1.0 the parameter is required (so no TypeBox default).
  return range ?? '6mo';
}

/** The page of bars a query asks for, as an object (for the representations other than held JSON). */
export async function barsPage(marketData: MarketData, params: BarsParams, apiVersion: ApiVersion): Promise<BarsResponse> {
  const range = rangeOf(params, apiVersion);
  const { symbol, timeframe } = params;
  await marketData.instrument(symbol);
  return barsOf(await marketData.bars(symbol, timeframe), symbol, { ...params, range });
}

/**
 * `barsOf` serialised, held by the market data until the series is refreshed:
 * a repeat read of /api/bars builds no objects and does no JSON work.
 */
export async function barsJson(marketData: MarketData, params: BarsParams, apiVersion: ApiVersion): Promise<string> {
  const range = rangeOf(params, apiVersion);
  const { symbol, timeframe, from, to, limit, cursor } = params;
  await marketData.instrument(symbol);
  if (cursor !== undefined) return JSON.stringify(barsOf(await marketData.bars(symbol, timeframe), symbol, { ...params, range }));
  const { series, body, hold } = await marketData.serialized(symbol, timeframe, barsKey(range, from, to, limit));
  if (body !== undefined) return body;
  const fresh = JSON.stringify(barsOf(series, symbol, { timeframe, range, from, to, limit }));
  hold(fresh);
  return fresh;
}

export async function snapshot(marketData: MarketData, symbol: string): Promise<SnapshotResponse> {
  const instrument = await marketData.instrument(symbol);
  const quote = await marketData.snapshot(symbol);
  return { ...quote, name: instrument.name, sector: instrument.sector };
}

/** The snapshot answer serialised, with its ETag; `held`: it is kept (the fast path's FastBody as it is). */
export interface SnapshotBody {
  text: string;
  etag: string;
  held: true;
}

/**
 * The snapshot answer serialised, held by the market data while the
 * provider's quote has not moved (`MarketData.heldQuote`): a repeated read of
 * a quote that has not moved builds no objects and does no JSON work. It is
 * answered at once when held, else once the quote is made.
 */
export function snapshotBody(marketData: MarketData, symbol: string): SnapshotBody | Promise<SnapshotBody> {
  return marketData.heldQuote<SnapshotBody>(symbol) ?? freshSnapshotBody(marketData, symbol);
}

async function freshSnapshotBody(marketData: MarketData, symbol: string): Promise<SnapshotBody> {
  const instrument = await marketData.instrument(symbol);
  const made = await marketData.quoteToHold<SnapshotBody>(symbol);
  const text = JSON.stringify({ ...made.quote, name: instrument.name, sector: instrument.sector } satisfies SnapshotResponse);
  const body: SnapshotBody = { text, etag: etagOf(text), held: true };
  made.hold(body);
  return body;
}
