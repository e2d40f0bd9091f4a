/**
 * @module db/schema/replay-runs
 * One row per point-in-time replay: its parameters, data source and universe,
 * how far it got, and what a resumed run needs to carry on (the per-symbol
 * books, jobs/replay). Progress is updated in the same transaction as the
 * replay ledger records of each chunk of sessions, so an interrupted replay
 * resumes exactly where its last chunk ended.
 */
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const replayRuns = pgTable(
  'replay_runs',
  {
    id: text('id').primaryKey(),
    /** A digest of the parameters and source: the same request finds (and resumes) the same run. */
    key: text('key').notNull(),
    timeframe: text('timeframe').notNull(),
    fromDate: text('from_date').notNull(),
    toDate: text('to_date').notNull(),
    /** Provider name (e.g. `synthetic`, `csv`). */
    source: text('source').notNull(),
    /** Why the replay was run: `cli`, `boot`, `api`, `test`. */
    origin: text('origin').notNull(),
    /** The parameters as given (jobs/replay ReplayParams). */
    params: jsonb('params').notNull(),
    /** The universe and its survivorship statement (jobs/replay/universe). */
    universe: jsonb('universe').notNull(),
    /** `running`, `done` or `failed`. */
    status: text('status').notNull(),
    sessionsTotal: integer('sessions_total').notNull(),
    sessionsDone: integer('sessions_done').notNull(),
    signals: integer('signals').notNull(),
    records: integer('records').notNull(),
    /** Per-symbol books after the last finished chunk (resume state). */
    books: jsonb('books'),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('replay_runs_key_idx').on(table.key), index('replay_runs_updated_idx').on(table.updatedAt)],
);

export type ReplayRunRow = typeof replayRuns.$inferSelect;
