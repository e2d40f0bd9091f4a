/**
 * drizzle over PGlite without a parsers table copied per query (issue 27):
 * the same rows as drizzle's own driver gives, and the queries reach PGlite
 * without per-query parsers, in and out of a transaction.
 */
import { afterAll, describe, expect, it, spyOn } from 'bun:test';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { drizzleClient } from '../../src/db/pglite-parsers';

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
  array['x', 'y'] as words,
  true as yes`;

describe('drizzle over PGlite (db/pglite-parsers)', () => {
  const pg = new PGlite();
  afterAll(() => pg.close());

  it('reads every type as drizzle’s own driver does, in and out of a transaction, without sending PGlite parsers', async () => {
    const before = (await drizzle(pg).execute(EVERY_TYPE)).rows; // drizzle's own driver, before its parsers are installed
    const sent: (QueryOptions | undefined)[] = [];
    const query = spyOn(pg, 'query');
    query.mockImplementation(function (...args: Parameters<PGlite['query']>) {
      sent.push(args[2]);
      return PGlite.prototype.query.apply(pg, args);
    } as PGlite['query']);
    try {
      const db = drizzle({ client: await drizzleClient(pg) });
      expect((await db.execute(EVERY_TYPE)).rows).toEqual(before);
      expect((await db.transaction((tx) => tx.execute(EVERY_TYPE))).rows).toEqual(before);
    } finally {
      query.mockRestore();
    }
    expect(before[0]).toMatchObject({ ts: '2026-11-27 14:30:00.123', d: '2026-11-27', nums: '{1.5,2.25}', big: 12345678901234, yes: true, j: { a: [1, 2] } });
    // PGlite copies its whole parsers table for a query that brings parsers: none did.
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((o) => o?.parsers !== undefined)).toEqual([]);
  });
});
