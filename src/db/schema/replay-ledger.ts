/**
 * @module db/schema/replay-ledger
 * The replay ledger: what point-in-time replays of history surfaced, in a hash
 * chain of its own with its own checkpoints, never mixed with the live ledger
 * (DESIGN §4). The same shape as the live chain (ledger.ts); every body says
 * `mode: "replay"` with the replay's id and data source, `replay_id` filters
 * by replay (a signal is written once per replay), and the same triggers
 * refuse UPDATE, DELETE and TRUNCATE.
 */
import { ledgerCheckpointsTable, ledgerRecordsTable } from './ledger';

export const replayLedgerRecords = ledgerRecordsTable('replay_ledger_records', true);
export const replayLedgerCheckpoints = ledgerCheckpointsTable('replay_ledger_checkpoints');
