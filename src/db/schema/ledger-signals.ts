/**
 * @module db/schema/ledger-signals
 * The index a ledger page is read over (issue 27): one row per signal record
 * of a chain, with the record's filter columns and its ordinal among the
 * signals of its replay (of the live chain: among all) in chain order — as a
 * whole, within its pattern type, within its score band, and within both.
 * A page at `offset` of the signals a pattern/band filter matches is then a
 * range of one ordinal (`offset + 1 …  offset + limit`), read by its index,
 * and the count of matches is the last ordinal: both an index probe, however
 * long the chain (a boot replay's 128k signals, 478k records), with nothing
 * counted and no trade book loaded.
 *
 * Derived, not the ledger: the appender writes a signal's row in the same
 * transaction as its record (db/repositories/ledger-signals `extendIn`), under
 * the chain's writer lock, so the ordinals are dense and never ahead of or
 * behind the chain; migration 0018 filled in the records written before.
 * Only ever appended, like the chain.
 */
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A chain's signal index named `name`; `perReplay`: ordinals and reads per replay (the replay chain). */
export function ledgerSignalsTable(name: string, perReplay = false) {
  return pgTable(
    name,
    {
      /** The signal record's seq. */
      seq: bigint('seq', { mode: 'number' }).primaryKey(),
      replayId: text('replay_id'),
      /** The record's filter columns (ledger_records). */
      detectedAt: timestamp('detected_at', { withTimezone: true, mode: 'date' }),
      patternType: text('pattern_type'),
      scoreBand: text('score_band'),
      /** 1, 2, … in chain order: among the replay's signals, those of its pattern type, of its band, of both. */
      n: bigint('n', { mode: 'number' }).notNull(),
      nPattern: bigint('n_pattern', { mode: 'number' }).notNull(),
      nBand: bigint('n_band', { mode: 'number' }).notNull(),
      nPatternBand: bigint('n_pattern_band', { mode: 'number' }).notNull(),
    },
    (table) =>
      perReplay
        ? [
            uniqueIndex(`${name}_n_idx`).on(table.replayId, table.n),
            index(`${name}_pattern_idx`).on(table.replayId, table.patternType, table.nPattern),
            index(`${name}_band_idx`).on(table.replayId, table.scoreBand, table.nBand),
            index(`${name}_pattern_band_idx`).on(table.replayId, table.patternType, table.scoreBand, table.nPatternBand),
            index(`${name}_detected_idx`).on(table.replayId, table.detectedAt),
          ]
        : [
            uniqueIndex(`${name}_n_idx`).on(table.n),
            index(`${name}_pattern_idx`).on(table.patternType, table.nPattern),
            index(`${name}_band_idx`).on(table.scoreBand, table.nBand),
            index(`${name}_pattern_band_idx`).on(table.patternType, table.scoreBand, table.nPatternBand),
            index(`${name}_detected_idx`).on(table.detectedAt),
          ],
  );
}

export const ledgerSignals = ledgerSignalsTable('ledger_signals');
export const replayLedgerSignals = ledgerSignalsTable('replay_ledger_signals', true);

export type LedgerSignalsTable = typeof ledgerSignals;
