/**
 * @module db/schema/replay-runs
 * One row per point-in-time replay: its parameters, data source and universe,
 * how far it got, and what a resumed run needs to carry on (jobs/replay): the
 * per-symbol books as of a session (`replay_books`, stored every so often),
 * and how many records the replay has written since that session — counted
 * in the same transaction as each slice of records, so an interrupted replay
 * recomputes from the books and skips exactly what it had written.
 */
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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
    /** Per-symbol books after the last finished chunk (resume state of runs written before `replay_books`). */
    books: jsonb('books'),
    /** The session the stored books (replay_books) are as of: a resumed run recomputes from there. */
    booksThrough: integer('books_through').notNull().default(0),
    /** Ledger entries written since `books_through` (a resumed run skips that many). */
    entriesSinceBooks: integer('entries_since_books').notNull().default(0),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('replay_runs_key_idx').on(table.key), index('replay_runs_updated_idx').on(table.updatedAt)],
);

export type ReplayRunRow = typeof replayRuns.$inferSelect;

/**
 * A replay's per-symbol books as of session `through` (one row a symbol, so
 * storing them is many small statements, never one of megabytes). The run's
 * `books_through` names the set a resume reads; older sets are removed once a
 * newer one is complete.
 */
export const replayBooks = pgTable(
  'replay_books',
  {
    replayId: text('replay_id').notNull(),
    through: integer('through').notNull(),
    symbol: text('symbol').notNull(),
    /** JSON: the symbol's book (domain/replay BookSchema). */
    book: text('book').notNull(),
  },
  (table) => [primaryKey({ columns: [table.replayId, table.through, table.symbol] })],
);
