/**
 * db/migrator reaches into drizzle-orm's dialect migrator (the standalone
 * executable has no drizzle/ folder to give drizzle's public migrator). These
 * tests fail loudly when a drizzle-orm upgrade moves what it relies on: the
 * bookkeeping table drizzle-kit reads must hold every embedded migration with
 * the SHA-256 of its SQL, applying again must change nothing, and a drizzle
 * without the internal must be refused with a message naming the file to fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { migrations } from '../../drizzle/migrations';
import { openDatabase, type Database } from '../../src/db/client';
import { applyMigrations, migrationMetas } from '../../src/db/migrator';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ url: undefined, dataDir: ':memory:' });
});
afterAll(() => database.close());

type Row = { hash: string; created_at: string };
const recorded = async (): Promise<Row[]> => {
  const result = (await database.db.execute(sql`select hash, created_at::text from drizzle.__drizzle_migrations order by id`)) as unknown as { rows?: Row[] } | Row[];
  return Array.isArray(result) ? result : (result.rows ?? []);
};

describe('the migrator', () => {
  it('records every embedded migration with the SHA-256 of its SQL and its folder time, as drizzle-kit does', async () => {
    const rows = await recorded();
    expect(rows.map((r) => r.hash)).toEqual(migrations.map((m) => createHash('sha256').update(m.sql).digest('hex')));
    expect(rows.map((r) => Number(r.created_at))).toEqual(migrations.map((m) => m.when));
    expect(migrationMetas().map((m) => m.hash)).toEqual(rows.map((r) => r.hash));
  });

  it('applies nothing twice', async () => {
    await applyMigrations(database.db);
    expect(await recorded()).toHaveLength(migrations.length);
  });

  it('refuses a drizzle without its dialect migrator, naming the file to change', async () => {
    await expect(applyMigrations({})).rejects.toThrow('src/db/migrator.ts');
    await expect(applyMigrations({ dialect: {}, session: {} })).rejects.toThrow('dialect.migrate');
  });
});
