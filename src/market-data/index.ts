/**
 * @module market-data
 * Cache-through access to the configured provider: the shared bar store first,
 * then (for a remote provider) the database, and the provider only for what is
 * missing or stale (older than `BARS_CACHE_TTL_SECONDS`). Concurrent requests for the same series
 * share one fetch. Fetched bars are written to the database behind the answer
 * (one serialised write queue), so a read never waits on a write; `flush()`
 * waits for the queue (shutdown, tests). A provider's live feed keeps held
 * series current (`applyLive`): its forming bar in place, its closed bars
 * appended and stored.
 */
import type { BarsRepository } from '../db/repositories/bars';
import type { Logger } from '../log';
import { seriesKey, type BarStore } from '../store';
import { newYorkDate } from '../providers/new-york-time';
import type { LiveBar } from '../providers/live/types';
import { CAPABILITY_METHODS, ProviderError, sliceSeries, type BarSeries, type CapabilityMethod, type Instrument, type MarketDataProvider, type Snapshot } from '../providers/types';
import type { Timeframe } from '../domain/signal';
import { ohlcvFrom, type OhlcvColumn } from '../kernels/ohlcv';

/** Serialised answers held at most (see `serialized`). */
const SERIALIZED_MAX = 4096;

export interface MarketDataOptions {
  provider: MarketDataProvider;
  repository: BarsRepository;
  store: BarStore;
  ttlMs: number;
  log: Logger;
  now?: () => number;
}

/** Where an answer held for a series is kept (`MarketData.heldRef`): the series' id (the store's `seriesKey`, the key of its fetch time too) and the answer's. */
export interface HeldRef {
  readonly symbol: string;
  readonly timeframe: Timeframe;
  readonly series: string;
  readonly body: string;
}

/** The error of a symbol outside the provider's universe (`unknown_symbol`: a 404 naming the provider and the symbol). */
export const unknownSymbol = (provider: string, symbol: string) => new ProviderError('unknown_symbol', provider, symbol, "symbol is not in this provider's universe");

export class MarketData {
  readonly provider: MarketDataProvider;
  private readonly fetchedAt = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<BarSeries>>();
  private readonly bodies = new Map<string, { loadedAt: number; body: string }>();
  /** Whatever a caller made of a symbol's quote (`quoteToHold`, read by `heldQuote`), with the quote's time and until when it stands. */
  private readonly quoteBodies = new Map<string, { time: number; until: number; value: unknown }>();
  private writes: Promise<void> = Promise.resolve();
  private instrumentsBySymbol?: Map<string, Instrument>;
  private readonly now: () => number;

  constructor(private readonly options: MarketDataOptions) {
    this.provider = options.provider;
    this.now = options.now ?? Date.now;
  }

  async instruments(): Promise<Map<string, Instrument>> {
    if (!this.instrumentsBySymbol) {
      const list = await this.provider.universe();
      this.instrumentsBySymbol = new Map(list.map((i) => [i.symbol, i]));
    }
    return this.instrumentsBySymbol;
  }

  /** The instrument, or a `ProviderError('unknown_symbol')` naming the provider. */
  async instrument(symbol: string): Promise<Instrument> {
    const found = (await this.instruments()).get(symbol);
    if (!found) throw unknownSymbol(this.provider.name, symbol);
    return found;
  }

  /**
   * Whether the provider knows a symbol: a member of its universe, or one it
   * has daily bars for (a provider such as Yahoo answers symbols outside its
   * index lists). A provider that cannot be asked right now throws.
   */
  async known(symbol: string): Promise<boolean> {
    if ((await this.instruments()).has(symbol)) return true;
    try {
      return (await this.bars(symbol, 'daily')).ts.length > 0;
    } catch (error) {
      if (error instanceof ProviderError && error.code === 'unknown_symbol') return false;
      throw error;
    }
  }

  /**
   * Makes the series of `symbols` that are not held fresh ahead, off the main
   * thread where the provider can (its `prepare`), so that reading them next
   * only copies them into the store. A failure is left to `bars`, which makes
   * what is missing on demand.
   */
  async prepare(symbols: readonly string[], timeframe: Timeframe): Promise<void> {
    const { provider, store, ttlMs } = this.options;
    if (!provider.prepare) return;
    const now = this.now();
    const fresh = (symbol: string) => {
      const fetched = this.fetchedAt.get(`${symbol}\u0000${timeframe}`);
      return fetched !== undefined && now - fetched < ttlMs && store.get(symbol, timeframe) !== undefined;
    };
    const missing = symbols.filter((s) => !fresh(s));
    if (missing.length === 0) return;
    await provider.prepare({ symbols: missing, timeframe }).catch((error) => this.options.log.warn('could not prepare bars ahead', { timeframe, provider: provider.name, error: String(error) }));
  }

  /** Bars oldest first, bounded inclusively by `from`/`to` (epoch ms); never a bar after `to`. */
  async bars(symbol: string, timeframe: Timeframe, bounds: { from?: number; to?: number } = {}): Promise<BarSeries> {
    const series = await this.series(symbol, timeframe);
    return bounds.from === undefined && bounds.to === undefined ? series : sliceSeries(series, bounds.from, bounds.to);
  }

  /**
   * When the held copy of a series was fetched (epoch ms), or undefined before
   * the first read. It changes whenever the series is refreshed, so it versions
   * anything derived from the series (e.g. a serialised response).
   */
  loadedAt(symbol: string, timeframe: Timeframe): number | undefined {
    return this.fetchedAt.get(`${symbol}\u0000${timeframe}`);
  }

  /**
   * A series with the serialised answer held for it under `key` (undefined
   * until one is held, and again once the series is refreshed), and `hold` to
   * keep a new one: a repeated read builds no objects and does no JSON work.
   * Bounded: the whole map is dropped at `SERIALIZED_MAX` entries.
   */
  async serialized(symbol: string, timeframe: Timeframe, key: string): Promise<{ series: BarSeries; body: string | undefined; hold: (body: string) => void }> {
    const series = await this.series(symbol, timeframe);
    const loadedAt = this.loadedAt(symbol, timeframe) ?? -1;
    const id = this.heldRef(symbol, timeframe, key).body;
    const held = this.bodies.get(id);
    const hold = (body: string) => {
      if (this.bodies.size >= SERIALIZED_MAX) this.bodies.clear();
      this.bodies.set(id, { loadedAt, body });
    };
    return { series, body: held?.loadedAt === loadedAt ? held.body : undefined, hold };
  }

  /**
   * The ids the answer held for a series under `key` is read by
   * (`heldBody`): a caller that asks again for the same answer (the fast
   * path, per query string) makes them once, not a string per request.
   */
  heldRef(symbol: string, timeframe: Timeframe, key: string): HeldRef {
    const series = seriesKey(symbol, timeframe);
    return { symbol, timeframe, series, body: `${series}\u0000${key}` };
  }

  /**
   * The serialised answer `serialized` would give at once for a known
   * instrument's series held and fresh, read without waiting or reading the
   * series (no views made); undefined whenever `serialized` would have to
   * look further (an unknown or not yet listed symbol, a series not held,
   * stale or refreshed since, no answer held).
   */
  heldBody({ symbol, timeframe, series, body }: HeldRef): string | undefined {
    const fetched = this.fetchedAt.get(series);
    if (fetched === undefined || !this.instrumentsBySymbol?.has(symbol) || this.now() - fetched >= this.options.ttlMs || !this.options.store.hasSeries(series)) return undefined;
    const held = this.bodies.get(body);
    return held?.loadedAt === fetched ? held.body : undefined;
  }

  /**
   * The provider's today (New York date of its latest quote) and the daily
   * bars of complete sessions: a live session's partial bar is left out.
   */
  async completeDaily(symbol: string): Promise<{ bars: BarSeries; today: string }> {
    const [bars, quote] = await Promise.all([this.bars(symbol, 'daily'), this.snapshot(symbol)]);
    const today = newYorkDate(Date.parse(quote.ts));
    const last = bars.ts.length - 1;
    const partial = quote.marketOpen && last >= 0 && new Date(bars.ts[last]!).toISOString().slice(0, 10) === today;
    return { bars: partial ? sliceSeries(bars, -Infinity, bars.ts[last]! - 1) : bars, today };
  }

  snapshot(symbol: string): Promise<Snapshot> {
    return this.provider.snapshot({ symbol });
  }

  /**
   * The answer held for the symbol's quote (what a caller made of it and gave
   * `quoteToHold`'s `hold`), undefined until one is held, and again once the
   * provider's quote has moved (`quoteTime`). Before the instant the provider
   * said the quote may move (`QuoteTime.until`) it is one comparison with the
   * provider's clock (it runs on every /api/snapshot); from then on the
   * provider is asked again, and the answer kept while it names the same time.
   */
  heldQuote<T>(symbol: string): T | undefined {
    const held = this.quoteBodies.get(symbol);
    if (held === undefined) return undefined;
    const { provider } = this;
    if (provider.now!() < held.until) return held.value as T;
    const named = provider.quoteTime?.(symbol);
    if (named === undefined || named.time !== held.time) return undefined;
    held.until = named.until;
    return held.value as T;
  }

  /**
   * A fresh quote and `hold` to keep what the caller makes of it (read back by
   * `heldQuote`), which it does only when the provider names the quote's
   * time (and keeps the clock it is valid against) and the quote is of that
   * time. A provider that cannot tell when its quote moves holds nothing:
   * every read is a fresh quote.
   */
  async quoteToHold<T>(symbol: string): Promise<{ quote: Snapshot; hold: (value: T) => void }> {
    const before = this.provider.now ? this.provider.quoteTime?.(symbol) : undefined;
    const quote = await this.snapshot(symbol);
    const hold = (value: T) => {
      // The quote is of a time the provider named (before it was made, or after: a first quote builds what it names it by),
      // so until the provider said it may move, and whenever it names that time again, the quote is this one.
      const named = before ?? (this.provider.now ? this.provider.quoteTime?.(symbol) : undefined);
      if (named === undefined || Date.parse(quote.ts) !== named.time) return;
      if (this.quoteBodies.size >= SERIALIZED_MAX) this.quoteBodies.clear();
      this.quoteBodies.set(symbol, { time: named.time, until: named.until, value });
    };
    return { quote, hold };
  }

  /**
   * The provider's method for an optional capability (earnings, float,
   * insiders, …), bound to it; a `ProviderError('unsupported')` (404) naming
   * the capability when no configured source answers it.
   */
  capability<M extends CapabilityMethod>(method: M): NonNullable<MarketDataProvider[M]> {
    const { provider } = this;
    const fn = provider[method];
    if (!fn || !provider.capabilities.has(CAPABILITY_METHODS[method])) {
      throw new ProviderError('unsupported', provider.name, null, `the configured data sources do not provide ${CAPABILITY_METHODS[method].replace('_', ' ')} data`);
    }
    return fn.bind(provider) as NonNullable<MarketDataProvider[M]>;
  }

  /** The name of the source that answers a capability (`edgar`, `finra`, `synthetic`, …). */
  sourceOf(method: CapabilityMethod): string {
    const { provider } = this;
    return provider.sourceOf?.(CAPABILITY_METHODS[method]) ?? provider.name;
  }

  /**
   * A bar the provider's live feed rolled up (providers/live): written into
   * the held series in place (the forming bar revised, a new one appended;
   * the series counts as fresh from now), and, once `final`, queued for the
   * database, up to that bar: a forming bar is never stored there, it is not
   * committed early. A series not held yet is left alone: its first read
   * fetches it whole.
   */
  applyLive({ symbol, timeframe, bar, final }: LiveBar): void {
    const { store, repository, log, provider } = this.options;
    const key = `${symbol}\u0000${timeframe}`;
    const held = store.get(symbol, timeframe);
    if (!held || !this.fetchedAt.has(key)) return;
    const row = { ts: bar.t, open: bar.o, high: bar.h, low: bar.l, close: bar.c, volume: bar.v };
    if (!store.putLast(symbol, timeframe, row)) store.put(withBar(held, row)); // an older bar revised, or a full slot
    const now = this.now();
    this.fetchedAt.set(key, now);
    if (!final || !provider.remote) return;
    const upTo = sliceSeries(store.get(symbol, timeframe)!, -Infinity, bar.t);
    this.writes = this.writes
      .then(() => repository.save(upTo, new Date(now), bar.t))
      .catch((error) => log.warn('could not cache a live bar', { symbol, timeframe, provider: provider.name, error: String(error) }));
  }

  /** Waits until every queued database write has finished. */
  flush(): Promise<void> {
    return this.writes;
  }

  private series(symbol: string, timeframe: Timeframe): Promise<BarSeries> {
    const key = `${symbol}\u0000${timeframe}`;
    const cached = this.options.store.get(symbol, timeframe);
    const fetched = this.fetchedAt.get(key);
    if (cached && fetched !== undefined && this.now() - fetched < this.options.ttlMs) return Promise.resolve(cached);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.refresh(symbol, timeframe, key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async refresh(symbol: string, timeframe: Timeframe, key: string): Promise<BarSeries> {
    const { provider, repository, store, ttlMs, log } = this.options;
    const now = this.now();
    if (!provider.remote) {
      store.put(await provider.bars({ symbol, timeframe, to: now }));
      this.fetchedAt.set(key, now);
      return store.get(symbol, timeframe)!;
    }
    const entry = await repository.cacheEntry(provider.name, symbol, timeframe);
    if (entry && now - entry.fetchedAt.getTime() < ttlMs && entry.barCount > 0) {
      const stored = await repository.load(provider.name, symbol, timeframe);
      if (stored.ts.length === entry.barCount) {
        store.put(stored);
        this.fetchedAt.set(key, entry.fetchedAt.getTime());
        return store.get(symbol, timeframe) ?? stored;
      }
    }
    const series = await provider.bars({ symbol, timeframe, to: now });
    store.put(series);
    this.fetchedAt.set(key, now);
    const since = entry?.lastTs ?? -Infinity;
    this.writes = this.writes
      .then(() => repository.save(series, new Date(now), since))
      .catch((error) => log.warn('could not cache bars', { symbol, timeframe, provider: provider.name, error: String(error) }));
    return store.get(symbol, timeframe) ?? series;
  }
}

/** `series` with `bar` in its place by time: replacing the bar of the same time, else inserted in order. */
function withBar(series: BarSeries, bar: Record<OhlcvColumn, number>): BarSeries {
  const { ts } = series;
  let i = 0;
  while (i < ts.length && ts[i]! < bar.ts) i++;
  const replace = i < ts.length && ts[i] === bar.ts;
  const n = ts.length + (replace ? 0 : 1);
  const out = ohlcvFrom((name) => {
    const column = new Float64Array(n);
    column.set(series[name].subarray(0, i));
    column[i] = bar[name];
    column.set(series[name].subarray(replace ? i + 1 : i), i + 1);
    return column;
  });
  return { ...series, ...out };
}
