/**
 * @module redis/breaker
 * A circuit breaker for a shared dependency on the request path (Redis): while
 * closed, calls go through, each bounded by `timeoutMs`; the first that fails
 * or hangs opens it; while open, every call fails at once (the caller falls
 * back to its in-process answer), and a background `probe` is tried every
 * `probeEveryMs` until it answers, which closes it. No request is ever the
 * probe, so none waits on a dependency already known to be down — unlike a
 * half-open state that lets one request through and holds the others until
 * it settles (cockatiel's, which made requests wait out a 2 s timeout once a
 * second during an outage: issue 26 item 4). Martin Fowler, "CircuitBreaker"
 * (2014), with the reset attempt done asynchronously.
 *
 * @example
 * const breaker = new FailFastBreaker({ timeoutMs: 2000, probeEveryMs: 1000, probe: () => redis.ping() });
 * const count = await breaker.run(() => redis.incr(key)).catch(() => local.incr(key));
 */

export interface BreakerOptions {
  /** A call (or probe) slower than this fails, and opens the breaker. */
  timeoutMs: number;
  /** While open, how often `probe` is tried. */
  probeEveryMs: number;
  /** Resolves when the dependency answers again (a ping). */
  probe: () => Promise<unknown>;
  onBreak?: (error: unknown) => void;
  onReset?: () => void;
}

/** What a call is refused with while the breaker is open. */
export class BrokenCircuitError extends Error {
  constructor(readonly since: number, cause: unknown) {
    super(`circuit open since ${new Date(since).toISOString()}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** `promise`, or a rejection after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class FailFastBreaker {
  private opened: { since: number; cause: unknown } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(private readonly options: BreakerOptions) {}

  /** Whether calls fail at once now. */
  get isOpen(): boolean {
    return this.opened !== null;
  }

  /** Why it is open (the failure that opened it), or null while closed. */
  get reason(): string | null {
    return this.opened && (this.opened.cause instanceof Error ? this.opened.cause.message : String(this.opened.cause));
  }

  /** The call, bounded by the timeout; refused at once while open. A failure opens the breaker. */
  async run<T>(call: () => T | Promise<T>): Promise<T> {
    if (this.opened) throw new BrokenCircuitError(this.opened.since, this.opened.cause);
    try {
      return await withTimeout(Promise.resolve().then(call), this.options.timeoutMs);
    } catch (error) {
      this.trip(error);
      throw error;
    }
  }

  /** Opens it (a failure seen elsewhere, e.g. the connection closed); the probe starts. */
  trip(error: unknown): void {
    if (this.opened || this.closed) return;
    this.opened = { since: Date.now(), cause: error };
    this.options.onBreak?.(error);
    this.schedule();
  }

  /** Stops probing (the owner closes). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.tryProbe(), this.options.probeEveryMs);
    this.timer.unref?.();
  }

  private async tryProbe(): Promise<void> {
    try {
      await withTimeout(Promise.resolve().then(this.options.probe), this.options.timeoutMs);
    } catch {
      return this.schedule();
    }
    if (this.closed) return;
    this.opened = null;
    this.options.onReset?.();
  }
}
