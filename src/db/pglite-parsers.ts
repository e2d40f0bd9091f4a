/**
 * @module db/pglite-parsers
 * The PGlite client drizzle is given: drizzle's PGlite driver sends its own
 * type parsers with every query (timestamps, dates, intervals and their
 * arrays kept as the text PostgreSQL sent; drizzle maps them itself:
 * drizzle-orm/pglite/session.js), and PGlite merges them into its table of
 * every type's parser per query (`{ ...this.parsers, ...options.parsers }` in
 * parseResults: 318 entries after its array types are loaded) — a copy of
 * the whole table for each query, about 0.2 ms and a 318-property object of
 * garbage each, 15% of the server's main thread while the boot replay writes
 * (issue 27: bun:jsc sampling profiler, `cloneObject` under parseResults).
 *
 * Here drizzle's parsers are put in PGlite's table once, and a query that
 * brings exactly those is sent without them: the merge would have picked the
 * same parser for every type, so the rows are the same. A query bringing any
 * other parser is sent as it came.
 */
import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import { types } from '@electric-sql/pglite';

/** The types drizzle's driver reads as text (drizzle-orm/pglite/session.js: numeric[], timestamp[], timestamptz[], interval[], date[] by oid). */
const DRIZZLE_TEXT_TYPES: readonly number[] = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];

const asText = (value: string) => value;
const textTypes = new Set(DRIZZLE_TEXT_TYPES.map(String));

/** The options without drizzle's parsers when those are all they bring (kept per options object: drizzle reuses one per prepared query). */
const stripped = new WeakMap<QueryOptions, QueryOptions>();
function withoutTextParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!options || !parsers) return options;
  let bare = stripped.get(options);
  if (!bare) {
    if (!Object.keys(parsers).every((oid) => textTypes.has(oid))) return options;
    const { parsers: _, ...rest } = options;
    bare = rest;
    stripped.set(options, bare);
  }
  return bare;
}

type Queries = Pick<PGlite | Transaction, 'query'>;

/** `target` with `query` sending drizzle's parsers once instead of per query; everything else as it is. */
function lean<T extends Queries>(target: T): T {
  const query: Queries['query'] = (text, params, options) => target.query(text, params, withoutTextParsers(options));
  return new Proxy(target, {
    get(t, key) {
      if (key === 'query') return query;
      if (key === 'transaction' && 'transaction' in t) {
        const client = t as unknown as PGlite;
        return <R>(callback: (tx: Transaction) => Promise<R>) => client.transaction((tx) => callback(lean(tx)));
      }
      const value = Reflect.get(t, key, t) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(t) : value;
    },
  });
}

/**
 * The client to give drizzle over `client`, once it is ready: its parsers table gains drizzle's text types, read
 * as text for every query (after PGlite loaded its array types at start, which would replace the array ones;
 * `refreshArrayTypes` would too, and nothing calls it).
 */
export async function drizzleClient(client: PGlite): Promise<PGlite> {
  await client.waitReady;
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = asText;
  return lean(client);
}
