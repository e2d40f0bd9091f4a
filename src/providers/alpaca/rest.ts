/**
 * @module providers/alpaca/rest
 * Alpaca Market Data v2 over REST (alpacahq/alpaca-docs,
 * market-data-api/stock-pricing-data/historical.md): bars of one symbol
 * (`/v2/stocks/{symbol}/bars`) or of many at once (`/v2/stocks/bars`, what a
 * backfill of the whole universe asks), followed page by page through
 * `next_page_token`, and the snapshot (`/v2/stocks/{symbol}/snapshot`).
 *
 * - Authentication: the `APCA-API-KEY-ID` and `APCA-API-SECRET-KEY` headers
 *   (docs.alpaca.markets "Authentication"); the keys are never put in a URL,
 *   so no error message or log line carries them.
 * - Rate: the Basic plan allows 200 requests a minute (docs.alpaca.markets
 *   "Market Data FAQ"); requests are spaced at `ratePerMinute`, and a 429 is
 *   waited out as its `Retry-After` / `X-RateLimit-Reset` says (providers/http).
 * - `feed` (`iex` on the free plan, `sip` paid) and `adjustment` (`raw`,
 *   `split`, `dividend`, `all`) go on every bars request; `limit` is the
 *   documented maximum, 10,000 bars a page.
 */
import { VendorHttp } from '../http';
import type { VendorBar } from '../live/bars';
import { ProviderError, type Snapshot } from '../types';
import { NAME, parseBarsPage, parseMultiBarsPage, parseSnapshot } from './parse';

export type AlpacaFeed = 'iex' | 'sip';
export type AlpacaAdjustment = 'raw' | 'split' | 'dividend' | 'all';
/** The vendor's bar sizes this adapter asks for. */
export type AlpacaTimeframe = '1Min' | '30Min' | '1Day';

export interface AlpacaRestOptions {
  keyId: string;
  secretKey: string;
  /** `https://data.alpaca.markets` (or a loopback server speaking the same API). */
  dataUrl: string;
  feed: AlpacaFeed;
  adjustment: AlpacaAdjustment;
  /** Requests a minute (the Basic plan's 200 by default). */
  ratePerMinute?: number;
  /** Bars a page (default and most: `PAGE_LIMIT`). */
  pageLimit?: number;
  timeoutMs?: number;
  /** Limiter clock and sleep (tests). */
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

/** The most bars a page holds (the documented maximum of `limit`). */
export const PAGE_LIMIT = 10_000;
/** Pages followed at most for one question: a token that never ends is a vendor fault, not a long history. */
const MAX_PAGES = 2_000;
/** A 429 whose Retry-After is longer than this is not waited for (the caller asks again later). */
const MAX_RETRY_WAIT_MS = 60_000;

export interface BarsWindow {
  timeframe: AlpacaTimeframe;
  /** Inclusive bounds, epoch ms. */
  start: number;
  end: number;
}

export class AlpacaRest {
  private readonly http: VendorHttp;

  constructor(private readonly options: AlpacaRestOptions) {
    if (!options.keyId) throw new ProviderError('missing_credential', NAME, null, 'ALPACA_KEY_ID is not set');
    if (!options.secretKey) throw new ProviderError('missing_credential', NAME, null, 'ALPACA_SECRET_KEY is not set');
    this.http = new VendorHttp({
      vendor: NAME,
      ratePerSecond: (options.ratePerMinute ?? 200) / 60,
      headers: { 'APCA-API-KEY-ID': options.keyId, 'APCA-API-SECRET-KEY': options.secretKey },
      timeoutMs: options.timeoutMs,
      retryAfter: { attempts: 3, maxWaitMs: MAX_RETRY_WAIT_MS },
      now: options.now,
      sleep: options.sleep,
    });
  }

  /** Every bar of one symbol in the window, oldest first, across as many pages as it takes. */
  async bars(symbol: string, window: BarsWindow): Promise<VendorBar[]> {
    const out: VendorBar[] = [];
    await this.pages(`/v2/stocks/${encodeURIComponent(symbol)}/bars`, this.barsQuery(window), symbol, (payload) => {
      const page = parseBarsPage(payload, symbol);
      out.push(...page.bars);
      return page.next;
    });
    return out;
  }

  /** Every bar of each symbol in the window (the multi-symbol endpoint: symbol by symbol, page by page). */
  async barsMany(symbols: readonly string[], window: BarsWindow): Promise<Map<string, VendorBar[]>> {
    const out = new Map<string, VendorBar[]>(symbols.map((s) => [s, []]));
    if (symbols.length === 0) return out;
    const query = this.barsQuery(window);
    query.set('symbols', symbols.join(','));
    await this.pages('/v2/stocks/bars', query, null, (payload) => {
      const page = parseMultiBarsPage(payload);
      for (const [symbol, bars] of page.bars) {
        const held = out.get(symbol);
        if (held) held.push(...bars);
        else out.set(symbol, [...bars]);
      }
      return page.next;
    });
    return out;
  }

  async snapshot(symbol: string, now: number): Promise<Snapshot> {
    const url = `${this.options.dataUrl}/v2/stocks/${encodeURIComponent(symbol)}/snapshot?feed=${this.options.feed}`;
    return parseSnapshot(await this.http.json(url, { symbol }), symbol, now);
  }

  private barsQuery(window: BarsWindow): URLSearchParams {
    return new URLSearchParams({
      timeframe: window.timeframe,
      start: new Date(window.start).toISOString(),
      end: new Date(window.end).toISOString(),
      limit: String(this.options.pageLimit ?? PAGE_LIMIT),
      adjustment: this.options.adjustment,
      feed: this.options.feed,
    });
  }

  /** Asks `path?query`, then again with each `page_token` `read` returns, until it returns none. */
  private async pages(path: string, query: URLSearchParams, symbol: string | null, read: (payload: unknown) => string | undefined): Promise<void> {
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const next = read(await this.http.json(`${this.options.dataUrl}${path}?${query}`, { symbol, notFound: [404] }));
      if (next === undefined) return;
      if (seen.has(next)) throw new ProviderError('bad_payload', NAME, symbol, `next_page_token '${next}' came back twice`);
      seen.add(next);
      query.set('page_token', next);
    }
    throw new ProviderError('bad_payload', NAME, symbol, `more than ${MAX_PAGES} pages of bars`);
  }
}
