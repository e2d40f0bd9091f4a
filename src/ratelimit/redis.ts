/**
 * @module ratelimit/redis
 * The shared fixed-window store for several API instances (`REDIS_URL`). One
 * Lua script increments the window's key and sets its expiry atomically on the
 * server (Redis runs a script without interleaving other commands), so the
 * count is exact across instances.
 */
import Redis from 'ioredis';
import { decide, windowOf, type RateLimitDecision, type RateLimitStore } from './interface';

const INCR_WITH_EXPIRY = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export class RedisRateLimitStore implements RateLimitStore {
  readonly name = 'redis';
  private readonly redis: Redis;

  constructor(url: string, private readonly keyPrefix = 'breakline:rl:') {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    this.redis.on('error', () => {}); // surfaced through ping() and hit() rejections
  }

  async hit(key: string, quota: number, windowMs: number, now = Date.now()): Promise<RateLimitDecision> {
    const { start, resetMs } = windowOf(now, windowMs);
    const count = (await this.redis.eval(
      INCR_WITH_EXPIRY,
      1,
      `${this.keyPrefix}${key}:${start}`,
      String(windowMs + 1000),
    )) as number;
    return decide(count, quota, resetMs);
  }

  async peek(key: string, quota: number, windowMs: number, now = Date.now()): Promise<RateLimitDecision> {
    const { start, resetMs } = windowOf(now, windowMs);
    const count = Number((await this.redis.get(`${this.keyPrefix}${key}:${start}`)) ?? 0);
    return decide(count, quota, resetMs);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
