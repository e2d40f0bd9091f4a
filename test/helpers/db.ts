/**
 * A throwaway database for a test or a benchmark: nothing without DATABASE_URL
 * (the caller uses an in-memory PGlite), else a fresh PostgreSQL database
 * dropped by `drop()`.
 */
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { openDatabase, type Database } from '../../src/db/client';

export const usingPostgres = Boolean(process.env.DATABASE_URL);

export async function freshDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const base = process.env.DATABASE_URL;
  if (!base) return undefined;
  const name = `breakline_t_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const admin2 = postgres(base, { max: 1, onnotice: () => {} });
      try {
        // FORCE cannot end an autovacuum worker the role does not own (after a big
        // write it may still be busy): wait for it a little.
        for (let attempt = 1; ; attempt++) {
          try {
            await admin2.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            break;
          } catch (error) {
            if (attempt >= 20) throw error;
            await Bun.sleep(500);
          }
        }
      } finally {
        await admin2.end();
      }
    },
  };
}


/**
 * A migrated database of its own: PGlite in memory, or with DATABASE_URL a
 * fresh PostgreSQL database. `close()` closes it and drops the PostgreSQL one.
 */
export async function openFreshDatabase(): Promise<{ database: Database; close: () => Promise<void> }> {
  const fresh = await freshDatabaseUrl();
  const database = await openDatabase({ url: fresh?.url, dataDir: ':memory:' });
  return {
    database,
    close: async () => {
      await database.close();
      await fresh?.drop();
    },
  };
}

/**
 * Runs SQL as a superuser that bypasses the ledger's triggers (to play the
 * attacker): on PostgreSQL through DATABASE_ADMIN_URL on the test's own
 * database (`url`), on PGlite in its one session.
 */
export async function asSuperuser(database: Database, url: string | undefined, statement: string): Promise<void> {
  if (url) {
    const admin = process.env.DATABASE_ADMIN_URL;
    if (!admin) throw new Error('DATABASE_ADMIN_URL (a superuser) is needed for the tamper tests on PostgreSQL');
    const target = new URL(admin);
    target.pathname = new URL(url).pathname;
    const client = postgres(target.toString(), { max: 1, onnotice: () => {} });
    await client.unsafe(`SET session_replication_role = replica; ${statement}; SET session_replication_role = origin;`);
    await client.end();
    return;
  }
  // PGlite: one connection, so the session setting holds across three statements.
  await database.db.execute(sql.raw('SET session_replication_role = replica'));
  await database.db.execute(sql.raw(statement));
  await database.db.execute(sql.raw('SET session_replication_role = origin'));
}
