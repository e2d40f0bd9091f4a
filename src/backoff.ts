/**
 * @module backoff
 * How a background loop meets a dependency that is away (the database
 * restarting, most often): it waits longer after each failure in a row —
 * `baseMs · 2^(n−1)` up to `maxMs` (exponential backoff, as AWS's
 * Architecture Blog "Exponential Backoff And Jitter" describes; a little
 * jitter so instances do not retry in step) — logs the first failure and then
 * one a minute rather than one a try, and says so once when it works again.
 *
 * @example
 * const backoff = new Backoff({ what: 'export pass', log, baseMs: 1000, maxMs: 30_000 });
 * try { await pass(); backoff.succeeded(); } catch (error) { setTimeout(again, backoff.failed(error)); }
 */
import type { Logger } from './log';

export interface BackoffOptions {
  /** What fails, for the log (`export pass`, `scheduled scan`, …). */
  what: string;
  log: Logger;
  baseMs?: number;
  maxMs?: number;
  /** How often a run of failures is logged again after the first. */
  logEveryMs?: number;
  now?: () => number;
}

export class Backoff {
  private failures = 0;
  private loggedAt = Number.NEGATIVE_INFINITY;
  private firstAt = 0;

  constructor(private readonly options: BackoffOptions) {}

  /** Failures in a row so far. */
  get failing(): number {
    return this.failures;
  }

  /** Records a failure; answers how long to wait before trying again. */
  failed(error: unknown): number {
    const { what, log, baseMs = 1000, maxMs = 30_000, logEveryMs = 60_000 } = this.options;
    const now = (this.options.now ?? Date.now)();
    if (this.failures === 0) this.firstAt = now;
    this.failures++;
    const waitMs = Math.round(Math.min(maxMs, baseMs * 2 ** (this.failures - 1)) * (0.8 + 0.4 * Math.random()));
    if (now - this.loggedAt >= logEveryMs) {
      this.loggedAt = now;
      log.error(`${what} failed; trying again with backoff`, { failures: this.failures, retryInMs: waitMs, error: String(error) });
    }
    return waitMs;
  }

  /** Forgets a run of failures without a word (the work is no longer this instance's to do). */
  reset(): void {
    this.failures = 0;
    this.loggedAt = Number.NEGATIVE_INFINITY;
  }

  /** Records a success; logs the recovery after a run of failures. */
  succeeded(): void {
    if (this.failures === 0) return;
    const now = (this.options.now ?? Date.now)();
    this.options.log.info(`${this.options.what} works again`, { failures: this.failures, downMs: now - this.firstAt });
    this.failures = 0;
    this.loggedAt = Number.NEGATIVE_INFINITY;
  }
}

/** Waits `ms`, or less when `signal` aborts first (a loop's pause that does not hold up a stop). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
