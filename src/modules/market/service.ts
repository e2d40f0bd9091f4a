/**
 * @module modules/market/service
 * Bars and quote snapshots over the cache-through market data.
 */
import { AppError } from '../../errors';
import { etagOf } from '../../plugins/representation';
import type { HeldRef, MarketData } from '../../market-data';
import type { ApiVersion } from '../../config';
import type { Timeframe } from '../../domain/signal';
import { newYorkDate } from '../../providers/calendar';
import type { BarSeries } from '../../providers/types';
import { RANGE_SESSIONS, type BarsResponse, type Range, type SnapshotResponse } from './model';

/** The session date of a bar: a daily bar opens at 00:00 UTC of it, an intraday one on the New York clock. */
export const sessionDate = (ts: number, timeframe: Timeframe = 'daily') => (timeframe === 'daily' ? new Date(ts).toISOString().slice(0, 10) : newYorkDate(ts));

export interface BarsWindow {
  timeframe: Timeframe;
  range: Range;
  /** First and last session dates (`YYYY-MM-DD`, inclusive). */
  from?: string;
  to?: string;
}

/**
 * The bars of the window, oldest first: those whose session date lies in
 * [from, to], of which the last `range` sessions (counted back from `to`, or
 * the latest bar).
 */
export function barsOf(series: BarSeries, symbol: string, { timeframe, range, from, to }: BarsWindow): BarsResponse {
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
  const bars: BarsResponse['bars'] = [];
  for (let j = start; j <= end; j++) {
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
  return { symbol, range, timeframe, source: series.source, bars };
}

/** The key the serialised answer of a window is held under. */
const barsKey = (range: Range, from: string | undefined, to: string | undefined) => `bars:${range}:${from ?? ''}:${to ?? ''}`;

/** Where the answer of a bars query is held (made once per query string by the fast path). */
export function barsRef(marketData: MarketData, { symbol, timeframe, range, from, to }: { symbol: string; timeframe: Timeframe; range?: Range; from?: string; to?: string }): HeldRef {
  return marketData.heldRef(symbol, timeframe, barsKey(range ?? '6mo', from, to));
}

/**
 * `barsJson`'s answer when the market data holds it for a fresh series
 * (`MarketData.heldBody`), at once; undefined otherwise, and for a query
 * `barsJson` refuses (it is asked then, and says why). `ref`: the query's
 * `barsRef`, when the caller keeps it.
 */
export function heldBarsJson(
  marketData: MarketData,
  query: { symbol: string; timeframe: Timeframe; range?: Range; from?: string; to?: string },
  apiVersion: ApiVersion,
  ref: HeldRef = barsRef(marketData, query),
): string | undefined {
  const { range, from, to } = query;
  if ((range === undefined && apiVersion !== '1.0.0') || (from !== undefined && to !== undefined && from > to)) return undefined;
  return marketData.heldBody(ref);
}

/**
 * `barsOf` serialised, held by the market data until the series is refreshed:
 * a repeat read of /api/bars builds no objects and does no JSON work.
 */
export async function barsJson(
  marketData: MarketData,
  params: { symbol: string; timeframe: Timeframe; range?: Range; from?: string; to?: string },
  apiVersion: ApiVersion,
): Promise<string> {
  const { symbol, timeframe, from, to } = params;
  if (params.range === undefined && apiVersion !== '1.0.0') {
    throw new AppError('invalid_parameter', `Query parameter 'range' is required from API-Version 1.1.0 (one of: 1mo, 3mo, 6mo)`);
  }
  if (from !== undefined && to !== undefined && from > to) throw new AppError('invalid_parameter', `Query parameter 'from' (${from}) must not be after 'to' (${to})`);
  // Under 1.0.0 the spec's default applies; from 1.1.0 the parameter is required (so no TypeBox default).
  const range = params.range ?? '6mo';
  await marketData.instrument(symbol);
  const { series, body, hold } = await marketData.serialized(symbol, timeframe, barsKey(range, from, to));
  if (body !== undefined) return body;
  const fresh = JSON.stringify(barsOf(series, symbol, { timeframe, range, from, to }));
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
