/**
 * @module db/client
 * Opens the database: PGlite (embedded PostgreSQL) under `STATE_DIR` by default,
 * run in a thread of its own (db/pglite-thread), or a PostgreSQL server
 * through postgres.js when `DATABASE_URL` is set. Both give
 * the same drizzle API over the same schema, and both run the same migrations
 * at open.
 *
 * @example
 * const database = await openDatabase({ url: undefined, dataDir: ':memory:' });
 * await database.db.select().from(bars).limit(1);
 * await database.close();
 */
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { migrations } from '../../drizzle/migrations';
import { PGLITE_TEMPLATE, type PgliteTemplateInfo } from '../../drizzle/pglite-template';
import { applyMigrations as migrate } from './migrator';
import { migrationsDigest, pgliteWasmPath, templateUsable } from './pglite-open';
import { RemotePglite } from './pglite-remote';
import { LOCK_KEYS, postgresLocks, processLocks, type ClusterLocks } from './cluster-locks';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  /** `pglite` or `postgres`. */
  kind: 'pglite' | 'postgres';
  /** Connections the client may open (PGlite: one, in its thread). */
  maxConnections: number;
  /** A trivial round trip, for the health check. */
  ping(): Promise<void>;
  /** Locks across the instances sharing a PostgreSQL database (db/cluster-locks); PGlite: one process, always granted. */
  locks: ClusterLocks;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A postgres:// URL; unset → PGlite. */
  url?: string;
  /** PGlite data directory, or `:memory:` for a throwaway database (tests). */
  dataDir: string;
  /** Connections the PostgreSQL client may open (DB_POOL_MAX; default 10). The cluster locks hold one more of their own. */
  maxConnections?: number;
}

/**
 * Opens and migrates the database. Instances starting together on one
 * PostgreSQL database migrate one at a time, under an advisory lock: the
 * first applies what is new, the others wait their turn and find nothing to
 * do (unserialised, two of three died on `duplicate key value violates unique
 * constraint "pg_type_typname_nsp_index"` creating the same table).
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const database = options.url ? openPostgres(options.url, options.maxConnections ?? DEFAULT_MAX_CONNECTIONS) : await openPglite(options.dataDir);
  try {
    await database.locks.exclusively(LOCK_KEYS.migrations, () => migrate(database.db));
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  return database;
}

/**
 * How long a connection attempt may take: a database that is gone answers a
 * request 503 within this (postgres.js waits 30 s by default), while a
 * loopback or LAN server connects in milliseconds.
 */
const CONNECT_TIMEOUT_SECONDS = 5;

/**
 * Seconds between reconnection attempts after `retries` failed ones: 0.1, 0.2,
 * 0.4 … at most 1. postgres.js's default grows as 3^n/100 up to 20 s, so after
 * an outage of some seconds (a health round a second failing meanwhile) the
 * pool came back up to 20 s after the database did.
 */
export const reconnectBackoff = (retries: number) => Math.min(1, 0.1 * 2 ** Math.max(0, retries - 1));

/** postgres.js's own default pool size. */
const DEFAULT_MAX_CONNECTIONS = 10;

function openPostgres(url: string, maxConnections: number): Database {
  const client = postgres(url, { max: maxConnections, connect_timeout: CONNECT_TIMEOUT_SECONDS, backoff: reconnectBackoff, onnotice: () => {} });
  const db = drizzlePostgres(client, { schema, casing: 'snake_case' }) as unknown as Db;
  const locks = postgresLocks(url);
  return {
    db,
    kind: 'postgres',
    maxConnections,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    locks,
    close: async () => {
      await locks.close();
      await client.end({ timeout: 5 });
    },
  };
}

/**
 * PGlite's WebAssembly compiled once per process and handed to every PGlite
 * thread started after (db/pglite-remote); `WebAssembly.compile` works off
 * this thread. `wasmHash` names the PGlite build (its data directory format),
 * so a template made by another build is not used.
 */
interface PgliteAssets {
  wasmModule: WebAssembly.Module;
  wasmHash: string;
}
let pgliteAssets: Promise<PgliteAssets> | undefined;
function loadPgliteAssets(): Promise<PgliteAssets> {
  pgliteAssets ??= (async () => {
    const wasm = await Bun.file(pgliteWasmPath).bytes();
    return { wasmModule: await WebAssembly.compile(wasm), wasmHash: Bun.hash(wasm).toString(16) };
  })();
  return pgliteAssets;
}

/** Whether the committed template holds every migration and was made by this PGlite build (a test fails otherwise). */
export async function pgliteTemplateCurrent(): Promise<boolean> {
  const { wasmHash } = await loadPgliteAssets();
  return templateUsable(PGLITE_TEMPLATE, wasmHash) && PGLITE_TEMPLATE.migrations === migrations.length;
}

/**
 * PGlite in a thread of its own (db/pglite-thread), so its WebAssembly never
 * holds this thread's event loop; drizzle's PGlite driver is given the
 * thread's client (db/pglite-remote), which makes the calls the driver makes.
 */
async function openPglite(dataDir: string, options: { template?: boolean } = {}): Promise<Database & { thread: RemotePglite }> {
  const { wasmModule, wasmHash } = await loadPgliteAssets();
  const thread = await RemotePglite.open({ dataDir, template: options.template !== false, wasmModule, wasmHash });
  const db = drizzlePglite({ client: thread as unknown as PGlite, schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    maxConnections: 1,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    locks: processLocks(),
    close: () => thread.close(),
    thread,
  };
}

/**
 * A new PGlite template (scripts/pglite-template.ts): initdb, every migration,
 * a checkpoint, the data directory as an uncompressed tar, and what it holds.
 */
export async function makePgliteTemplate(): Promise<{ tar: Blob; info: PgliteTemplateInfo }> {
  const { wasmHash } = await loadPgliteAssets();
  const database = await openPglite(':memory:', { template: false });
  await migrate(database.db);
  await database.db.execute(sql`checkpoint`);
  const tar = await database.thread.dumpDataDir();
  await database.close();
  return { tar, info: { wasm: wasmHash, migrations: migrations.length, digest: migrationsDigest(migrations.length) } };
}

/**
 * Lets the event loop run (timers, sockets, new requests) before going on:
 * long reads call this between pages and between reading a page and working
 * on it. PGlite once executed in the server's own thread and settled each
 * query in a microtask, so a loop of queries kept every other request waiting
 * until it ended; it runs in its own thread now (db/pglite-thread) and each
 * answer arrives as a message, but the work on the rows is still this
 * thread's.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Socket-level failures of postgres.js and the OS: the database cannot be reached right now. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);

/**
 * Whether an error (or one of its causes: drizzle wraps the driver's) says the
 * database cannot be reached — a socket failure, or SQLSTATE class 08
 * (connection exception) or 57P01–57P03 (the server shutting down or starting)
 * — rather than that a query was wrong. Such a request is answered 503.
 */
export function databaseUnreachable(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return true;
  }
  return false;
}
