/**
 * @module providers/yahoo/parse
 * Yahoo Finance's public JSON, read into the standard models. Pure: every
 * function takes a parsed payload and throws `ProviderError('bad_payload')`
 * when its shape is not Yahoo's.
 *
 * - v8 chart (`/v8/finance/chart/{symbol}`): `chart.result[0]` with
 *   `timestamp[]` (epoch seconds, the bar's open) and
 *   `indicators.quote[0].{open,high,low,close,volume}[]`; prices are
 *   split-adjusted, not dividend-adjusted. A row with any null field (a halt, or
 *   a session Yahoo lists without prices) is dropped. Daily bars are re-stamped at
 *   00:00 UTC of their New York session date, as every provider's are.
 *   `chart.error.code = "Not Found"` is an unknown symbol.
 * - v7 quote (`/v7/finance/quote?symbols=`): `quoteResponse.result[]` with the
 *   `regularMarket*` fields; an empty result is an unknown symbol.
 * - v7 options (`/v7/finance/options/{symbol}[?date=]`):
 *   `optionChain.result[0]` with `expirationDates[]` (epoch seconds at 00:00
 *   UTC of the expiry), `quote.regularMarketPrice`, and per expiry
 *   `options[].{calls,puts}[]` contracts.
 */
import { newYorkDate } from '../new-york-time';
import type { Timeframe } from '../../domain/signal';
import { ProviderError, type BarSeries, type OptionChain, type OptionContract, type Snapshot } from '../types';

export const NAME = 'yahoo';

type Nums = (number | null)[];
export interface ChartPayload {
  chart?: {
    result?: {
      meta?: { symbol?: string; exchangeTimezoneName?: string };
      timestamp?: number[];
      indicators?: { quote?: { open?: Nums; high?: Nums; low?: Nums; close?: Nums; volume?: Nums }[] };
    }[] | null;
    error?: { code?: string; description?: string } | null;
  };
}

export interface QuotePayload {
  quoteResponse?: {
    result?: Record<string, unknown>[];
    error?: unknown;
  };
}

interface RawContract {
  contractSymbol?: string;
  strike?: number;
  lastPrice?: number;
  bid?: number;
  ask?: number;
  volume?: number;
  openInterest?: number;
  impliedVolatility?: number;
  expiration?: number;
}

export interface OptionsPayload {
  optionChain?: {
    result?: {
      underlyingSymbol?: string;
      expirationDates?: number[];
      quote?: { regularMarketPrice?: number; regularMarketTime?: number };
      options?: { expirationDate?: number; calls?: RawContract[]; puts?: RawContract[] }[];
    }[];
    error?: { code?: string; description?: string } | null;
  };
}

const bad = (symbol: string, detail: string) => new ProviderError('bad_payload', NAME, symbol, detail);
const isoDay = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().slice(0, 10);
const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Bars of a v8 chart payload, oldest first. */
export function parseChart(payload: ChartPayload, symbol: string, timeframe: Timeframe): BarSeries {
  const chart = payload?.chart;
  if (!chart) throw bad(symbol, 'chart payload without `chart`');
  if (chart.error) {
    if (chart.error.code === 'Not Found') throw new ProviderError('unknown_symbol', NAME, symbol, chart.error.description ?? 'no data found');
    throw new ProviderError('unavailable', NAME, symbol, `chart error ${chart.error.code}: ${chart.error.description ?? ''}`);
  }
  const result = chart.result?.[0];
  if (!result) throw new ProviderError('unknown_symbol', NAME, symbol, 'chart has no result');
  const stamps = result.timestamp ?? [];
  const quote = result.indicators?.quote?.[0];
  if (!Array.isArray(stamps) || (stamps.length > 0 && !quote)) throw bad(symbol, 'chart result without timestamp/indicators.quote');
  const columns = { open: quote?.open ?? [], high: quote?.high ?? [], low: quote?.low ?? [], close: quote?.close ?? [], volume: quote?.volume ?? [] };
  for (const [name, values] of Object.entries(columns)) {
    if (!Array.isArray(values) || values.length !== stamps.length) throw bad(symbol, `chart column ${name} has ${values?.length} values for ${stamps.length} timestamps`);
  }
  const out = { ts: [] as number[], open: [] as number[], high: [] as number[], low: [] as number[], close: [] as number[], volume: [] as number[] };
  let last = -Infinity;
  for (let i = 0; i < stamps.length; i++) {
    const o = columns.open[i], h = columns.high[i], l = columns.low[i], c = columns.close[i], v = columns.volume[i];
    if (!finite(stamps[i]) || !finite(o) || !finite(h) || !finite(l) || !finite(c)) continue;
    const ts = timeframe === 'daily' ? Date.parse(`${newYorkDate(stamps[i]! * 1000)}T00:00:00Z`) : stamps[i]! * 1000;
    if (ts <= last) continue; // Yahoo repeats the live bar at the end of some daily series
    last = ts;
    out.ts.push(ts);
    out.open.push(o);
    out.high.push(h);
    out.low.push(l);
    out.close.push(c);
    out.volume.push(finite(v) ? v : 0);
  }
  return {
    symbol,
    timeframe,
    ts: Float64Array.from(out.ts),
    open: Float64Array.from(out.open),
    high: Float64Array.from(out.high),
    low: Float64Array.from(out.low),
    close: Float64Array.from(out.close),
    volume: Float64Array.from(out.volume),
    source: NAME,
  };
}

/** The snapshot of a v7 quote payload. */
export function parseQuote(payload: QuotePayload, symbol: string): Snapshot {
  const results = payload?.quoteResponse?.result;
  if (!Array.isArray(results)) throw bad(symbol, 'quote payload without quoteResponse.result');
  const q = results.find((r) => String(r.symbol).toUpperCase() === symbol);
  if (!q) throw new ProviderError('unknown_symbol', NAME, symbol, 'no quote for the symbol');
  const num = (key: string) => (finite(q[key]) ? (q[key] as number) : null);
  const price = num('regularMarketPrice');
  const time = num('regularMarketTime');
  if (price === null || time === null) throw bad(symbol, 'quote without regularMarketPrice/regularMarketTime');
  const previousClose = num('regularMarketPreviousClose') ?? price;
  return {
    symbol,
    price,
    volume: num('regularMarketVolume') ?? 0,
    open: num('regularMarketOpen') ?? price,
    dayHigh: num('regularMarketDayHigh') ?? price,
    dayLow: num('regularMarketDayLow') ?? price,
    previousClose,
    change: num('regularMarketChange') ?? price - previousClose,
    changePercent: num('regularMarketChangePercent') ?? (previousClose ? ((price - previousClose) / previousClose) * 100 : 0),
    ts: new Date(time * 1000).toISOString(),
    marketOpen: q.marketState === 'REGULAR',
    source: NAME,
  };
}

function contract(raw: RawContract, type: 'call' | 'put', expiry: string): OptionContract | null {
  if (typeof raw.contractSymbol !== 'string' || !finite(raw.strike)) return null;
  const quoted = (x: unknown) => (finite(x) && x > 0 ? x : null);
  return {
    contractSymbol: raw.contractSymbol,
    type,
    strike: raw.strike,
    expiry,
    bid: quoted(raw.bid),
    ask: quoted(raw.ask),
    last: quoted(raw.lastPrice),
    volume: finite(raw.volume) ? raw.volume : 0,
    openInterest: finite(raw.openInterest) ? raw.openInterest : 0,
    // Yahoo reports ~1e-5 for contracts it could not solve: treat as unknown.
    impliedVolatility: finite(raw.impliedVolatility) && raw.impliedVolatility > 0.001 ? raw.impliedVolatility : null,
  };
}

/** One v7 options page: its expiry list, underlying price and the contracts it carries. */
export function parseOptions(payload: OptionsPayload, symbol: string): { chain: OptionChain; expiryEpochs: number[] } {
  const oc = payload?.optionChain;
  if (!oc) throw bad(symbol, 'options payload without optionChain');
  if (oc.error) throw new ProviderError('unavailable', NAME, symbol, `options error ${oc.error.code}: ${oc.error.description ?? ''}`);
  const result = oc.result?.[0];
  if (!result) throw new ProviderError('unknown_symbol', NAME, symbol, 'no option chain for the symbol');
  const price = result.quote?.regularMarketPrice;
  if (!finite(price)) throw bad(symbol, 'option chain without quote.regularMarketPrice');
  const expiryEpochs = (result.expirationDates ?? []).filter(finite);
  const contracts: OptionContract[] = [];
  for (const page of result.options ?? []) {
    if (!finite(page.expirationDate)) continue;
    const expiry = isoDay(page.expirationDate);
    for (const c of page.calls ?? []) {
      const parsed = contract(c, 'call', expiry);
      if (parsed) contracts.push(parsed);
    }
    for (const p of page.puts ?? []) {
      const parsed = contract(p, 'put', expiry);
      if (parsed) contracts.push(parsed);
    }
  }
  const time = result.quote?.regularMarketTime;
  return {
    chain: {
      symbol,
      underlyingPrice: price,
      asOf: new Date(finite(time) ? time * 1000 : Date.now()).toISOString(),
      expiries: expiryEpochs.map(isoDay),
      contracts,
      source: NAME,
    },
    expiryEpochs,
  };
}
