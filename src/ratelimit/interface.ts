/**
 * @module ratelimit/interface
 * A fixed-window request counter shared by every API instance that uses the same
 * store. `hit` counts a request (`cost` units, 1 by default) and answers in the
 * same step, so N concurrent requests can never be admitted beyond the quota
 * (the increment is atomic in each implementation). Every hit counts, refused
 * ones too, so a client hammering past its quota stays refused until the window ends.
 */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Units left in the window after this request (0 when refused). */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface HitOptions {
  /** Units this request counts for (an expensive route's cost class); default 1. */
  cost?: number;
  /** The clock, ms since the epoch (tests pin it). */
  now?: number;
}

export interface RateLimitStore {
  readonly name: string;
  /** Counts one request. The in-process store answers synchronously (no await on the hot path). */
  hit(key: string, quota: number, windowMs: number, options?: HitOptions): RateLimitDecision | Promise<RateLimitDecision>;
  /** The window's standing without counting a request (what a probe reports in its headers). */
  peek(key: string, quota: number, windowMs: number, now?: number): RateLimitDecision | Promise<RateLimitDecision>;
  /** Throws when the store cannot count requests at all (health `kv: down`). */
  ping(): Promise<void>;
  /** Why the store counts in a weaker mode right now (health `kv: degraded`), or null when it does not. */
  degradation(): Promise<string | null>;
  close(): Promise<void>;
}

/** Shared arithmetic of a fixed window: which window `now` falls in and when it ends. */
export function windowOf(now: number, windowMs: number): { start: number; resetMs: number } {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, resetMs: start + windowMs - now };
}

export function decide(count: number, quota: number, resetMs: number): RateLimitDecision {
  return { allowed: count <= quota, limit: quota, remaining: Math.max(0, quota - count), resetMs };
}
