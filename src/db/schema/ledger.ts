/**
 * @module db/schema/ledger
 * The public, append-only ledger (DESIGN §4). Each record is one canonical JSON
 * text (`body`) chained by `hash = SHA-256(prevHash ‖ body)`; rows are never
 * updated or deleted (database triggers refuse it, migration 0002). The
 * denormalised columns beside `body` only serve filtering; what a record says
 * is its body.
 *
 * Two chains have this shape: the live ledger (here) and the replay ledger
 * (replay-ledger.ts), built by the same functions so one repository reads
 * either. `replay_id` is only set in the replay chain.
 */
import { bigint, index, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * A chain's records table named `name` (its indexes are named after it). A
 * signal and its outcome are written once per chain, or with `perReplay` once
 * per replay (two replays over the same dates surface the same signal ids).
 */
export function ledgerRecordsTable(name: string, perReplay = false) {
  return pgTable(
    name,
    {
      seq: bigint('seq', { mode: 'number' }).primaryKey(),
      /** `signal` (written once, when first surfaced), `event` (a state change), `outcome` (the resolution), or `replay` (a replay's parameters, replay chain only). */
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
      /** The replay a record belongs to (replay chain); null in the live chain. */
      replayId: text('replay_id'),
    },
    (table) => [
      uniqueIndex(`${name}_hash_idx`).on(table.hash),
      // A signal is written once; so is its outcome.
      perReplay
        ? uniqueIndex(`${name}_signal_once_idx`).on(table.replayId, table.signalId).where(sql`kind = 'signal'`)
        : uniqueIndex(`${name}_signal_once_idx`).on(table.signalId).where(sql`kind = 'signal'`),
      perReplay
        ? uniqueIndex(`${name}_outcome_once_idx`).on(table.replayId, table.signalId).where(sql`kind = 'outcome'`)
        : uniqueIndex(`${name}_outcome_once_idx`).on(table.signalId).where(sql`kind = 'outcome'`),
      index(`${name}_signal_idx`).on(table.signalId, table.seq),
      index(`${name}_detected_idx`).on(table.detectedAt),
      ...(perReplay ? [index(`${name}_replay_idx`).on(table.replayId, table.seq)] : []),
    ],
  );
}

/** A chain's checkpoints table named `name`. */
export function ledgerCheckpointsTable(name: string) {
  return pgTable(name, {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    headHash: text('head_hash').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  });
}

export const ledgerRecords = ledgerRecordsTable('ledger_records');
export const ledgerCheckpoints = ledgerCheckpointsTable('ledger_checkpoints');

export type LedgerRecordsTable = typeof ledgerRecords;
export type LedgerCheckpointsTable = typeof ledgerCheckpoints;
export type LedgerRecordRow = typeof ledgerRecords.$inferSelect;
export type LedgerCheckpointRow = typeof ledgerCheckpoints.$inferSelect;
