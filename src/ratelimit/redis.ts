/**
 * @module ratelimit/redis
 * The shared fixed-window store for several API instances (`REDIS_URL`). One
 * Lua script adds the request's cost to the window's key and gives a new key
 * its expiry, atomically on the server (Redis runs a script without
 * interleaving other commands), so the count is exact across instances. Keys
 * are `<REDIS_KEY_PREFIX>rl:<bucket>:<window start>`. Commands go through the
 * request path's Redis link (redis/link), which fails them at once while Redis
 * is known to be down; services.ts wraps this store in ratelimit/failover,
 * which counts in-process meanwhile.
 */
import type { RedisLink } from '../redis/link';
import { decide, windowOf, type HitOptions, type RateLimitDecision, type RateLimitStore } from './interface';

const INCR_WITH_EXPIRY = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export class RedisRateLimitStore implements RateLimitStore {
  readonly name = 'redis';

  constructor(private readonly redis: RedisLink) {}

  private key(bucket: string, start: number): string {
    return this.redis.key(`rl:${bucket}:${start}`);
  }

  async hit(key: string, quota: number, windowMs: number, options?: HitOptions): Promise<RateLimitDecision> {
    const { start, resetMs } = windowOf(options?.now ?? Date.now(), windowMs);
    const count = await this.redis.run((r) => r.eval(INCR_WITH_EXPIRY, 1, this.key(key, start), String(windowMs + 1000), String(options?.cost ?? 1)) as Promise<number>);
    return decide(count, quota, resetMs);
  }

  async peek(key: string, quota: number, windowMs: number, now = Date.now()): Promise<RateLimitDecision> {
    const { start, resetMs } = windowOf(now, windowMs);
    const count = Number((await this.redis.run((r) => r.get(this.key(key, start)))) ?? 0);
    return decide(count, quota, resetMs);
  }

  ping(): Promise<void> {
    return this.redis.ping();
  }

  async degradation(): Promise<string | null> {
    return null;
  }

  /** The link is the composition root's (shared with the stream caps and persisted queries): closed there. */
  async close(): Promise<void> {}
}
