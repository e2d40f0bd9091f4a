/**
 * @module db/schema/watchlists
 * A user's named lists of symbols (their symbols are in `watchlist_symbols`).
 * Every read and write is scoped by `user_id`: another user's watchlist is
 * answered as if it did not exist.
 */
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const watchlists = pgTable(
  'watchlists',
  {
    /** `wl_…` (ids.ts). */
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('watchlists_user_idx').on(table.userId, table.createdAt, table.id)],
);

export type WatchlistRow = typeof watchlists.$inferSelect;
