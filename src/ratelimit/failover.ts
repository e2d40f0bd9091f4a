/**
 * @module ratelimit/failover
 * A shared store (Redis) with an in-process store behind it. While the shared
 * one answers, every hit is counted there (exact across instances). When it
 * fails (the Redis store fails at once while its connection is down) or hangs
 * longer than `timeoutMs`, a cockatiel circuit breaker opens:
 * hits are counted by the in-process store instead — still limited, per
 * instance — with no wait on the dead connection; after `halfOpenAfterMs` one
 * hit tries the shared store again and, if it answers, closes the breaker.
 * Nothing is answered 5xx for it: health reports `kv: degraded` meanwhile.
 *
 * During an outage each of N instances admits up to the quota on its own (a
 * client spread over all of them gets up to N × quota); the counts made
 * in-process are not carried over when the shared store returns.
 */
import { circuitBreaker, ConsecutiveBreaker, handleAll, timeout, TimeoutStrategy, wrap, type CircuitBreakerPolicy, type IPolicy } from 'cockatiel';
import type { Logger } from '../log';
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
  readonly breaker: CircuitBreakerPolicy;
  private readonly policy: IPolicy;
  private readonly pingTimeoutMs: number;

  constructor(
    private readonly shared: RateLimitStore,
    private readonly local: RateLimitStore = new MemoryRateLimitStore(),
    options: FailoverOptions,
  ) {
    this.name = `${shared.name}+${local.name}`;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 1000;
    this.breaker = circuitBreaker(handleAll, { halfOpenAfter: options.halfOpenAfterMs ?? 1000, breaker: new ConsecutiveBreaker(1) });
    this.policy = wrap(this.breaker, timeout(options.timeoutMs ?? 2000, TimeoutStrategy.Aggressive));
    const { log } = options;
    this.breaker.onBreak((reason) =>
      log.warn('rate-limit store unreachable; counting in-process per instance until it answers again', {
        store: shared.name,
        error: 'error' in reason ? String(reason.error) : 'isolated',
      }),
    );
    this.breaker.onReset(() => log.info('rate-limit store answers again; counting shared across instances', { store: shared.name }));
  }

  hit(key: string, quota: number, windowMs: number, options?: HitOptions): Promise<RateLimitDecision> {
    return this.policy.execute(() => this.shared.hit(key, quota, windowMs, options)).catch(() => this.local.hit(key, quota, windowMs, options));
  }

  peek(key: string, quota: number, windowMs: number, now?: number): Promise<RateLimitDecision> {
    return this.policy.execute(() => this.shared.peek(key, quota, windowMs, now)).catch(() => this.local.peek(key, quota, windowMs, now));
  }

  /** Never throws: the in-process store can always count. */
  async ping(): Promise<void> {}

  async degradation(): Promise<string | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        this.shared.ping(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.pingTimeoutMs} ms`)), this.pingTimeoutMs);
        }),
      ]);
      return null;
    } catch (error) {
      return `${this.shared.name} unreachable (${(error as Error).message}); requests are limited in-process, per instance`;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.shared.close(), this.local.close()]);
  }
}
