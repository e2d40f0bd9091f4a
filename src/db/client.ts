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
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzleClient } from './pglite-parsers';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import initdbWasmPath from '@electric-sql/pglite/initdb.wasm' with { type: 'file' };
import pgliteDataPath from '@electric-sql/pglite/pglite.data' with { type: 'file' };
import pgliteWasmPath from '@electric-sql/pglite/pglite.wasm' with { type: 'file' };
import { migrations } from '../../drizzle/migrations';
import { PGLITE_TEMPLATE, type PgliteTemplateInfo } from '../../drizzle/pglite-template';
import pgliteTemplatePath from '../../drizzle/pglite-template.tar.zst' with { type: 'file' };
import { applyMigrations as migrate, migrationMetas } from './migrator';
import { LOCK_KEYS, postgresLocks, processLocks, type ClusterLocks } from './cluster-locks';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  /** `pglite` or `postgres`. */
  kind: 'pglite' | 'postgres';
  /** Connections the client may open (PGlite: one, in process). */
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
 * PGlite's WebAssembly and file-system bundle, imported as files so `bun build
 * --compile` embeds them in the executable; compiled once per process and
 * shared by every PGlite opened after. `wasmHash` names the PGlite build (its
 * data directory format), so a template made by another build is not used;
 * it and initdb's module are made only when asked for (a restart needs neither).
 */
interface PgliteAssets {
  pgliteWasmModule: WebAssembly.Module;
  fsBundle: Blob;
  wasmHash(): string;
  initdbWasmModule(): Promise<WebAssembly.Module>;
}
let pgliteAssets: Promise<PgliteAssets> | undefined;
function loadPgliteAssets(): Promise<PgliteAssets> {
  pgliteAssets ??= (async () => {
    const wasm = await Bun.file(pgliteWasmPath).bytes();
    let hash: string | undefined;
    let initdb: Promise<WebAssembly.Module> | undefined;
    return {
      pgliteWasmModule: await WebAssembly.compile(wasm),
      fsBundle: Bun.file(pgliteDataPath),
      wasmHash: () => (hash ??= Bun.hash(wasm).toString(16)),
      initdbWasmModule: () => (initdb ??= Bun.file(initdbWasmPath).arrayBuffer().then((bytes) => WebAssembly.compile(bytes))),
    };
  })();
  return pgliteAssets;
}


/** The digest of the first `count` embedded migrations' hashes. */
function migrationsDigest(count: number): string {
  const digest = createHash('sha256');
  for (const meta of migrationMetas().slice(0, count)) digest.update(meta.hash);
  return digest.digest('hex');
}

/**
 * Whether the committed template (drizzle/pglite-template.*) can stand in for
 * initdb: made by this PGlite build, with migrations that are the first ones
 * of ours (any later ones are applied at open as usual).
 */
export function templateUsable(info: PgliteTemplateInfo, wasmHash: string): boolean {
  return info.wasm === wasmHash && info.migrations <= migrations.length && info.digest === migrationsDigest(info.migrations);
}

/** Whether the committed template holds every migration and was made by this PGlite build (a test fails otherwise). */
export async function pgliteTemplateCurrent(): Promise<boolean> {
  const { wasmHash } = await loadPgliteAssets();
  return templateUsable(PGLITE_TEMPLATE, wasmHash()) && PGLITE_TEMPLATE.migrations === migrations.length;
}

/**
 * A fresh PGlite starts from the committed template: a data directory made by
 * initdb with the migrations applied (scripts/pglite-template.ts, run by `npm
 * run db:generate`), where initdb takes 10 s and leaves half a gigabyte of
 * WebAssembly memory behind. A stale template (another PGlite build) is passed
 * over for initdb. A data directory on disk is unpacked natively
 * (`Bun.Archive`, about 0.15 s) into a sibling directory renamed into place, so
 * a start cut short leaves no half-made database (the next start removes the
 * sibling it left: removeStalePartials); PGlite then opens it as an
 * existing one (its own unpacking writes each file through the WebAssembly file
 * system: about a second of the main thread). An in-memory database (tests) is
 * given the template to load itself (as is a directory holding other files).
 * Answers whether the data directory holds a database now.
 */
async function unpackTemplate(dataDir: string, wasmHash: string): Promise<boolean> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return true;
  if (!templateUsable(PGLITE_TEMPLATE, wasmHash) || (existsSync(dataDir) && readdirSync(dataDir).length > 0)) return false;
  const tar = await Bun.zstdDecompress(await Bun.file(pgliteTemplatePath).bytes());
  const partial = `${dataDir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  await new Bun.Archive(tar).extract(partial);
  renameSync(partial, dataDir); // over the empty directory made for it, if any
  return true;
}

/**
 * Removes the `<dataDir>.partial-<pid>` siblings unpackTemplate left when a
 * start was killed mid-unpack: those of a process that is no more. A live
 * process's (a concurrent start unpacking now) is kept, as is anything else
 * in the folder. Answers the folders removed.
 */
export function removeStalePartials(dataDir: string): string[] {
  const parent = dirname(dataDir);
  const prefix = `${basename(dataDir)}.partial-`;
  if (!existsSync(parent)) return [];
  const stale = readdirSync(parent).filter((name) => {
    const pid = name.startsWith(prefix) ? name.slice(prefix.length) : '';
    return /^[1-9][0-9]*$/.test(pid) && Number(pid) !== process.pid && !processAlive(Number(pid));
  });
  for (const name of stale) rmSync(join(parent, name), { recursive: true, force: true });
  return stale.map((name) => join(parent, name));
}

/** Whether a process of that id runs (signal 0 checks without sending; EPERM: it runs as another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function templateBlob(wasmHash: string): Promise<Blob | undefined> {
  if (!templateUsable(PGLITE_TEMPLATE, wasmHash)) return undefined;
  return new Blob([new Uint8Array(await Bun.zstdDecompress(await Bun.file(pgliteTemplatePath).bytes()))]);
}

/**
 * PGlite's own start parameters, and a buffer pool of 16 MB instead of
 * initdb's 128 MB: PGlite touches the whole pool at start, inside its
 * WebAssembly memory (RSS that never shrinks), while the pages it would hold
 * stay in the operating system's file cache anyway (the data directory is an
 * ordinary directory), a system call away. Saves about 105 MB of RSS (32 MB
 * saved 90; 16 MB about 16 more, issue 13).
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

async function openPglite(dataDir: string, options: { template?: boolean } = {}): Promise<Database> {
  const { wasmHash, initdbWasmModule, ...assets } = await loadPgliteAssets();
  const template = options.template !== false;
  const onDisk = dataDir !== ':memory:';
  if (onDisk) removeStalePartials(dataDir);
  const unpacked = onDisk && template && (await unpackTemplate(dataDir, wasmHash()));
  if (onDisk) mkdirSync(dataDir, { recursive: true });
  const exists = unpacked || (onDisk && existsSync(join(dataDir, 'PG_VERSION')));
  const loadDataDir = !exists && template ? await templateBlob(wasmHash()) : undefined;
  const initdb = exists || loadDataDir ? {} : { initdbWasmModule: await initdbWasmModule() };
  const client = new PGlite({ ...(onDisk ? { dataDir } : {}), ...assets, ...initdb, ...(loadDataDir ? { loadDataDir } : {}), startParams: PGLITE_START_PARAMS });
  await client.waitReady;
  const db = drizzlePglite({ client: await drizzleClient(client), schema, casing: 'snake_case' }) as unknown as Db; // drizzle's parsers once, not per query (db/pglite-parsers)
  return {
    db,
    kind: 'pglite',
    maxConnections: 1,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    locks: processLocks(),
    close: () => client.close(),
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
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const tar = await client.dumpDataDir('none');
  await database.close();
  return { tar, info: { wasm: wasmHash(), migrations: migrations.length, digest: migrationsDigest(migrations.length) } };
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
