/**
 * @module db/lease
 * Once-per-cluster work. A `Lease` is one of the cluster's named locks
 * (db/cluster-locks `LOCK_KEYS`) held by this instance for a term: the work
 * it guards runs only while `held`, and watches `signal`, which is aborted the
 * moment the term ends. A term ends when the lease is released, when the
 * connection holding the lock closes (PostgreSQL restarted: the server has
 * dropped the lock, so another instance may take it as soon as the database
 * is back), or when a check every `checkMs` no longer finds it in pg_locks.
 * A lease lost is not taken back by itself: the loop that wants it calls
 * `acquire` again, and a new term begins only if the lock is free. So two
 * instances never hold a term at once, across a database restart included;
 * what a term writes after losing it (between the connection's end and the
 * work noticing) is kept out by each job's own fence in the writing
 * transaction (a scan run's head, a replay chunk's progress).
 *
 * PGlite: one process, the lease is always held.
 *
 * @example
 * const lease = new Lease({ name: 'scheduler', key: LOCK_KEYS.scheduler, locks: database.locks, log });
 * if (await lease.acquire()) await work(lease.signal); // work stops when lease.signal aborts
 */
import type { ClusterLocks } from './cluster-locks';
import type { Logger } from '../log';

/** Why a term ended: the reason of its signal. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

export interface LeaseOptions {
  /** For the log: `scheduler`, `boot replay`, `daily scan run`, … */
  name: string;
  key: number;
  locks: ClusterLocks;
  log: Logger;
  /** How often a held lease is confirmed with the server. */
  checkMs?: number;
  /** Log taking and losing it at info level (a leader) rather than debug (a short job's lock). */
  announce?: boolean;
}

const CHECK_MS = 5_000;
const POLL_MS = 250;

export class Lease {
  private term: AbortController | undefined;
  private session = -1;
  private checker: ReturnType<typeof setInterval> | undefined;
  private readonly offSessionEnd: () => void;
  /** The last `acquire` could not reach the database (rather than finding the lease taken). */
  unreachable = false;

  constructor(private readonly options: LeaseOptions) {
    this.offSessionEnd = options.locks.onSessionEnd(() => this.end('the database connection holding it closed'));
  }

  /** Whether this instance holds the lease (a term is running on the lock session that took it). */
  get held(): boolean {
    return this.term !== undefined && !this.term.signal.aborted && this.session === this.options.locks.session;
  }

  /** The current term's signal, aborted (with a LeaseLost reason) when the term ends; an aborted one while not held. */
  get signal(): AbortSignal {
    return this.held ? this.term!.signal : AbortSignal.abort(new LeaseLost(`${this.options.name}: not held`));
  }

  /**
   * Takes the lease when it is free (a new term), or confirms the term this
   * instance holds; answers whether it is held. A database that cannot be
   * reached answers false (the caller tries again later); it throws nothing.
   */
  async acquire(): Promise<boolean> {
    if (this.held) return true;
    const { locks, key, name, log } = this.options;
    let locked = false;
    try {
      locked = await locks.tryLock(key);
      this.unreachable = false;
    } catch (error) {
      this.unreachable = true;
      log.debug('lease: the lock could not be asked for', { lease: name, error: String(error) });
      return false;
    }
    if (!locked) return false;
    this.term = new AbortController();
    this.session = locks.session;
    this.logAt('lease taken', { lease: name });
    if (locks.shared) {
      this.checker = setInterval(() => void this.check(), this.options.checkMs ?? CHECK_MS);
      this.checker.unref?.();
    }
    return true;
  }

  /** Waits until the lease is taken (trying every `pollMs`); throws the signal's reason when `signal` aborts first. */
  async acquireWaiting(options: { pollMs?: number; signal?: AbortSignal } = {}): Promise<void> {
    while (!(await this.acquire())) {
      options.signal?.throwIfAborted();
      await Bun.sleep(options.pollMs ?? POLL_MS);
    }
  }

  /** Ends the term and gives the lock back, so another instance may take it at once. */
  async release(): Promise<void> {
    const session = this.session;
    const held = this.held;
    this.end('released', { quiet: true });
    if (held && session === this.options.locks.session) await this.options.locks.unlock(this.options.key).catch(() => {});
  }

  /** Releases it and stops listening for the lock session's end. */
  async close(): Promise<void> {
    await this.release();
    this.offSessionEnd();
  }

  /** Confirms with the server that the lock session still holds the lock; ends the term when it does not, or cannot say. */
  private async check(): Promise<void> {
    if (!this.held) return;
    const session = this.session;
    try {
      const holding = await this.options.locks.holding([this.options.key]);
      if (!holding.has(this.options.key) && this.session === session) this.end('the server no longer lists it as ours');
    } catch (error) {
      if (this.session === session) this.end(`it could not be confirmed (${String(error)})`);
    }
  }

  private end(reason: string, options: { quiet?: boolean } = {}): void {
    clearInterval(this.checker);
    this.checker = undefined;
    const term = this.term;
    if (!term || term.signal.aborted) return;
    term.abort(new LeaseLost(`${this.options.name}: ${reason}`));
    if (options.quiet) this.options.log.debug('lease released', { lease: this.options.name });
    else this.options.log.warn('lease lost', { lease: this.options.name, reason });
  }

  private logAt(message: string, fields: Record<string, unknown>): void {
    if (this.options.announce) this.options.log.info(message, fields);
    else this.options.log.debug(message, fields);
  }
}
