/** @module ratelimit — pick the store: Redis when `REDIS_URL` is set, else in-process. */
import type { RateLimitStore } from './interface';
import { MemoryRateLimitStore } from './memory';
import { RedisRateLimitStore } from './redis';

export type { RateLimitDecision, RateLimitStore } from './interface';
export { MemoryRateLimitStore, RedisRateLimitStore };

export function createRateLimitStore(redisUrl?: string): RateLimitStore {
  return redisUrl ? new RedisRateLimitStore(redisUrl) : new MemoryRateLimitStore();
}
