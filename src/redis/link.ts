/**
 * @module redis/link
 * The one Redis connection the request path uses (`REDIS_URL`): the rate-limit
 * counters, the cluster-wide stream caps and the shared GraphQL persisted
 * queries, every key under `REDIS_KEY_PREFIX` (`key()`). A command fails at
 * once while Redis is known to be down — the connection was up and is not
 * (ioredis reconnecting), or the breaker (redis/breaker) opened on a failure
 * or a command slower than `timeoutMs` — so each caller falls back to its
 * per-instance answer without waiting; the breaker closes when a background
 * PING answers. Before the first connection commands queue as usual, so the
 * first requests after boot still count in Redis. The event bus has
 * connections of its own (stream/bus/redis: one blocks in XREAD).
 *
 * @example
 * const redis = new RedisLink({ url, keyPrefix: 'breakline:', log });
 * const n = await redis.run((r) => r.incr(redis.key('rl:ip:10.0.0.1'))); // or throws at once while Redis is down
 */
import Redis from 'ioredis';
import type { Logger } from '../log';
import { FailFastBreaker, withTimeout } from './breaker';

export interface RedisLinkOptions {
  url: string;
  /** REDIS_KEY_PREFIX: every key this link names starts with it. */
  keyPrefix: string;
  log: Logger;
  /**
   * How long one command may take before it counts as hung (2 s). Generous on
   * purpose: in a CPU-starved process timers fire late and before pending
   * socket reads, so a short limit would send healthy traffic to the
   * per-instance fallbacks and lose exactness across instances.
   */
  timeoutMs?: number;
  /** While the breaker is open, how often a PING is tried. */
  probeEveryMs?: number;
}

/** What a command is refused with while Redis is known to be down. */
export class RedisDownError extends Error {}

export class RedisLink {
  readonly keyPrefix: string;
  private readonly client: Redis;
  private readonly breaker: FailFastBreaker;
  private wasReady = false;
  private closed = false;

  constructor(options: RedisLinkOptions) {
    this.keyPrefix = options.keyPrefix;
    this.client = new Redis(options.url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    this.client.on('error', () => {}); // surfaced by the failing commands and `down`
    this.client.on('ready', () => {
      this.wasReady = true;
    });
    const { log } = options;
    this.breaker = new FailFastBreaker({
      timeoutMs: options.timeoutMs ?? 2000,
      probeEveryMs: options.probeEveryMs ?? 1000,
      probe: () => this.ping(),
      onBreak: (error) => log.warn('redis: unreachable; rate limits, stream caps and persisted queries fall back to this instance until it answers', { error: String(error) }),
      onReset: () => log.info('redis: answers again; rate limits, stream caps and persisted queries are shared again'),
    });
  }

  /** The key `name` under REDIS_KEY_PREFIX. */
  key(name: string): string {
    return `${this.keyPrefix}${name}`;
  }

  /** Why commands fail at once now, or null while Redis is usable. */
  get down(): string | null {
    if (this.wasReady && this.client.status !== 'ready') return `Redis connection ${this.client.status}`;
    return this.breaker.reason && `Redis did not answer (${this.breaker.reason})`;
  }

  /** Runs `command`, bounded in time; throws at once (RedisDownError) while Redis is known to be down. */
  run<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
    const down = this.down;
    if (down !== null) return Promise.reject(new RedisDownError(down));
    return this.breaker.run(() => command(this.client));
  }

  /** One PING outside the breaker (health, and the breaker's probe); throws while the connection is down. */
  async ping(timeoutMs = 1000): Promise<void> {
    if (this.wasReady && this.client.status !== 'ready') throw new RedisDownError(`Redis connection ${this.client.status}`);
    await withTimeout(this.client.ping(), timeoutMs);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.breaker.close();
    this.client.disconnect();
  }
}
