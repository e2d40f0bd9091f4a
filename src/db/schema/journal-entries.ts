/**
 * @module db/schema/journal-entries
 * A user's trade journal: what they traded, when and at what prices, with an
 * optional link to the signal they traded (checked to exist when written).
 * P&L, R and holding time are computed on read, never stored.
 */
import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const journalEntries = pgTable(
  'journal_entries',
  {
    /** `jrn_…` (ids.ts). */
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    symbol: text('symbol').notNull(),
    /** `long` or `short`. */
    side: text('side').notNull(),
    entryPrice: doublePrecision('entry_price').notNull(),
    entryAt: timestamp('entry_at', { withTimezone: true, mode: 'date' }).notNull(),
    exitPrice: doublePrecision('exit_price'),
    exitAt: timestamp('exit_at', { withTimezone: true, mode: 'date' }),
    /** Shares or contracts, > 0. */
    size: doublePrecision('size').notNull(),
    /** Total fees of both legs, ≥ 0, in the price's currency. */
    fees: doublePrecision('fees').notNull(),
    notes: text('notes').notNull(),
    tags: text('tags').array().notNull(),
    signalId: text('signal_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('journal_entries_user_idx').on(table.userId, table.entryAt, table.id),
    check('journal_entries_side', sql`${table.side} in ('long', 'short')`),
    check('journal_entries_exit', sql`(${table.exitPrice} is null) = (${table.exitAt} is null)`),
  ],
);

export type JournalEntryRow = typeof journalEntries.$inferSelect;
