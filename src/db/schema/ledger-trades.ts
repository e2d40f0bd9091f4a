/**
 * @module db/schema/ledger-trades
 * What the ledger's figures are computed from, kept beside each chain as
 * records are appended (issue 27): one row per signal record with the facts
 * of the signal as surfaced, its current state and its outcome so far — a
 * few hundred bytes instead of the signal's whole body and every record that
 * followed it. The appender writes them in the same transaction as the
 * records (db/repositories/ledger-trades), so they are never ahead of or
 * behind the chain; `changed_seq` is the seq of the last record that changed
 * a row, so a reader holding the figures of one head reads only the rows
 * changed after it.
 *
 * Derived, not the ledger: rows are updated as events and outcomes arrive,
 * and a chain that predates them is filled in by a backfill that reads the
 * records (`ledger_chain_state.trades_through`). What a record says is still
 * its body, hashed in the chain.
 *
 * `ledger_chain_state` holds, per chain, how far the backfill went and the
 * stored verification checkpoint (the last head a verification found whole).
 */
import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A chain's trades table named `name`; with `perReplay` a signal is once per replay (replay chain). */
export function ledgerTradesTable(name: string, perReplay = false) {
  return pgTable(
    name,
    {
      /** The signal record's seq. */
      seq: bigint('seq', { mode: 'number' }).primaryKey(),
      signalId: text('signal_id').notNull(),
      replayId: text('replay_id'),
      detectedAt: timestamp('detected_at', { withTimezone: true, mode: 'date' }),
      patternType: text('pattern_type'),
      scoreBand: text('score_band'),
      /** The signal record's hash and time (the CSV's columns). */
      hash: text('hash').notNull(),
      recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull(),
      /** JSON: the signal's facts as surfaced (ledger-trades SIGNAL_FACTS). */
      signal: text('signal').notNull(),
      /** The state after the last event record (or the state it was surfaced in). */
      state: text('state').notNull(),
      /** The seq of the record that set `state` (a state only moves forward). */
      stateSeq: bigint('state_seq', { mode: 'number' }).notNull(),
      /** JSON: the outcome record's facts (OUTCOME_FACTS); null while open. */
      outcome: text('outcome'),
      /** The seq of the last record that changed this row. */
      changedSeq: bigint('changed_seq', { mode: 'number' }).notNull(),
    },
    (table) => [
      perReplay ? uniqueIndex(`${name}_signal_idx`).on(table.replayId, table.signalId) : uniqueIndex(`${name}_signal_idx`).on(table.signalId),
      perReplay ? index(`${name}_changed_idx`).on(table.replayId, table.changedSeq) : index(`${name}_changed_idx`).on(table.changedSeq),
      ...(perReplay ? [index(`${name}_replay_seq_idx`).on(table.replayId, table.seq)] : []),
    ],
  );
}

export const ledgerTrades = ledgerTradesTable('ledger_trades');
export const replayLedgerTrades = ledgerTradesTable('replay_ledger_trades', true);

/** Per chain (`live`, `replay`): the trades backfill's progress and the stored verification checkpoint. */
export const ledgerChainState = pgTable('ledger_chain_state', {
  chain: text('chain').primaryKey(),
  /** Every record up to this seq is reflected in the trades table. */
  tradesThrough: bigint('trades_through', { mode: 'number' }).notNull(),
  /** The backfill reached the head once: appends have kept the trades since. */
  tradesComplete: boolean('trades_complete').notNull(),
  /** The last head a verification found whole (0: none yet), its hash, and when. */
  verifiedSeq: bigint('verified_seq', { mode: 'number' }).notNull().default(0),
  verifiedHash: text('verified_hash'),
  verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
  /** When the last full pass (from the first record) ended. */
  fullAt: timestamp('full_at', { withTimezone: true, mode: 'date' }),
});

export type LedgerTradesTable = typeof ledgerTrades;
export type LedgerTradeRow = typeof ledgerTrades.$inferSelect;
export type LedgerChainStateRow = typeof ledgerChainState.$inferSelect;
