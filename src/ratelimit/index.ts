/**
 * @module ratelimit
 * Pick the store: with `REDIS_URL`, Redis (exact across instances) backed by
 * an in-process store for when Redis cannot be reached; else in-process only.
 */
import type { Logger } from '../log';
import { FailoverRateLimitStore } from './failover';
import type { RateLimitStore } from './interface';
import { MemoryRateLimitStore } from './memory';
import { RedisRateLimitStore } from './redis';

export type { HitOptions, RateLimitDecision, RateLimitStore } from './interface';
export { FailoverRateLimitStore, MemoryRateLimitStore, RedisRateLimitStore };

export function createRateLimitStore(options: { redisUrl?: string; keyPrefix: string; log: Logger }): RateLimitStore {
  if (!options.redisUrl) return new MemoryRateLimitStore();
  return new FailoverRateLimitStore(new RedisRateLimitStore(options.redisUrl, `${options.keyPrefix}rl:`), new MemoryRateLimitStore(), { log: options.log });
}
