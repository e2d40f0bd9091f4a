/**
 * @module ratelimit/interface
 * A fixed-window request counter shared by every API instance that uses the same
 * store. `hit` counts one request and answers in the same step, so N concurrent
 * requests can never be admitted beyond the quota (the increment is atomic in
 * each implementation).
 */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one (0 when refused). */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface RateLimitStore {
  readonly name: string;
  /** Counts one request. The in-process store answers synchronously (no await on the hot path). */
  hit(key: string, quota: number, windowMs: number, now?: number): RateLimitDecision | Promise<RateLimitDecision>;
  /** The window's standing without counting a request (what a probe reports in its headers). */
  peek(key: string, quota: number, windowMs: number, now?: number): RateLimitDecision | Promise<RateLimitDecision>;
  /** Throws when the store cannot be reached (health `kv` check). */
  ping(): Promise<void>;
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
