/**
 * @module db/pglite-open
 * Opening PGlite, inside the thread it runs in (db/pglite-thread): its data
 * directory made from the committed template when new, its start
 * parameters, drizzle's text parsers installed. Also what both threads need to
 * know of the template (which PGlite build and migrations made it).
 *
 * @example
 * const pglite = await openPgliteHere({ dataDir: ':memory:', template: true, wasmModule, wasmHash });
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import initdbWasmPath from '@electric-sql/pglite/initdb.wasm' with { type: 'file' };
import pgliteDataPath from '@electric-sql/pglite/pglite.data' with { type: 'file' };
import pgliteWasmPathImport from '@electric-sql/pglite/pglite.wasm' with { type: 'file' };
import { migrations } from '../../drizzle/migrations';
import { PGLITE_TEMPLATE, type PgliteTemplateInfo } from '../../drizzle/pglite-template';
import pgliteTemplatePath from '../../drizzle/pglite-template.tar.zst' with { type: 'file' };
import { migrationMetas } from './migrator';
import { installTextParsers } from './pglite-parsers';

/**
 * PGlite's WebAssembly, imported as a file so `bun build --compile` embeds it
 * in the executable (as its file-system bundle, initdb and our template). The
 * server's thread compiles it once per process (`WebAssembly.compile` works off
 * that thread) and hands the module to each PGlite thread it starts.
 */
export const pgliteWasmPath = pgliteWasmPathImport;

/** What a PGlite thread is asked to open. */
export interface PgliteOpenRequest {
  /** A data directory, or `:memory:`. */
  dataDir: string;
  /** Whether a new database starts from the committed template (false: initdb, for making the template). */
  template: boolean;
  /** PGlite's WebAssembly, compiled. */
  wasmModule: WebAssembly.Module;
  /** Names the PGlite build (its data directory format), so a template made by another build is not used. */
  wasmHash: string;
}

/** The digest of the first `count` embedded migrations' hashes. */
export function migrationsDigest(count: number): string {
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
 * system: about a second of its thread). An in-memory database (tests) is
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

/** Opens PGlite in the calling thread (db/pglite-thread calls it), ready for drizzle's queries. */
export async function openPgliteHere(request: PgliteOpenRequest): Promise<PGlite> {
  const { dataDir, template, wasmModule, wasmHash } = request;
  const onDisk = dataDir !== ':memory:';
  if (onDisk) removeStalePartials(dataDir);
  const unpacked = onDisk && template && (await unpackTemplate(dataDir, wasmHash));
  if (onDisk) mkdirSync(dataDir, { recursive: true });
  const exists = unpacked || (onDisk && existsSync(join(dataDir, 'PG_VERSION')));
  const loadDataDir = !exists && template ? await templateBlob(wasmHash) : undefined;
  const initdb = exists || loadDataDir ? {} : { initdbWasmModule: await WebAssembly.compile(await Bun.file(initdbWasmPath).arrayBuffer()) };
  const client = new PGlite({
    ...(onDisk ? { dataDir } : {}),
    pgliteWasmModule: wasmModule,
    fsBundle: Bun.file(pgliteDataPath),
    ...initdb,
    ...(loadDataDir ? { loadDataDir } : {}),
    startParams: PGLITE_START_PARAMS,
  });
  await client.waitReady;
  installTextParsers(client);
  return client;
}
