/**
 * The embedded database in its own thread (db/pglite-thread, db/pglite-remote;
 * issue 27): a long statement leaves the server's event loop free, errors keep
 * PostgreSQL's fields across the thread, transactions hold their statements
 * together and roll back on a throw, and a thread that ends refuses what
 * waits on it as a database that cannot be reached (503), without taking the
 * process down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { databaseUnreachable, openDatabase, type Database } from '../../src/db/client';
import { isDataException } from '../../src/db/data-errors';
import { rowsOf } from '../../src/db/repositories/rows';
import { endPgliteThreadForTest } from '../../src/db/pglite-remote';

/** A statement that keeps PGlite busy for about a tenth of a second of CPU (200k rows aggregated in numeric), no sleep in it. */
const LONG_STATEMENT = sql`select sum(x::numeric * x)::text as total from generate_series(1, 200000) x`;
/** Σ x² for x = 1…n is n(n+1)(2n+1)/6. */
const LONG_TOTAL = ((200_000n * 200_001n * 400_001n) / 6n).toString();

/** The error drizzle threw, or the driver's under it. */
const cause = (error: unknown) => ((error as { cause?: unknown }).cause ?? error) as Record<string, unknown>;

async function caught(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected the statement to fail');
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('PGlite in its own thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: ':memory:' });
    await database.db.execute(sql`create table thread_notes (id int primary key, body text not null)`);
  });
  afterAll(() => database.close());

  it('leaves the event loop free while a long statement runs: a 10 ms timer ticks meanwhile', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      expect(rowsOf(await database.db.execute(LONG_STATEMENT))).toEqual([{ total: LONG_TOTAL }]);
    } finally {
      clearInterval(timer);
    }
    // In the server's thread (before) the timer could not run until the statement ended: 0 ticks.
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('keeps an error’s SQLSTATE, message and fields across the thread', async () => {
    await database.db.execute(sql`insert into thread_notes values (1, 'first')`);
    const duplicate = cause(await caught(database.db.execute(sql`insert into thread_notes values (1, 'again')`)));
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'thread_notes_pkey', message: 'duplicate key value violates unique constraint "thread_notes_pkey"' });
    const refused = await caught(database.db.execute(sql`select ${'x'}::int`));
    expect(cause(refused)).toMatchObject({ code: '22P02', message: 'invalid input syntax for type integer: "x"' });
    expect(isDataException(refused)).toBe(true);
    expect(databaseUnreachable(refused)).toBe(false);
  });

  it('commits a transaction’s statements together, rolls back on a throw, and keeps other statements until it ends', async () => {
    await database.db.execute(sql`delete from thread_notes`);
    const failure = await caught(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_notes values (10, 'rolled back')`);
        throw new Error('the caller changed its mind');
      }),
    );
    expect((failure as Error).message).toBe('the caller changed its mind');
    let outside: Promise<unknown> | undefined;
    const committed = await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_notes values (20, 'kept')`);
      // Sent while the transaction is open: PGlite runs it after the commit, as in one thread.
      outside = database.db.execute(sql`select count(*)::int as n from thread_notes`);
      await tx.transaction(async (inner) => {
        await inner.execute(sql`insert into thread_notes values (21, 'savepoint rolled back')`);
        inner.rollback();
      }).catch(() => {});
      await tx.execute(sql`insert into thread_notes values (22, 'kept too')`);
      return rowsOf(await tx.execute(sql`select count(*)::int as n from thread_notes`));
    });
    expect(committed).toEqual([{ n: 2 }]);
    expect(rowsOf(await outside)).toEqual([{ n: 2 }]);
    expect(rowsOf(await database.db.execute(sql`select id from thread_notes order by id`))).toEqual([{ id: 20 }, { id: 22 }]);
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('PGlite’s thread ending', () => {
  it('refuses the statements to an in-memory database once its thread ended as unreachable (503), and the next open starts a new thread', async () => {
    const database = await openDatabase({ dataDir: ':memory:' });
    const waiting = caught(database.db.execute(LONG_STATEMENT));
    endPgliteThreadForTest();
    const refused = await waiting;
    expect(databaseUnreachable(refused)).toBe(true);
    expect(databaseUnreachable(await caught(database.db.execute(sql`select 1`)))).toBe(true);
    await database.close(); // nothing left to close: it resolves
    const next = await openDatabase({ dataDir: ':memory:' });
    expect(rowsOf(await next.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
    await next.close();
  });

  it('opens a database on disk again in a new thread at its next statement, with what was committed and without the transaction it ended', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'breakline-pglite-thread-'));
    try {
      const database = await openDatabase({ dataDir: join(dir, 'pgdata') });
      await database.db.execute(sql`create table kept (n int)`);
      await database.db.execute(sql`insert into kept values (7)`);
      const ended = await caught(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into kept values (8)`);
          endPgliteThreadForTest();
          await tx.execute(sql`insert into kept values (9)`);
        }),
      );
      expect(databaseUnreachable(ended)).toBe(true);
      expect(rowsOf(await database.db.execute(sql`select n from kept order by n`))).toEqual([{ n: 7 }]);
      await database.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
