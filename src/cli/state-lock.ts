/**
 * @module cli/state-lock — who is using the embedded database. A command that
 * opens PGlite (no DATABASE_URL: the server, verify-ledger) writes
 * `STATE_DIR/database.lock` (its pid and what it is) while it runs; the others
 * ask first and refuse while that process lives. PGlite is a single-process
 * database: two processes on one data directory would corrupt it. A lock left
 * by a process that died is ignored.
 *
 * @example
 * const holder = embeddedDatabaseHolder(config); // => { pid: 4242, holder: 'a server at http://127.0.0.1:3000', ... } | undefined
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';

export interface LockHolder {
  pid: number;
  /** What holds it, in words: "a server at http://…", "breakline verify-ledger". */
  holder: string;
  /** The server's URL, when a server holds it. */
  url?: string;
  startedAt: string;
}

const lockPath = (config: Config) => join(config.stateDir, 'database.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/** The live process holding the embedded database, if any (never this process). */
export function embeddedDatabaseHolder(config: Config): LockHolder | undefined {
  if (config.databaseUrl) return undefined; // PostgreSQL serves many clients
  let holder: LockHolder;
  try {
    holder = JSON.parse(readFileSync(lockPath(config), 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
  return Number.isInteger(holder.pid) && holder.pid !== process.pid && alive(holder.pid) ? holder : undefined;
}

/** A refusal naming the holder, for a command that would open the embedded database. */
export function refusalWhileHeld(held: LockHolder, config: Config, what: string): string {
  const ask = held.url ? `, or ask it instead (GET ${held.url}/api/transparency/verify)` : '';
  return (
    `refusing to ${what}: ${held.holder} (pid ${held.pid}, since ${held.startedAt}) is using the embedded database in ${join(config.stateDir, 'pgdata')}.\n` +
    `Stop it first${ask}, or point DATABASE_URL at PostgreSQL.\n`
  );
}

/** Marks the embedded database as held by this process until `release()` (or the process ends). */
export function holdEmbeddedDatabase(config: Config, holder: string, url?: string): { release(): void } {
  if (config.databaseUrl) return { release() {} };
  mkdirSync(config.stateDir, { recursive: true });
  const path = lockPath(config);
  const held: LockHolder = { pid: process.pid, holder, url, startedAt: new Date().toISOString() };
  writeFileSync(path, JSON.stringify(held));
  const release = () => {
    try {
      if ((JSON.parse(readFileSync(path, 'utf8')) as LockHolder).pid === process.pid) rmSync(path, { force: true });
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return { release };
}
