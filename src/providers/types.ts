/**
 * @module providers/types
 * The standard models every market-data provider speaks. A provider turns a
 * standard query into its vendor's request, fetches, and normalises the answer
 * into these shapes (the OpenBB "fetcher" pattern). Nothing here imports Elysia.
 */

/** Bar interval. Names follow the public spec (`daily`, `4h`, `1h`). */
export type Timeframe = 'daily' | '4h' | '1h';
export const TIMEFRAMES: readonly Timeframe[] = ['daily', '4h', '1h'];

/**
 * A run of OHLCV bars in columns, oldest first. `ts` is the bar's open time in
 * epoch milliseconds (UTC); for daily bars it is 00:00 UTC of the session date,
 * so `new Date(ts).toISOString().slice(0, 10)` is the session's calendar date.
 * Columnar so kernels and the shared store take the arrays without copying.
 */
export interface BarSeries {
  symbol: string;
  timeframe: Timeframe;
  ts: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  /** Provider name, e.g. `synthetic`, `csv`. */
  source: string;
}

/** A member of the tradable universe with its classification. */
export interface Instrument {
  symbol: string;
  name: string;
  /** GICS sector name, e.g. `Information Technology`; `null` for funds and indices. */
  sector: string | null;
  kind: 'stock' | 'etf' | 'index';
  /** Index memberships: `sp500`, `nasdaq100`, `benchmark`, `sector_etf`. */
  indices: string[];
}

/** The latest quote for a symbol. */
export interface Snapshot {
  symbol: string;
  price: number;
  /** Session volume so far. */
  volume: number;
  open: number;
  dayHigh: number;
  dayLow: number;
  previousClose: number;
  change: number;
  changePercent: number;
  /** ISO 8601 time of the quote. */
  ts: string;
  marketOpen: boolean;
  source: string;
}

export interface BarsQuery {
  symbol: string;
  timeframe: Timeframe;
  /** Inclusive lower bound on `ts` (epoch ms). */
  from?: number;
  /** Inclusive upper bound on `ts` (epoch ms); a point-in-time read never sees a later bar. */
  to?: number;
}

export interface SelfCheck {
  status: 'ok' | 'warn' | 'down';
  provider: string;
  /** The symbol the check fetched. */
  symbol: string;
  latencyMs: number;
  /** Set when status is not `ok`; names the provider and the symbol. */
  message?: string;
}

/** Things a provider may be able to answer. Later capabilities fill in the optional methods below. */
export type Capability =
  | 'bars'
  | 'snapshot'
  | 'earnings'
  | 'float'
  | 'insider'
  | 'options_chain'
  | 'options_flow'
  | 'short_interest'
  | 'filings'
  | 'social'
  | 'macro';

export interface MarketDataProvider {
  readonly name: string;
  readonly capabilities: ReadonlySet<Capability>;
  /** Whether payloads come from a simulator (health reports `warn` for env then). */
  readonly synthetic: boolean;
  /**
   * Whether bars come over the network. Remote providers' bars are cached in
   * the database so a restart does not fetch them again; a local provider
   * (simulator, files) is cheaper to ask again than to read back.
   */
  readonly remote: boolean;
  /** A symbol the health check fetches. */
  readonly testSymbol: string;
  /** The instruments this provider can serve. */
  universe(): Promise<Instrument[]>;
  /** Bars oldest first; an unknown symbol throws `ProviderError` with code `unknown_symbol`. */
  bars(query: BarsQuery): Promise<BarSeries>;
  snapshot(query: { symbol: string; at?: number }): Promise<Snapshot>;
  selfCheck(): Promise<SelfCheck>;
  /** Report dates (`YYYY-MM-DD`, past and scheduled) where the provider knows them (capability `earnings`). */
  earningsDates?(symbol: string): string[];
}

export type ProviderErrorCode = 'unknown_symbol' | 'unavailable' | 'bad_payload' | 'missing_credential';

/** A vendor failure, always naming the provider and the symbol (Ghostfolio's rule). */
export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    readonly provider: string,
    readonly symbol: string | null,
    detail: string,
  ) {
    super(`${provider}${symbol ? ` (${symbol})` : ''}: ${detail}`);
    this.name = 'ProviderError';
  }
}

/** An empty series of the given identity. */
export function emptySeries(symbol: string, timeframe: Timeframe, source: string): BarSeries {
  const z = () => new Float64Array(0);
  return { symbol, timeframe, ts: z(), open: z(), high: z(), low: z(), close: z(), volume: z(), source };
}

/** The bars of `series` with `from <= ts <= to`, as subarray views (no copy). */
export function sliceSeries(series: BarSeries, from = -Infinity, to = Infinity): BarSeries {
  const { ts } = series;
  let lo = 0;
  while (lo < ts.length && ts[lo]! < from) lo++;
  let hi = ts.length;
  while (hi > lo && ts[hi - 1]! > to) hi--;
  return {
    ...series,
    ts: ts.subarray(lo, hi),
    open: series.open.subarray(lo, hi),
    high: series.high.subarray(lo, hi),
    low: series.low.subarray(lo, hi),
    close: series.close.subarray(lo, hi),
    volume: series.volume.subarray(lo, hi),
  };
}
