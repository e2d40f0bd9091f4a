/**
 * @module ratelimit
 * Pick the store: with a Redis link (`REDIS_URL`), Redis (exact across
 * instances) backed by an in-process store for when Redis cannot be reached;
 * else in-process only.
 */
import type { Logger } from '../log';
import type { RedisLink } from '../redis/link';
import { FailoverRateLimitStore } from './failover';
import type { RateLimitStore } from './interface';
import { MemoryRateLimitStore } from './memory';
import { RedisRateLimitStore } from './redis';

export type { HitOptions, RateLimitDecision, RateLimitStore } from './interface';
export { FailoverRateLimitStore, MemoryRateLimitStore, RedisRateLimitStore };

export function createRateLimitStore(options: { redis?: RedisLink; log: Logger }): RateLimitStore {
  if (!options.redis) return new MemoryRateLimitStore();
  return new FailoverRateLimitStore(new RedisRateLimitStore(options.redis), new MemoryRateLimitStore(), { log: options.log });
}
