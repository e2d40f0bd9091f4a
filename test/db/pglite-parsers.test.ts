/**
 * drizzle over PGlite in its own thread (db/pglite-parsers): the same rows as
 * drizzle's own driver over an in-thread PGlite gives, in and out of a
 * transaction, with drizzle's parsers installed in the thread instead of
 * crossing with each query (a function cannot cross, and PGlite would copy its
 * whole parsers table per query that brings any: issue 27).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { PGlite, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { openDatabase, type Database } from '../../src/db/client';
import { rowsOf } from '../../src/db/repositories/rows';
import { wireOptions } from '../../src/db/pglite-parsers';

/** One value of every type drizzle's driver reads as text, and a few it leaves to PGlite. */
const EVERY_TYPE = sql`select
  timestamp '2026-11-27 14:30:00.123' as ts,
  timestamptz '2026-11-27 14:30:00.123+00' as tstz,
  date '2026-11-27' as d,
  interval '1 day 02:03:04' as iv,
  array[1.5, 2.25]::numeric[] as nums,
  array[timestamp '2026-01-02 03:04:05']::timestamp[] as tss,
  array[timestamptz '2026-01-02 03:04:05+00']::timestamptz[] as tstzs,
  array[interval '3 hours']::interval[] as ivs,
  array[date '2026-01-02', null]::date[] as ds,
  12345678901234::int8 as big,
  1.25::numeric as num,
  '{"a":[1,2]}'::jsonb as j,
  '\\x00ff10'::bytea as bytes,
  array['x', 'y'] as words,
  true as yes`;

describe('drizzle over PGlite in its thread (db/pglite-parsers)', () => {
  const pg = new PGlite();
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: ':memory:' });
  });
  afterAll(async () => {
    await pg.close();
    await database.close();
  });

  it('reads every type as drizzle’s own driver does over PGlite in this thread, in and out of a transaction', async () => {
    const before = (await drizzle(pg).execute(EVERY_TYPE)).rows; // drizzle's own driver, its parsers sent with the query
    expect(rowsOf(await database.db.execute(EVERY_TYPE))).toEqual(before);
    expect(rowsOf(await database.db.transaction((tx) => tx.execute(EVERY_TYPE)))).toEqual(before);
    expect(before[0]).toMatchObject({ ts: '2026-11-27 14:30:00.123', d: '2026-11-27', nums: '{1.5,2.25}', big: 12345678901234, yes: true, j: { a: [1, 2] }, bytes: Uint8Array.from([0, 255, 16]) });
  });

  it('sends drizzle’s text parsers as nothing but the row mode, and refuses a parser the thread does not have', () => {
    const text = (value: string) => value;
    expect(wireOptions({ rowMode: 'array', parsers: { [types.TIMESTAMPTZ]: text, 1182: text } })).toEqual({ rowMode: 'array' });
    expect(() => wireOptions({ parsers: { [types.INT8]: (value: string) => BigInt(value) } })).toThrow(/cannot bring parsers \(types 20\)/);
  });
});
