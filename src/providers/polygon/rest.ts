/**
 * @module providers/polygon/rest
 * Polygon (Massive) over REST: custom bars followed through `next_url`, the
 * daily market summary (one request a day for every US stock), the ticker
 * snapshot. Shapes: providers/polygon/parse.
 *
 * - Host: `baseUrl` (the vendor renamed `api.polygon.io` to `api.massive.com`;
 *   both are configurable). A `next_url` is followed on the configured host
 *   (its path and query, as the official client does: polygon-io/client-python
 *   `rest/base.py` `_paginate_iter`).
 * - Authentication: `Authorization: Bearer <key>` (the official client's
 *   header), never the `apiKey` query parameter, so no URL carries the key.
 * - Rate: the free plan allows 5 requests a minute (massive.com knowledge base,
 *   "What is the request limit for Massive's RESTful APIs?"); requests are
 *   spaced at `ratePerMinute`. A 429 is waited out: `Retry-After` when sent,
 *   else a minute, as the vendor's 429 body asks ("please wait").
 * - `adjusted=true` (split-adjusted, the vendor's default, as our other
 *   providers' bars are); `limit=50000`, the documented maximum of base
 *   aggregates a request reads; `sort=asc`.
 */
import { VendorHttp } from '../http';
import type { VendorBar } from '../live/bars';
import { ProviderError, type Snapshot } from '../types';
import { NAME, parseAggsPage, parseGroupedDaily, parseSnapshot } from './parse';

export type PolygonTimespan = 'minute' | 'day';

export interface PolygonRestOptions {
  apiKey: string;
  /** `https://api.massive.com` (or `https://api.polygon.io`, or a loopback server). */
  baseUrl: string;
  /** Requests a minute (the free plan's 5 by default). */
  ratePerMinute?: number;
  /** Base aggregates a request reads (default and most: 50,000). */
  limit?: number;
  timeoutMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

const MAX_PAGES = 2_000;

export class PolygonRest {
  private readonly http: VendorHttp;

  constructor(private readonly options: PolygonRestOptions) {
    if (!options.apiKey) throw new ProviderError('missing_credential', NAME, null, 'POLYGON_API_KEY is not set');
    this.http = new VendorHttp({
      vendor: NAME,
      ratePerSecond: (options.ratePerMinute ?? 5) / 60,
      headers: { authorization: `Bearer ${options.apiKey}` },
      timeoutMs: options.timeoutMs,
      retryAfter: { attempts: 3, maxWaitMs: 65_000, defaultMs: 60_000 },
      now: options.now,
      sleep: options.sleep,
    });
  }

  /** Every `multiplier × timespan` bar of `symbol` with a start in [from, to] (epoch ms), oldest first. */
  async aggregates(symbol: string, multiplier: number, timespan: PolygonTimespan, from: number, to: number): Promise<VendorBar[]> {
    const out: VendorBar[] = [];
    const query = new URLSearchParams({ adjusted: 'true', sort: 'asc', limit: String(this.options.limit ?? 50_000) });
    let url = `${this.options.baseUrl}/v2/aggs/ticker/${encodeURIComponent(symbol)}/range/${multiplier}/${timespan}/${Math.floor(from)}/${Math.floor(to)}?${query}`;
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const { bars, next } = parseAggsPage(await this.http.json(url, { symbol }), symbol);
      out.push(...bars);
      if (next === undefined) return out;
      const rebased = this.rebase(next);
      if (seen.has(rebased)) throw new ProviderError('bad_payload', NAME, symbol, 'next_url came back twice');
      seen.add(rebased);
      url = rebased;
    }
    throw new ProviderError('bad_payload', NAME, symbol, `more than ${MAX_PAGES} pages of aggregates`);
  }

  /** Every US stock's bar of one session (`YYYY-MM-DD`), by ticker. */
  async groupedDaily(date: string): Promise<Map<string, VendorBar>> {
    const url = `${this.options.baseUrl}/v2/aggs/grouped/locale/us/market/stocks/${date}?adjusted=true`;
    return parseGroupedDaily(await this.http.json(url, { symbol: null }));
  }

  async snapshot(symbol: string, now: number): Promise<Snapshot> {
    const url = `${this.options.baseUrl}/v2/snapshot/locale/us/markets/stocks/tickers/${encodeURIComponent(symbol)}`;
    return parseSnapshot(await this.http.json(url, { symbol }), symbol, now);
  }

  /** A vendor's `next_url` on the configured host. */
  private rebase(next: string): string {
    const url = new URL(next, this.options.baseUrl);
    return `${this.options.baseUrl}${url.pathname}${url.search}`;
  }
}
