/**
 * @module ratelimit/failover
 * A shared store (Redis) with an in-process store behind it. While the shared
 * one answers, every hit is counted there (exact across instances). When it
 * fails (the Redis store fails at once while Redis is known to be down) or
 * hangs longer than `timeoutMs`, a fail-fast breaker (redis/breaker) opens:
 * hits are counted by the in-process store instead — still limited, per
 * instance — with no wait on the dead connection, not even for a probe: the
 * shared store's ping is tried in the background every `halfOpenAfterMs`, and
 * once it answers, hits go to it again. Nothing is answered 5xx for it:
 * health reports `kv: degraded` meanwhile.
 *
 * During an outage each of N instances admits up to the quota on its own (a
 * client spread over all of them gets up to N × quota); the counts made
 * in-process are not carried over when the shared store returns.
 */
import type { Logger } from '../log';
import { FailFastBreaker, withTimeout } from '../redis/breaker';
import type { HitOptions, RateLimitDecision, RateLimitStore } from './interface';
import { MemoryRateLimitStore } from './memory';

export interface FailoverOptions {
  log: Logger;
  /**
   * How long the shared store may take to count one hit before it counts as
   * hung (2 s). Generous on purpose: in a CPU-starved process timers fire late
   * and before pending socket reads, so a short limit would send healthy
   * traffic to the in-process store and lose exactness across instances.
   */
  timeoutMs?: number;
  /** How long after a failure the shared store is tried again. */
  halfOpenAfterMs?: number;
  /** How long the health check waits for the shared store's ping. */
  pingTimeoutMs?: number;
}

export class FailoverRateLimitStore implements RateLimitStore {
  readonly name: string;
  readonly breaker: FailFastBreaker;
  private readonly pingTimeoutMs: number;

  constructor(
    private readonly shared: RateLimitStore,
    private readonly local: RateLimitStore = new MemoryRateLimitStore(),
    options: FailoverOptions,
  ) {
    this.name = `${shared.name}+${local.name}`;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 1000;
    const { log } = options;
    this.breaker = new FailFastBreaker({
      timeoutMs: options.timeoutMs ?? 2000,
      probeEveryMs: options.halfOpenAfterMs ?? 1000,
      probe: () => shared.ping(),
      onBreak: (error) => log.warn('rate-limit store unreachable; counting in-process per instance until it answers again', { store: shared.name, error: String(error) }),
      onReset: () => log.info('rate-limit store answers again; counting shared across instances', { store: shared.name }),
    });
  }

  hit(key: string, quota: number, windowMs: number, options?: HitOptions): Promise<RateLimitDecision> {
    return this.breaker.run(() => this.shared.hit(key, quota, windowMs, options)).catch(() => this.local.hit(key, quota, windowMs, options));
  }

  peek(key: string, quota: number, windowMs: number, now?: number): Promise<RateLimitDecision> {
    return this.breaker.run(() => this.shared.peek(key, quota, windowMs, now)).catch(() => this.local.peek(key, quota, windowMs, now));
  }

  /** Never throws: the in-process store can always count. */
  async ping(): Promise<void> {}

  async degradation(): Promise<string | null> {
    try {
      await withTimeout(this.shared.ping(), this.pingTimeoutMs);
      return null;
    } catch (error) {
      return `${this.shared.name} unreachable (${(error as Error).message}); requests are limited in-process, per instance`;
    }
  }

  async close(): Promise<void> {
    this.breaker.close();
    await Promise.all([this.shared.close(), this.local.close()]);
  }
}
