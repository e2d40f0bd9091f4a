/**
 * @module db/schema/ledger-facts
 * What the ledger's figures are computed from, kept beside each chain as
 * records are appended (issue 27): for each signal record the facts of the
 * signal as surfaced, for each outcome record the outcome's, and on the live
 * chain each state change — a few hundred bytes instead of a record's whole
 * body. The appender writes them in the same transaction as the records
 * (db/repositories/ledger-facts), so they are never ahead of or behind the
 * chain; like the chain they are only ever appended, in seq order, so a
 * reader holding the figures of one head reads only the facts after it.
 *
 * Derived, not the ledger: what a record says is its hashed body. A chain
 * written before the facts were kept is filled in by a backfill over its
 * records (`ledger_chain_state.facts_through`).
 *
 * `ledger_chain_state` holds, per chain, how far the backfill went and the
 * stored verification checkpoint (the last head a verification found whole).
 */
import { bigint, boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** A chain's facts table named `name`; `perReplay`: read by replay (the replay chain). */
export function ledgerFactsTable(name: string, perReplay = false) {
  return pgTable(
    name,
    {
      /** The record's seq. */
      seq: bigint('seq', { mode: 'number' }).primaryKey(),
      /** `signal`, `outcome`, or `state` (a state change: the live chain only). */
      kind: text('kind').notNull(),
      signalId: text('signal_id').notNull(),
      replayId: text('replay_id'),
      /** A signal record's filter columns. */
      detectedAt: timestamp('detected_at', { withTimezone: true, mode: 'date' }),
      patternType: text('pattern_type'),
      scoreBand: text('score_band'),
      /** The record's hash and time (the CSV's columns). */
      hash: text('hash').notNull(),
      recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull(),
      /** JSON: the signal's facts (ledger-facts SIGNAL_FACTS), the outcome's (OUTCOME_FACTS), or `{ state }`. */
      facts: text('facts').notNull(),
    },
    (table) => (perReplay ? [index(`${name}_replay_seq_idx`).on(table.replayId, table.seq)] : []),
  );
}

export const ledgerFacts = ledgerFactsTable('ledger_facts');
export const replayLedgerFacts = ledgerFactsTable('replay_ledger_facts', true);

/** Per chain (`live`, `replay`): the facts backfill's progress and the stored verification checkpoint. */
export const ledgerChainState = pgTable('ledger_chain_state', {
  chain: text('chain').primaryKey(),
  /** Every record up to this seq has its facts. */
  factsThrough: bigint('facts_through', { mode: 'number' }).notNull(),
  /** The backfill reached the head once: appends have kept the facts since. */
  factsComplete: boolean('facts_complete').notNull(),
  /** The last head a verification found whole (0: none yet), its hash, and when. */
  verifiedSeq: bigint('verified_seq', { mode: 'number' }).notNull().default(0),
  verifiedHash: text('verified_hash'),
  verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
  /** When the last full pass (from the first record) ended. */
  fullAt: timestamp('full_at', { withTimezone: true, mode: 'date' }),
});

export type LedgerFactsTable = typeof ledgerFacts;
export type LedgerFactRow = typeof ledgerFacts.$inferSelect;
export type LedgerChainStateRow = typeof ledgerChainState.$inferSelect;
