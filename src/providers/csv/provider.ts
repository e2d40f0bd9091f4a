/**
 * @module providers/csv/provider
 * The `csv` market-data provider: history the user brings as one file per
 * symbol (and timeframe) in a directory (`CSV_DIR`). Files are listed on first
 * use, parsed on the first request for their series and kept in memory as
 * columns; later reads are subarray views over that cache.
 *
 * Daily bars carry `ts` = 00:00 UTC of the session date. A symbol that has files
 * but none for the asked timeframe answers an empty series; a symbol without
 * files is `unknown_symbol`. Quotes are the last bar: the data is history, so
 * `marketOpen` is always false.
 */
import { loadInstruments } from '../universe';
import { emptySeries, ProviderError, sliceSeries, type BarSeries, type BarsQuery, type Capability, type Instrument, type MarketDataProvider, type SelfCheck, type Snapshot } from '../types';
import { TIMEFRAMES, type Timeframe } from '../../domain/signal';
import { indexDirectory, type FileIndex } from './files';
import { CsvFormatError, parseOhlcvCsv } from './parse';
import { zoneOffsetReader, type ZoneOffset } from './timestamps';

export interface CsvProviderOptions {
  /** Directory holding `<SYMBOL>[_<tf>].csv[.gz]` files. */
  dir: string;
  /**
   * IANA zone of naive intraday date-times (yfinance writes New York wall time,
   * Polygon exports UTC). Default `UTC`. Daily files and tz-aware times ignore it.
   */
  intradayTimeZone?: string;
}

const NAME = 'csv';

export class CsvProvider implements MarketDataProvider {
  readonly name = NAME;
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>(['bars', 'snapshot']);
  readonly synthetic = false;
  readonly remote = false;
  private files: FileIndex | null | undefined;
  private readonly cache = new Map<string, Promise<BarSeries>>();
  private readonly zone: ZoneOffset;

  constructor(private readonly options: CsvProviderOptions) {
    this.zone = zoneOffsetReader(options.intradayTimeZone ?? 'UTC');
  }

  /** SPY when the directory has it, else the first symbol in name order. */
  get testSymbol(): string {
    const files = this.listing();
    if (!files || files.size === 0 || files.has('SPY')) return 'SPY';
    return [...files.keys()].sort()[0]!;
  }

  async universe(): Promise<Instrument[]> {
    const files = this.listing();
    if (!files) throw this.missingDirectory(null);
    const known = new Map(loadInstruments().map((i) => [i.symbol, i]));
    return [...files.keys()].sort().map(
      (symbol) => known.get(symbol) ?? { symbol, name: symbol, sector: null, kind: 'stock', indices: [] },
    );
  }

  async bars({ symbol, timeframe, from, to }: BarsQuery): Promise<BarSeries> {
    const files = this.listing();
    if (!files) throw this.missingDirectory(symbol);
    const byTimeframe = files.get(symbol);
    if (!byTimeframe) throw new ProviderError('unknown_symbol', NAME, symbol, `no ${symbol}.csv or ${symbol}.csv.gz in ${this.options.dir}`);
    const path = byTimeframe.get(timeframe);
    if (!path) return emptySeries(symbol, timeframe, NAME);
    const series = await this.load(symbol, timeframe, path);
    return from === undefined && to === undefined ? { ...series } : sliceSeries(series, from, to);
  }

  /** The last bar at or before `at` (default: the last bar), against the close before it. */
  async snapshot({ symbol, at }: { symbol: string; at?: number }): Promise<Snapshot> {
    const timeframes = this.listing()?.get(symbol);
    const timeframe = timeframes?.has('daily') ? 'daily' : TIMEFRAMES.find((tf) => timeframes?.has(tf)) ?? 'daily';
    const series = await this.bars({ symbol, timeframe, to: at });
    const last = series.ts.length - 1;
    if (last < 0) {
      const when = at === undefined ? '' : ` at or before ${new Date(at).toISOString()}`;
      throw new ProviderError('unavailable', NAME, symbol, `no ${timeframe} bars${when}`);
    }
    const price = series.close[last]!;
    const previousClose = last > 0 ? series.close[last - 1]! : price;
    const change = price - previousClose;
    return {
      symbol,
      price,
      volume: series.volume[last]!,
      open: series.open[last]!,
      dayHigh: series.high[last]!,
      dayLow: series.low[last]!,
      previousClose,
      change,
      changePercent: (change / previousClose) * 100,
      ts: new Date(series.ts[last]!).toISOString(),
      marketOpen: false,
      source: NAME,
    };
  }

  /** Reads the test symbol; `down` when the directory is missing or empty or its file does not parse. */
  async selfCheck(): Promise<SelfCheck> {
    const started = performance.now();
    this.files = undefined; // a health check sees files added since the last listing
    const files = this.listing();
    const symbol = this.testSymbol;
    const result = (status: SelfCheck['status'], message?: string): SelfCheck => ({
      status,
      provider: NAME,
      symbol,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
      ...(message ? { message } : {}),
    });
    const { dir } = this.options;
    if (!files) return result('down', `${NAME}: data directory ${dir} does not exist or cannot be read (test symbol ${symbol})`);
    if (files.size === 0) return result('down', `${NAME}: no .csv or .csv.gz files in ${dir} (test symbol ${symbol})`);
    const timeframe = TIMEFRAMES.find((tf) => files.get(symbol)?.has(tf)) ?? 'daily';
    try {
      const series = await this.bars({ symbol, timeframe });
      if (series.ts.length === 0) return result('down', `${NAME}: ${symbol} in ${dir} has no bars`);
      return result('ok');
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return result('down', `${NAME}: cannot read ${symbol} from ${dir}: ${detail}`);
    }
  }

  private listing(): FileIndex | null {
    if (this.files === undefined) this.files = indexDirectory(this.options.dir);
    return this.files;
  }

  private missingDirectory(symbol: string | null): ProviderError {
    return new ProviderError('unavailable', NAME, symbol, `data directory ${this.options.dir} does not exist or cannot be read`);
  }

  /** Parses a file once; concurrent first requests share the parse, a failure is not cached. */
  private load(symbol: string, timeframe: Timeframe, path: string): Promise<BarSeries> {
    const key = `${symbol}\u0000${timeframe}`;
    let pending = this.cache.get(key);
    if (!pending) {
      pending = this.read(symbol, timeframe, path);
      pending.catch(() => this.cache.delete(key));
      this.cache.set(key, pending);
    }
    return pending;
  }

  private async read(symbol: string, timeframe: Timeframe, path: string): Promise<BarSeries> {
    let bytes: Uint8Array;
    try {
      bytes = await Bun.file(path).bytes();
    } catch (error) {
      throw new ProviderError('unavailable', NAME, symbol, `cannot read ${path}: ${String(error)}`);
    }
    try {
      // gzip member header magic 1f 8b (RFC 1952 §2.3.1), whatever the file is called
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = Bun.gunzipSync(bytes as Uint8Array<ArrayBuffer>);
      const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
      const columns = parseOhlcvCsv(text, { daily: timeframe === 'daily', zone: this.zone });
      return { symbol, timeframe, ...columns, source: NAME };
    } catch (error) {
      const detail = error instanceof CsvFormatError ? error.message : `not a readable CSV or gzip file (${String(error)})`;
      throw new ProviderError('bad_payload', NAME, symbol, `cannot parse ${path}: ${detail}`);
    }
  }
}
