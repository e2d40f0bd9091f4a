/**
 * @module db/schema/provider-cache
 * What was fetched from which provider and when: one row per (provider, symbol,
 * timeframe). The market-data service asks a provider again only when the row
 * is missing or older than the cache TTL.
 */
import { bigint, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const providerCache = pgTable(
  'provider_cache',
  {
    provider: text('provider').notNull(),
    symbol: text('symbol').notNull(),
    timeframe: text('timeframe').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** First and last bar open time held, epoch ms; null when the provider returned no bars. */
    firstTs: bigint('first_ts', { mode: 'number' }),
    lastTs: bigint('last_ts', { mode: 'number' }),
    barCount: integer('bar_count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.symbol, table.timeframe] })],
);

export type ProviderCacheRow = typeof providerCache.$inferSelect;
