/**
 * @module db/schema/ledger
 * The public, append-only ledger (DESIGN §4). Each record is one canonical JSON
 * text (`body`) chained by `hash = SHA-256(prevHash ‖ body)`; rows are never
 * updated or deleted (database triggers refuse it, migration 0002). The
 * denormalised columns beside `body` only serve filtering; what a record says
 * is its body.
 */
import { bigint, index, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

export const ledgerRecords = pgTable(
  'ledger_records',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    /** `signal` (written once, when first surfaced), `event` (a state change) or `outcome` (the resolution). */
    kind: text('kind').notNull(),
    signalId: text('signal_id').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull(),
    body: text('body').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    patternType: text('pattern_type'),
    scoreBand: text('score_band'),
    finalScore: real('final_score'),
    detectedAt: timestamp('detected_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('ledger_records_hash_idx').on(table.hash),
    // A signal is written once; so is its outcome.
    uniqueIndex('ledger_records_signal_once_idx').on(table.signalId).where(sql`kind = 'signal'`),
    uniqueIndex('ledger_records_outcome_once_idx').on(table.signalId).where(sql`kind = 'outcome'`),
    index('ledger_records_signal_idx').on(table.signalId, table.seq),
    index('ledger_records_detected_idx').on(table.detectedAt),
  ],
);

export const ledgerCheckpoints = pgTable('ledger_checkpoints', {
  seq: bigint('seq', { mode: 'number' }).primaryKey(),
  headHash: text('head_hash').notNull(),
  count: bigint('count', { mode: 'number' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

export type LedgerRecordRow = typeof ledgerRecords.$inferSelect;
export type LedgerCheckpointRow = typeof ledgerCheckpoints.$inferSelect;
