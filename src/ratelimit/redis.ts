/**
 * @module ratelimit/redis
 * The shared fixed-window store for several API instances (`REDIS_URL`). One
 * Lua script adds the request's cost to the window's key and gives a new key
 * its expiry, atomically on the server (Redis runs a script without
 * interleaving other commands), so the count is exact across instances.
 * services.ts wraps it in ratelimit/failover, which counts in-process while
 * Redis cannot be reached.
 */
import Redis from 'ioredis';
import { decide, windowOf, type HitOptions, type RateLimitDecision, type RateLimitStore } from './interface';

const INCR_WITH_EXPIRY = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export class RedisRateLimitStore implements RateLimitStore {
  readonly name = 'redis';
  private readonly redis: Redis;
  private wasReady = false;

  /** `keyPrefix` namespaces the counters (REDIS_KEY_PREFIX + `rl:`). */
  constructor(url: string, private readonly keyPrefix = 'breakline:rl:') {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    this.redis.on('error', () => {}); // surfaced through ping() and hit() rejections
    this.redis.on('ready', () => {
      this.wasReady = true;
    });
  }

  /**
   * Refuses at once while a connection that was up is down (ioredis reconnecting):
   * no request waits on it. Before the first connection, commands queue as usual,
   * so the first requests after boot are still counted in Redis.
   */
  private assertConnected(): void {
    if (this.wasReady && this.redis.status !== 'ready') throw new Error(`Redis connection ${this.redis.status}`);
  }

  async hit(key: string, quota: number, windowMs: number, options?: HitOptions): Promise<RateLimitDecision> {
    this.assertConnected();
    const { start, resetMs } = windowOf(options?.now ?? Date.now(), windowMs);
    const count = (await this.redis.eval(
      INCR_WITH_EXPIRY,
      1,
      `${this.keyPrefix}${key}:${start}`,
      String(windowMs + 1000),
      String(options?.cost ?? 1),
    )) as number;
    return decide(count, quota, resetMs);
  }

  async peek(key: string, quota: number, windowMs: number, now = Date.now()): Promise<RateLimitDecision> {
    const { start, resetMs } = windowOf(now, windowMs);
    const count = Number((await this.redis.get(`${this.keyPrefix}${key}:${start}`)) ?? 0);
    return decide(count, quota, resetMs);
  }

  async ping(): Promise<void> {
    this.assertConnected();
    await this.redis.ping();
  }

  async degradation(): Promise<string | null> {
    return null;
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
