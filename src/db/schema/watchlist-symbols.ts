/**
 * @module db/schema/watchlist-symbols
 * The symbols of each watchlist, once each (upper case, checked against the
 * provider when added); they go with their watchlist.
 */
import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { watchlists } from './watchlists';

export const watchlistSymbols = pgTable(
  'watchlist_symbols',
  {
    watchlistId: text('watchlist_id')
      .notNull()
      .references(() => watchlists.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.watchlistId, table.symbol] }), index('watchlist_symbols_symbol_idx').on(table.symbol)],
);

export type WatchlistSymbolRow = typeof watchlistSymbols.$inferSelect;
