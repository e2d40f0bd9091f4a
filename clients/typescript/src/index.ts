/**
 * @module @breakline/client
 * A typed client of the Breakline HTTP API: openapi-fetch (one `fetch` per
 * call, no runtime schema) over the types openapi-typescript generates from
 * the server's own document (`npm run generate` reads `/openapi/json`), so
 * paths, parameters and answers are checked by `tsc` and nothing of the
 * server's source tree is needed.
 *
 * @example
 * const api = createBreaklineClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.BREAKLINE_KEY });
 * const { data, error } = await api.GET('/api/bars', { params: { query: { symbol: 'AAPL', range: '1mo' } } });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };
/** JSON answers: openapi-fetch types `data` by the media types it is told of (bars also come as CSV and NDJSON, read with `parseAs: 'text'`). */
export type BreaklineClient = Client<paths, 'application/json'>;

export interface ClientOptions {
  /** Where the server is, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An API key (`bk_…`), sent as `Authorization: Bearer`; without it the public routes answer at the anonymous quota. */
  apiKey?: string;
  /** The contract version to be answered under (`API-Version`); the server's default otherwise. */
  apiVersion?: components['parameters']['ApiVersion'];
  /** Another fetch (a test's, a proxy's). */
  fetch?: typeof fetch;
}

export function createBreaklineClient({ baseUrl, apiKey, apiVersion, fetch: fetchImpl }: ClientOptions): BreaklineClient {
  const headers: Record<string, string> = {};
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (apiVersion) headers['api-version'] = apiVersion;
  return createClient<paths, 'application/json'>({ baseUrl, headers, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
}

type BarsQuery = NonNullable<paths['/api/bars']['get']['parameters']['query']>;
export type PriceBar = components['schemas']['PriceBar'];

/**
 * Every bar of a window, page after page (`range=max` by default): follows
 * `pagination.nextCursor` until the last page.
 */
export async function* allBars(client: BreaklineClient, query: Omit<BarsQuery, 'cursor' | 'format'>): AsyncGenerator<PriceBar[], void, undefined> {
  let cursor: string | undefined;
  do {
    const { data, error } = await client.GET('/api/bars', { params: { query: { range: 'max', ...query, ...(cursor ? { cursor } : {}) } } });
    if (error !== undefined || data === undefined) throw new Error(`GET /api/bars: ${error?.error ?? 'no answer'}`);
    yield data.bars;
    cursor = data.pagination?.nextCursor ?? undefined;
  } while (cursor);
}
