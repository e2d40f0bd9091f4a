/**
 * @module db/pglite-parsers
 * drizzle's type parsers, on either side of PGlite's thread. drizzle's PGlite
 * driver sends its own parsers with every query (timestamps, dates, intervals
 * and their arrays kept as the text PostgreSQL sent; drizzle maps them itself:
 * drizzle-orm/pglite/session.js). A function cannot cross to the thread PGlite
 * runs in (db/pglite-thread), and PGlite would copy its whole table of every
 * type's parser for each query bringing any (`{ ...this.parsers,
 * ...options.parsers }` in parseResults: 318 entries, about 0.2 ms and a
 * 318-property object of garbage each, 15% of the server's main thread while
 * the boot replay wrote, issue 27). So the thread puts drizzle's parsers in
 * PGlite's table once (`installTextParsers`) and a query crosses without them
 * (`wireOptions`): the merge would have picked the same parser for every type,
 * so the rows are the same. A query bringing any other parser is refused.
 */
import type { PGlite, QueryOptions } from '@electric-sql/pglite';
import { types } from '@electric-sql/pglite';

/** The types drizzle's driver reads as text (drizzle-orm/pglite/session.js: numeric[], timestamp[], timestamptz[], interval[], date[] by oid). */
const DRIZZLE_TEXT_TYPES: readonly number[] = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];

const asText = (value: string) => value;
const textTypes = new Set(DRIZZLE_TEXT_TYPES.map(String));

/** A query's options as they cross to PGlite's thread. */
export interface WireQueryOptions {
  rowMode?: QueryOptions['rowMode'];
}

/** The options as sent, kept per options object: drizzle reuses one per prepared query. */
const wired = new WeakMap<QueryOptions, WireQueryOptions>();

/**
 * What of a query's options crosses to PGlite's thread: its row mode. Parsers
 * other than drizzle's text ones (installed there once) cannot cross.
 *
 * @throws when `options` brings a parser for a type drizzle does not read as text
 */
export function wireOptions(options: QueryOptions | undefined): WireQueryOptions | undefined {
  if (!options) return undefined;
  let wire = wired.get(options);
  if (!wire) {
    const foreign = Object.keys(options.parsers ?? {}).filter((oid) => !textTypes.has(oid));
    if (foreign.length > 0) throw new Error(`PGlite runs in its own thread: a query cannot bring parsers (types ${foreign.join(', ')}); only drizzle's text parsers are installed there`);
    if (options.serializers || options.blob || options.onNotice || options.paramTypes) throw new Error('PGlite runs in its own thread: a query can bring only rowMode and drizzle\'s parsers');
    wire = options.rowMode ? { rowMode: options.rowMode } : {};
    wired.set(options, wire);
  }
  return wire;
}

/**
 * Puts drizzle's text parsers in `client`'s table, for every query, once it is ready (after PGlite loaded its
 * array types at start, which would replace the array ones; `refreshArrayTypes` would too, and nothing calls it).
 */
export function installTextParsers(client: PGlite): void {
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = asText;
}
