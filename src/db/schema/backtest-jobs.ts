/**
 * @module db/schema/backtest-jobs
 * Universe walk-forward backtests run as jobs (jobs/backtest): who asked,
 * what they asked for (the effective inputs), how far it got and what it
 * found. A row is written when the job is accepted and then moves forward
 * only: `queued` → `running` → `succeeded` | `failed`, with its progress and
 * heartbeat updated while it runs and its result or error written once at the
 * end. A running job whose heartbeat went silent (its server stopped) is
 * marked `failed` when next read.
 */
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const backtestJobs = pgTable(
  'backtest_jobs',
  {
    /** `btj_…` (ids.ts). */
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    status: text('status').notNull(),
    /** The effective inputs (WalkForward request after defaults). */
    request: jsonb('request').notNull(),
    /** `{ phase, done, total }`. */
    progress: jsonb('progress').notNull(),
    /** The WalkForwardResponse of the universe run, once succeeded. */
    result: jsonb('result'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('backtest_jobs_user_idx').on(table.userId, table.createdAt),
    check('backtest_jobs_status', sql`${table.status} in ('queued', 'running', 'succeeded', 'failed')`),
  ],
);

export type BacktestJobRow = typeof backtestJobs.$inferSelect;
