/**
 * @module providers/types
 * The standard models every market-data provider speaks. A provider turns a
 * standard query into its vendor's request, fetches, and normalises the answer
 * into these shapes (the OpenBB "fetcher" pattern). Nothing here imports Elysia.
 */
import { newOhlcv, ohlcvFrom, type Ohlcv } from '../kernels/ohlcv';

import type { Timeframe } from '../domain/signal';
import type { LiveFeed } from './live/types';

/**
 * One symbol's bars in one timeframe from one provider: the OHLCV columns of
 * kernels/ohlcv, oldest first. `ts` is the bar's open time in epoch
 * milliseconds (UTC); for daily bars it is 00:00 UTC of the session date, so
 * `new Date(ts).toISOString().slice(0, 10)` is the session's calendar date.
 */
export interface BarSeries extends Ohlcv {
  symbol: string;
  timeframe: Timeframe;
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
  /** `degraded`: answering, but not fully (a live stream reconnecting or filling a gap). */
  status: 'ok' | 'warn' | 'degraded' | 'down';
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

/** A quote's time (epoch ms) and the instant (on the provider's clock) from which it may be another (`quoteTime`). */
export interface QuoteTime {
  time: number;
  until: number;
}

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
  /** The source that answers a capability, when several are composed (providers/compose); otherwise this provider. */
  sourceOf?(capability: Capability): string | undefined;
  /** The instruments this provider can serve. */
  universe(): Promise<Instrument[]>;
  /** Bars oldest first; an unknown symbol throws `ProviderError` with code `unknown_symbol`. */
  bars(query: BarsQuery): Promise<BarSeries>;
  /**
   * Makes ahead, off the server's main thread, the series `bars` is about to
   * be asked for (a universe scan's symbols), where the provider computes them
   * itself (the synthetic market draws them in worker threads): a cold scan
   * then does not compute hundreds of paths on the event loop (issue 27).
   * Resolves when they are in; what it could not make, `bars` makes on demand.
   */
  prepare?(query: { symbols: string[]; timeframe: Timeframe }): Promise<void>;
  snapshot(query: { symbol: string; at?: number }): Promise<Snapshot>;
  /**
   * The time (epoch ms) of the quote `snapshot({ symbol })` would answer now,
   * where the provider can tell without computing it, and until when (on the
   * provider's clock, `now`) it stays that quote: while the time is the same,
   * so is the quote (a caller may hold what it made of one, and read it back
   * without asking again until `until`). Undefined when it cannot tell (not
   * ready yet, no quote).
   */
  quoteTime?(symbol: string): QuoteTime | undefined;
  /** The provider's clock (epoch ms), where it keeps one: what `quoteTime`'s `until` is read against. */
  now?(): number;
  /**
   * The most bars `bars` ever answers for a timeframe, where the provider
   * bounds it whatever the clock (the synthetic market's 1h and 4h window):
   * the bar store sizes those series' slots to it (store/layout, "Segments").
   */
  readonly longestSeries?: Partial<Record<Timeframe, number>>;
  selfCheck(): Promise<SelfCheck>;
  /**
   * The vendor's live stream (Alpaca, Polygon), when configured: minute bars
   * rolled up into forming and closed 1h/4h/daily bars, window closes, and
   * trades of watched symbols (providers/live/types). Started by the server.
   */
  readonly live?: LiveFeed;
  /** Report dates (`YYYY-MM-DD`, past and scheduled) where the provider knows them (capability `earnings`). */
  earningsDates?(symbol: string): string[];
  /** Past and scheduled earnings reports, oldest first (capability `earnings`). */
  earnings?(symbol: string): Promise<EarningsEvent[]>;
  /** Shares outstanding and free float (capability `float`). */
  float?(symbol: string): Promise<FloatData>;
  /** Form 4 transactions with a transaction date in [from, to] (`YYYY-MM-DD`), newest first (capability `insider`). */
  insiderTransactions?(symbol: string, range: { from: string; to: string }): Promise<InsiderTransaction[]>;
  /** Short-interest reports, oldest first (capability `short_interest`). */
  shortInterest?(symbol: string): Promise<ShortInterestReport[]>;
  /** Recent SEC filings, newest first (capability `filings`). */
  filings?(symbol: string, options: { limit: number }): Promise<Filing[]>;
  /** Daily social-media mention counts and sentiment over the last `days` days, oldest first (capability `social`). */
  social?(symbol: string, options: { days: number }): Promise<SocialDay[]>;
  /** The option chain (all expiries, or one), as of now (capability `options_chain`). */
  optionChain?(symbol: string, options?: { expiry?: string }): Promise<OptionChain>;
}

/** The optional provider methods, each with the capability that promises it. */
export const CAPABILITY_METHODS = {
  earnings: 'earnings',
  float: 'float',
  insiderTransactions: 'insider',
  shortInterest: 'short_interest',
  filings: 'filings',
  social: 'social',
  optionChain: 'options_chain',
} as const satisfies Record<string, Capability>;
export type CapabilityMethod = keyof typeof CAPABILITY_METHODS;

/**
 * A vendor that answers some capabilities but serves no bars (SEC EDGAR,
 * FINRA). The registry composes such sources with the bar provider: each
 * capability is answered by the first source that has it.
 */
export type CapabilitySource = Pick<MarketDataProvider, 'name' | 'capabilities'> & Partial<Pick<MarketDataProvider, CapabilityMethod>>;

/** One earnings report, reported or scheduled. */
export interface EarningsEvent {
  symbol: string;
  /** Report date `YYYY-MM-DD` (US/Eastern calendar date). */
  date: string;
  /** Before market open, after market close, or not known. */
  timing: 'bmo' | 'amc' | 'unknown';
  /** Fiscal period end `YYYY-MM-DD`, when known. */
  fiscalPeriodEnding: string | null;
  epsEstimate: number | null;
  epsActual: number | null;
  /** (actual − estimate) ÷ |estimate| × 100, when both are known. */
  surprisePct: number | null;
  status: 'reported' | 'scheduled';
  source: string;
}

/** Share counts: outstanding (as filed) and free float (outstanding less closely held). */
export interface FloatData {
  symbol: string;
  sharesOutstanding: number | null;
  freeFloat: number | null;
  /** Date the figures refer to (`YYYY-MM-DD`), when known. */
  asOf: string | null;
  source: string;
  /** True when a figure is modelled or derived rather than read from a filing or vendor field. */
  estimated: boolean;
}

/** One non-derivative line of a Form 4 (SEC EDGAR ownership XML). */
export interface InsiderTransaction {
  symbol: string;
  insider: string;
  /** Officer title, `Director`, `10% Owner`, or a combination, as filed. */
  role: string;
  isDirector: boolean;
  isOfficer: boolean;
  /** SEC Form 4 transaction code: P purchase, S sale, A award, F tax withholding, M option exercise, G gift, … */
  code: string;
  /** A acquired, D disposed. */
  acquiredDisposed: 'A' | 'D';
  shares: number;
  price: number | null;
  /** shares × price, when the price is known. */
  value: number | null;
  sharesOwnedAfter: number | null;
  transactionDate: string;
  filingDate: string;
  filingUrl: string | null;
  source: string;
}

/** One short-interest report (FINRA: settlement dates twice a month). */
export interface ShortInterestReport {
  symbol: string;
  settlementDate: string;
  sharesShort: number;
  /** The previous report's figure, when the file carries it. */
  previousSharesShort: number | null;
  /** Average daily volume the vendor reports with it, when any. */
  avgDailyVolume: number | null;
  /** Days to cover as the vendor computes it, when any. */
  daysToCover: number | null;
  source: string;
}

/** One SEC filing. */
export interface Filing {
  symbol: string;
  form: string;
  /** Filing date `YYYY-MM-DD`. */
  filedAt: string;
  title: string;
  url: string;
  accessionNumber: string;
  source: string;
}

/** One day of social-media mentions. */
export interface SocialDay {
  symbol: string;
  date: string;
  mentions: number;
  bullish: number;
  bearish: number;
  /** (bullish − bearish) ÷ (bullish + bearish), in [−1, 1]; 0 without tagged mentions. */
  sentiment: number;
  source: string;
}

export interface OptionContract {
  contractSymbol: string;
  type: 'call' | 'put';
  strike: number;
  /** Expiry date `YYYY-MM-DD`. */
  expiry: string;
  bid: number | null;
  ask: number | null;
  last: number | null;
  volume: number;
  openInterest: number;
  /** Annualised implied volatility as a decimal (0.3 = 30%), when known. */
  impliedVolatility: number | null;
}

export interface OptionChain {
  symbol: string;
  underlyingPrice: number;
  /** ISO 8601 time of the chain. */
  asOf: string;
  expiries: string[];
  contracts: OptionContract[];
  source: string;
}

export type ProviderErrorCode = 'unknown_symbol' | 'unavailable' | 'bad_payload' | 'missing_credential' | 'unsupported';

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
  return { symbol, timeframe, source, ...newOhlcv(0) };
}

/** The bars of `series` with `from <= ts <= to`, as subarray views (no copy). */
export function sliceSeries(series: BarSeries, from = -Infinity, to = Infinity): BarSeries {
  const { ts } = series;
  let lo = 0;
  while (lo < ts.length && ts[lo]! < from) lo++;
  let hi = ts.length;
  while (hi > lo && ts[hi - 1]! > to) hi--;
  return { ...series, ...ohlcvFrom((name) => series[name].subarray(lo, hi)) };
}
