/**
 * @module db/schema/user-tiers
 * Each user's tier as the identity provider last stated it (a session token's
 * tier claim, at the token's `iat`) or the operator did (`breakline keys tier`).
 * A user's API keys act at most at this tier (auth/user-tiers): a downgrade
 * reaches every key, on every instance, from the statement on. The newest
 * statement wins: an older token still in use never undoes a newer one.
 */
import { sql } from 'drizzle-orm';
import { check, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const userTiers = pgTable(
  'user_tiers',
  {
    userId: text('user_id').primaryKey(),
    tier: text('tier').notNull(),
    /** When the statement was made: the token's `iat`, or the operator's command. */
    statedAt: timestamp('stated_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Who made it: `session` or `operator`. */
    source: text('source').notNull(),
  },
  (table) => [check('user_tiers_tier', sql`${table.tier} in ('free', 'pro', 'enterprise')`), check('user_tiers_source', sql`${table.source} in ('session', 'operator')`)],
);

export type UserTierRow = typeof userTiers.$inferSelect;
