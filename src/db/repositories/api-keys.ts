/**
 * @module db/repositories/api-keys
 * Rows of `api_keys`, typed (the tier and scopes checked on the way out). Lookups are by
 * the key's prefix (unique) for verification, with the owner's stated tier
 * (`user_tiers`), and by owner for listings; an insert holds the owner's
 * count of active keys to a cap; a
 * revoke sets `revoked_at` once and never deletes; last-used times arrive in
 * batches and only ever move forward.
 */
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { literalUnion } from '../../domain/signal';
import { storedAs } from '../../domain/check';
import { TIERS, type Tier } from '../../domain/tiers';
import { SCOPES, type Scope } from '../../domain/scopes';
import type { Db } from '../client';
import { apiKeys, userTiers, type ApiKeyRow } from '../schema';
import { lockUser } from './watchlists';

export interface StoredApiKey extends Omit<ApiKeyRow, 'tier' | 'scopes'> {
  tier: Tier;
  scopes: Scope[];
}

/** A key as verification reads it: with its owner's tier as last stated (db/schema/user-tiers), when ever stated. */
export interface KeyWithOwner extends StoredApiKey {
  ownerTier: Tier | undefined;
}

const tierOf = storedAs(literalUnion(TIERS));

const scopeOf = storedAs(literalUnion(SCOPES));

function storedApiKey(row: ApiKeyRow): StoredApiKey {
  return { ...row, tier: tierOf(row.tier, `api key ${row.id} tier`), scopes: row.scopes.map((s) => scopeOf(s, `api key ${row.id} scope`)) };
}

/** PostgreSQL's unique_violation: the prefix is taken (the caller draws another key). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts a key unless its owner already holds `cap` active (unrevoked)
   * keys (then undefined); under the owner's advisory lock, so the cap holds
   * under concurrent requests on every instance. No cap: the operator's key.
   */
  async insert(row: Omit<ApiKeyRow, 'lastUsedAt' | 'revokedAt' | 'scopes'> & { scopes: Scope[] }, cap = Number.POSITIVE_INFINITY): Promise<StoredApiKey | undefined> {
    return this.db.transaction(async (tx) => {
      if (Number.isFinite(cap)) {
        await lockUser(tx, 'api-keys', row.userId);
        const [held] = await tx.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.userId, row.userId), isNull(apiKeys.revokedAt)));
        if (Number(held?.n ?? 0) >= cap) return undefined;
      }
      const [inserted] = await tx.insert(apiKeys).values({ ...row, lastUsedAt: null, revokedAt: null }).returning();
      return storedApiKey(inserted!);
    });
  }

  /** The key with this prefix, and its owner's stated tier (one query: verification reads it on every request). */
  async byPrefix(prefix: string): Promise<KeyWithOwner | undefined> {
    const [found] = await this.db.select({ key: apiKeys, ownerTier: userTiers.tier }).from(apiKeys).leftJoin(userTiers, eq(userTiers.userId, apiKeys.userId)).where(eq(apiKeys.prefix, prefix)).limit(1);
    if (!found) return undefined;
    return { ...storedApiKey(found.key), ownerTier: found.ownerTier === null ? undefined : tierOf(found.ownerTier, `user ${found.key.userId} tier`) };
  }

  /** A user's keys, newest first. */
  async listByUser(userId: string): Promise<StoredApiKey[]> {
    const rows = await this.db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    return rows.map(storedApiKey);
  }

  async byId(id: string): Promise<StoredApiKey | undefined> {
    const [row] = await this.db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
    return row && storedApiKey(row);
  }

  /**
   * Revokes a key of `userId` (any owner when null) at `at`, unless it already is;
   * answers the row as it stands after, or undefined when no such key.
   */
  async revoke(id: string, userId: string | null, at: Date): Promise<StoredApiKey | undefined> {
    const owner = userId === null ? eq(apiKeys.id, id) : and(eq(apiKeys.id, id), eq(apiKeys.userId, userId));
    await this.db.update(apiKeys).set({ revokedAt: at }).where(and(owner, isNull(apiKeys.revokedAt)));
    const [row] = await this.db.select().from(apiKeys).where(owner).limit(1);
    return row && storedApiKey(row);
  }

  /** Moves `last_used_at` forward for each key, in one statement. */
  async touch(usage: ReadonlyMap<string, number>): Promise<void> {
    if (usage.size === 0) return;
    const values = sql.join(
      [...usage].map(([id, at]) => sql`(${id}, ${new Date(at).toISOString()}::timestamptz)`),
      sql`, `,
    );
    await this.db.execute(sql`
      update ${apiKeys} set last_used_at = used.at
      from (values ${values}) as used(id, at)
      where ${apiKeys.id} = used.id and (${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < used.at)`);
  }
}
