/**
 * @module db/schema/exports
 * Export jobs: a ledger slice (the ledger endpoint's filters) or the user's
 * journal, as CSV or JSON, made in the background. The status moves
 * queued → running → done | failed, and a done export becomes `expired` when
 * its time is up (its content, in `export_chunks`, is then deleted).
 */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const exports = pgTable(
  'exports',
  {
    /** `exp_…` (ids.ts). */
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    /** `ledger` or `journal`. */
    dataset: text('dataset').notNull(),
    /** `csv` or `json`. */
    format: text('format').notNull(),
    /** The ledger filters as asked (read back through a checked mapper). */
    filters: jsonb('filters').notNull(),
    status: text('status').notNull(),
    rowCount: integer('row_count'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('exports_user_idx').on(table.userId, table.createdAt, table.id),
    index('exports_status_idx').on(table.status, table.createdAt),
    check('exports_status', sql`${table.status} in ('queued', 'running', 'done', 'failed', 'expired')`),
  ],
);

export type ExportRow = typeof exports.$inferSelect;
