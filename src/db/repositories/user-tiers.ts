/**
 * @module db/repositories/user-tiers
 * Statements of a user's tier (db/schema/user-tiers): written only when newer
 * than the one held (so two instances, or an old token and a new one, settle
 * on the newest), read with each API key (db/repositories/api-keys).
 */
import { eq, lte, sql } from 'drizzle-orm';
import { storedAs } from '../../domain/check';
import { literalUnion } from '../../domain/signal';
import { TIERS, type Tier } from '../../domain/tiers';
import type { Db } from '../client';
import { userTiers } from '../schema';

export type TierSource = 'session' | 'operator';

const tierOf = storedAs(literalUnion(TIERS));

export class UserTiersRepository {
  constructor(private readonly db: Db) {}

  /** Records `tier` as stated at `statedAt`, unless a newer statement is held (of two stated at once, the later written wins); whether it was written. */
  async state(userId: string, tier: Tier, statedAt: Date, source: TierSource): Promise<boolean> {
    const written = await this.db
      .insert(userTiers)
      .values({ userId, tier, statedAt, source })
      .onConflictDoUpdate({ target: userTiers.userId, set: { tier, statedAt, source }, setWhere: lte(userTiers.statedAt, sql`excluded.stated_at`) })
      .returning({ userId: userTiers.userId });
    return written.length > 0;
  }

  /** The user's tier as last stated, if ever. */
  async of(userId: string): Promise<{ tier: Tier; statedAt: Date; source: TierSource } | undefined> {
    const [row] = await this.db.select().from(userTiers).where(eq(userTiers.userId, userId)).limit(1);
    return row && { tier: tierOf(row.tier, `user ${userId} tier`), statedAt: row.statedAt, source: row.source === 'operator' ? 'operator' : 'session' };
  }
}
