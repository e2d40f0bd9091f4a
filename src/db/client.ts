/**
 * @module db/client
 * Opens the database: PGlite (embedded PostgreSQL) under `STATE_DIR` by default,
 * a PostgreSQL server through postgres.js when `DATABASE_URL` is set. Both give
 * the same drizzle API over the same schema, and both run the same migrations
 * at open.
 *
 * @example
 * const database = await openDatabase({ url: undefined, dataDir: ':memory:' });
 * await database.db.select().from(bars).limit(1);
 * await database.close();
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import initdbWasmPath from '@electric-sql/pglite/initdb.wasm' with { type: 'file' };
import pgliteDataPath from '@electric-sql/pglite/pglite.data' with { type: 'file' };
import pgliteWasmPath from '@electric-sql/pglite/pglite.wasm' with { type: 'file' };
import { migrations } from '../../drizzle/migrations';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  /** `pglite` or `postgres`. */
  kind: 'pglite' | 'postgres';
  /** A trivial round trip, for the health check. */
  ping(): Promise<void>;
  /**
   * Takes (or confirms) a session-level advisory lock, so that only one of the
   * instances sharing a PostgreSQL database runs the scheduler; the lock lives
   * as long as the connection. PGlite belongs to one process: always true.
   */
  tryLeadership(key: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A postgres:// URL; unset → PGlite. */
  url?: string;
  /** PGlite data directory, or `:memory:` for a throwaway database (tests). */
  dataDir: string;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const database = options.url ? openPostgres(options.url) : await openPglite(options.dataDir);
  await migrate(database.db);
  return database;
}

function openPostgres(url: string): Database {
  const client = postgres(url, { max: 10, onnotice: () => {} });
  const db = drizzlePostgres(client, { schema, casing: 'snake_case' }) as unknown as Db;
  let leaderConnection: postgres.ReservedSql | undefined;
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    tryLeadership: async (key) => {
      leaderConnection ??= await client.reserve();
      const [row] = await leaderConnection<{ locked: boolean }[]>`select pg_try_advisory_lock(${key}) as locked`;
      return row?.locked === true;
    },
    close: async () => {
      leaderConnection?.release();
      await client.end({ timeout: 5 });
    },
  };
}

/**
 * PGlite's WebAssembly and file-system bundle, imported as files so `bun build
 * --compile` embeds them in the executable; compiled once per process and
 * shared by every PGlite opened after.
 */
let pgliteAssets: Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module; fsBundle: Blob }> | undefined;
function loadPgliteAssets() {
  pgliteAssets ??= (async () => {
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
      Bun.file(pgliteWasmPath).arrayBuffer().then((bytes) => WebAssembly.compile(bytes)),
      Bun.file(initdbWasmPath).arrayBuffer().then((bytes) => WebAssembly.compile(bytes)),
    ]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: Bun.file(pgliteDataPath) };
  })();
  return pgliteAssets;
}

async function openPglite(dataDir: string): Promise<Database> {
  if (dataDir !== ':memory:') mkdirSync(dataDir, { recursive: true });
  const assets = await loadPgliteAssets();
  const client = new PGlite({ ...(dataDir === ':memory:' ? {} : { dataDir }), ...assets });
  await client.waitReady;
  const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    tryLeadership: async () => true,
    close: () => client.close(),
  };
}

/**
 * Applies the migrations embedded from drizzle/ (scripts/embed-migrations.ts) with
 * drizzle's own dialect migrator, so the bookkeeping table and hashes are the
 * ones `drizzle-kit` expects (hash = SHA-256 of the SQL file, as drizzle-orm's
 * `readMigrationFiles`).
 */
async function migrate(db: Db): Promise<void> {
  const metas: MigrationMeta[] = migrations.map((m) => ({
    sql: m.sql.split('--> statement-breakpoint'),
    bps: m.breakpoints,
    folderMillis: m.when,
    hash: createHash('sha256').update(m.sql).digest('hex'),
  }));
  const internal = db as unknown as {
    dialect: { migrate(m: MigrationMeta[], session: unknown, config: object): Promise<void> };
    session: unknown;
  };
  await internal.dialect.migrate(metas, internal.session, { migrationsFolder: 'drizzle' });
}

/**
 * Lets the event loop run (timers, sockets, new requests) before going on.
 * PGlite executes in the server's own thread and settles each query in a
 * microtask, so a loop of queries would otherwise keep every other request
 * waiting until it ends: long reads call this between pages.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
