/**
 * @module redis/query-store
 * Automatic persisted queries shared by the instances on one Redis: a query
 * registered on one instance (sent with its sha256) is found by its hash on
 * every other. Each is kept under `<REDIS_KEY_PREFIX>apq:<sha256>` for
 * `ttlSeconds` after it was last asked for (Apollo's distributed APQ caches
 * keep a registration 300 s by default; a client re-registers one that
 * expired, as the protocol has it). What Redis answers is checked against its
 * hash before it is used. While Redis is down the instance's own cache alone
 * answers (modules/graphql/persisted-queries).
 *
 * Apollo Server, "Automatic persisted queries" § Adjusting cache TTL.
 */
import { createHash } from 'node:crypto';
import type { RedisLink } from './link';

export class RedisQueryStore {
  constructor(
    private readonly redis: RedisLink,
    private readonly ttlSeconds = 300,
  ) {}

  private key(hash: string): string {
    return this.redis.key(`apq:${hash}`);
  }

  /** The query registered under `hash` on any instance (its lifetime renewed), or undefined (none, or Redis is down). */
  async get(hash: string): Promise<string | undefined> {
    const query = await this.redis.run((r) => r.getex(this.key(hash), 'EX', this.ttlSeconds)).catch(() => null);
    return query !== null && createHash('sha256').update(query).digest('hex') === hash ? query : undefined;
  }

  /** Registers `query` under its `hash` for every instance; nothing to do while Redis is down. */
  async put(hash: string, query: string): Promise<void> {
    await this.redis.run((r) => r.set(this.key(hash), query, 'EX', this.ttlSeconds)).catch(() => undefined);
  }
}
