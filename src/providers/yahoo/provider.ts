/**
 * @module providers/yahoo/provider
 * The `yahoo` market-data provider: bars from the v8 chart API, quotes from
 * v7 quote, option chains from v7 options (providers/yahoo/parse reads them),
 * through the shared vendor HTTP client at `YAHOO_RATE_PER_SECOND`.
 *
 * - Daily: `interval=1d`, the full history (`range=max`) or `period1/period2`.
 * - 1h: `interval=60m`, regular session only; Yahoo keeps 730 days of them.
 * - 4h: the 1h bars of each session gathered into 09:30–13:30 and 13:30–close
 *   blocks (first open, max high, min low, last close, summed volume), the
 *   same blocks the synthetic provider draws.
 * - Symbols: class shares use a dot here (`BRK.B`) and a dash at Yahoo (`BRK-B`).
 * - Option chains: the first page lists the expiries; each further expiry is
 *   one request. A chain is kept for `CHAIN_TTL_MS`.
 *
 * The universe is the bundled instrument list (providers/universe).
 */
import { sessionAt } from '../calendar';
import { VendorHttp } from '../http';
import { quoteSelfCheck } from '../self-check';
import { loadInstruments } from '../universe';
import {
  type BarSeries,
  type BarsQuery,
  type Capability,
  type Instrument,
  type MarketDataProvider,
  type OptionChain,
  type SelfCheck,
  type Snapshot,
} from '../types';
import { NAME, parseChart, parseOptions, parseQuote, type ChartPayload, type OptionsPayload, type QuotePayload } from './parse';

export interface YahooProviderOptions {
  /** Base URL of the query API, e.g. `https://query1.finance.yahoo.com`. */
  baseUrl: string;
  /** Requests per second (default 5). */
  ratePerSecond?: number;
  userAgent?: string;
  timeoutMs?: number;
}

const HOUR_MS = 3_600_000;
const BLOCK_MS = 4 * HOUR_MS;
const CHAIN_TTL_MS = 60_000;

/** `BRK.B` → `BRK-B`. */
export const yahooSymbol = (symbol: string) => encodeURIComponent(symbol.replaceAll('.', '-'));

/** 1h bars gathered into the session's 4h blocks (09:30–13:30, 13:30–close). */
export function fourHourBars(hourly: BarSeries): BarSeries {
  const out = { ts: [] as number[], open: [] as number[], high: [] as number[], low: [] as number[], close: [] as number[], volume: [] as number[] };
  for (let i = 0; i < hourly.ts.length; i++) {
    const ts = hourly.ts[i]!;
    const session = sessionAt(ts);
    if (!session) continue; // outside regular hours
    const block = session.open + Math.floor((ts - session.open) / BLOCK_MS) * BLOCK_MS;
    const k = out.ts.length - 1;
    if (k >= 0 && out.ts[k] === block) {
      out.high[k] = Math.max(out.high[k]!, hourly.high[i]!);
      out.low[k] = Math.min(out.low[k]!, hourly.low[i]!);
      out.close[k] = hourly.close[i]!;
      out.volume[k]! += hourly.volume[i]!;
    } else {
      out.ts.push(block);
      out.open.push(hourly.open[i]!);
      out.high.push(hourly.high[i]!);
      out.low.push(hourly.low[i]!);
      out.close.push(hourly.close[i]!);
      out.volume.push(hourly.volume[i]!);
    }
  }
  const f = (values: number[]) => Float64Array.from(values);
  return { ...hourly, timeframe: '4h', ts: f(out.ts), open: f(out.open), high: f(out.high), low: f(out.low), close: f(out.close), volume: f(out.volume) };
}

export class YahooProvider implements MarketDataProvider {
  readonly name = NAME;
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>(['bars', 'snapshot', 'options_chain']);
  readonly synthetic = false;
  readonly remote = true;
  readonly testSymbol = 'SPY';
  private readonly http: VendorHttp;
  private readonly chains = new Map<string, { at: number; chain: Promise<OptionChain> }>();

  constructor(private readonly options: YahooProviderOptions) {
    this.http = new VendorHttp({
      vendor: NAME,
      ratePerSecond: options.ratePerSecond ?? 5,
      headers: { 'user-agent': options.userAgent ?? 'breakline/0.1 (+https://github.com/breakline)' },
      timeoutMs: options.timeoutMs,
    });
  }

  async universe(): Promise<Instrument[]> {
    return loadInstruments();
  }

  async bars({ symbol, timeframe, from, to }: BarsQuery): Promise<BarSeries> {
    const interval = timeframe === 'daily' ? '1d' : '60m';
    const window =
      from !== undefined || to !== undefined
        ? `period1=${Math.floor((from ?? 0) / 1000)}&period2=${Math.ceil((to ?? Date.now()) / 1000) + 1}`
        : `range=${timeframe === 'daily' ? 'max' : '730d'}`;
    const url = `${this.options.baseUrl}/v8/finance/chart/${yahooSymbol(symbol)}?interval=${interval}&${window}&includePrePost=false`;
    const payload = await this.http.json<ChartPayload>(url, { symbol });
    const series = parseChart(payload, symbol, timeframe === 'daily' ? 'daily' : '1h');
    return timeframe === '4h' ? fourHourBars(series) : series;
  }

  async snapshot({ symbol }: { symbol: string }): Promise<Snapshot> {
    const payload = await this.http.json<QuotePayload>(`${this.options.baseUrl}/v7/finance/quote?symbols=${yahooSymbol(symbol)}`, { symbol });
    return parseQuote(payload, symbol);
  }

  /** Every listed expiry (or just `expiry`), cached for a minute. */
  optionChain(symbol: string, options: { expiry?: string } = {}): Promise<OptionChain> {
    const key = `${symbol}|${options.expiry ?? '*'}`;
    const hit = this.chains.get(key);
    if (hit && Date.now() - hit.at < CHAIN_TTL_MS) return hit.chain;
    const chain = this.fetchChain(symbol, options.expiry);
    this.chains.set(key, { at: Date.now(), chain });
    chain.catch(() => this.chains.delete(key));
    return chain;
  }

  private async fetchChain(symbol: string, expiry: string | undefined): Promise<OptionChain> {
    const base = `${this.options.baseUrl}/v7/finance/options/${yahooSymbol(symbol)}`;
    const first = parseOptions(await this.http.json<OptionsPayload>(base, { symbol }), symbol);
    const { chain, expiryEpochs } = first;
    const wanted = expiry === undefined ? chain.expiries : chain.expiries.filter((e) => e === expiry);
    const have = new Set(chain.contracts.map((c) => c.expiry));
    const contracts = chain.contracts.filter((c) => wanted.includes(c.expiry));
    for (const epoch of expiryEpochs) {
      const day = new Date(epoch * 1000).toISOString().slice(0, 10);
      if (!wanted.includes(day) || have.has(day)) continue;
      const page = parseOptions(await this.http.json<OptionsPayload>(`${base}?date=${epoch}`, { symbol }), symbol);
      contracts.push(...page.chain.contracts.filter((c) => c.expiry === day));
    }
    return { ...chain, contracts };
  }

  selfCheck(): Promise<SelfCheck> {
    return quoteSelfCheck(NAME, this.testSymbol, () => this.snapshot({ symbol: this.testSymbol }));
  }

}

export function createYahooProvider(options: YahooProviderOptions): YahooProvider {
  return new YahooProvider(options);
}
