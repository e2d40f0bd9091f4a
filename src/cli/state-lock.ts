/**
 * @module cli/state-lock — who is using the embedded database. PGlite is a
 * single-process database: two processes on one data directory would corrupt
 * it. A command that opens it (no DATABASE_URL: the server, replay,
 * verify-ledger) takes an exclusive `flock` on `STATE_DIR/database.lock`
 * (cli/flock) for as long as it runs, and writes there what it is (pid, what,
 * the server's URL) for the refusal another command prints.
 *
 * Ownership is the kernel's lock, not the pid in the file: the kernel drops
 * it the moment the holder's process ends, kill -9 included (before the
 * process is even reaped), so a restart right after a crash takes it at once,
 * and a stranger's pid left in the file (a reused pid, a process in another
 * container) never blocks anyone. Two containers sharing the volume see each
 * other's lock (one kernel). The file is never deleted (deleting a lock file
 * another process is waiting on would let a third lock a new file beside it);
 * its content is cleared on release.
 *
 * A lock that is busy is asked again for `waitMs` (3 s) before the command
 * gives up: a process killed a moment ago may still be tearing down its
 * memory before its files are closed.
 *
 * @example
 * const hold = await holdEmbeddedDatabase(config, 'breakline verify-ledger');
 * if (!hold.ok) process.stderr.write(refusalWhileHeld(hold.holder, config, 'open the embedded database'));
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import { fileLocks } from './flock';

export interface LockHolder {
  pid: number;
  /** What holds it, in words: "a server at http://…", "breakline verify-ledger". */
  holder: string;
  /** The server's URL, when a server holds it. */
  url?: string;
  startedAt: string;
}

/** The lock held by this process: its description can change (a server learns its URL after it listens). */
export interface EmbeddedDatabaseLock {
  ok: true;
  describe(holder: string, url?: string): void;
  release(): void;
  /**
   * The lock file's descriptor, when there is one: a shutdown watchdog that
   * must kill the process empties it first (cli/shutdown), so the file is
   * cleared on every stop (the kernel drops the lock itself with the process).
   */
  fd?: number;
}

/** Someone else holds it; who, when the file says (a lock taken a moment ago may not say yet). */
export interface HeldElsewhere {
  ok: false;
  holder: LockHolder | undefined;
}

const lockPath = (config: Config) => join(config.stateDir, 'database.lock');

/** How long a busy lock is asked again, and how often. */
export const LOCK_WAIT_MS = 3000;
const RETRY_MS = 50;

const UNGUARDED: EmbeddedDatabaseLock = { ok: true, describe() {}, release() {} };

/** The holder a lock file names, if it names one. */
function readHolder(path: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return Number.isInteger(holder.pid) && typeof holder.holder === 'string' ? (holder as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the embedded database for this process until `release()` or the
 * process's end, or answers who holds it. PostgreSQL (DATABASE_URL) serves
 * many clients: nothing to take.
 */
export async function holdEmbeddedDatabase(config: Config, holder: string, waitMs = LOCK_WAIT_MS): Promise<EmbeddedDatabaseLock | HeldElsewhere> {
  if (config.databaseUrl) return UNGUARDED;
  const locks = fileLocks();
  if (!locks) {
    process.stderr.write('warning: this platform offers no file locks (flock); nothing keeps a second process off the embedded database\n');
    return UNGUARDED;
  }
  mkdirSync(config.stateDir, { recursive: true });
  const path = lockPath(config);
  // Opened without truncation (the holder's description stays readable), close-on-exec (Bun's default), never deleted.
  const fd = openSync(path, 'a+', 0o600);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const outcome = locks.tryLock(fd);
    if (outcome === 'locked') break;
    if (outcome !== 'busy') {
      closeSync(fd);
      throw new Error(`cannot lock ${path}: ${outcome.error}`);
    }
    if (Date.now() >= deadline) {
      closeSync(fd);
      return { ok: false, holder: readHolder(path) };
    }
    await Bun.sleep(RETRY_MS);
  }
  const startedAt = new Date().toISOString();
  const write = (text: string) => {
    ftruncateSync(fd, 0);
    writeSync(fd, text, 0);
  };
  const describe = (what: string, url?: string) => write(JSON.stringify({ pid: process.pid, holder: what, url, startedAt } satisfies LockHolder));
  describe(holder);
  let released = false;
  return {
    ok: true,
    describe,
    fd,
    release() {
      if (released) return;
      released = true;
      write('');
      locks.unlock(fd);
      closeSync(fd);
    },
  };
}

/** A refusal naming the holder, for a command that would open the embedded database. */
export function refusalWhileHeld(held: LockHolder | undefined, config: Config, what: string): string {
  const who = held ? `${held.holder} (pid ${held.pid}, since ${held.startedAt})` : 'another process';
  const ask = held?.url ? `, or ask it instead (GET ${held.url}/api/transparency/verify)` : '';
  return `refusing to ${what}: ${who} is using the embedded database in ${join(config.stateDir, 'pgdata')}.\n` + `Stop it first${ask}, or point DATABASE_URL at PostgreSQL.\n`;
}
