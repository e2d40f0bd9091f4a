/**
 * @module db/schema/scan-runs
 * One row per universe scan: when and over what it ran, what it found, and the
 * ranked findings themselves (the BreakoutSignal objects as served), so
 * /api/breakouts answers from the latest persisted run without recomputing.
 */
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const scanRuns = pgTable(
  'scan_runs',
  {
    id: text('id').primaryKey(),
    timeframe: text('timeframe').notNull(),
    /** The bar time the scan stood on. */
    asOf: timestamp('as_of', { withTimezone: true, mode: 'date' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** `ok` or `failed`. */
    status: text('status').notNull(),
    symbolsScanned: integer('symbols_scanned').notNull(),
    signalsFound: integer('signals_found').notNull(),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    source: text('source').notNull(),
    regime: jsonb('regime'),
    findings: jsonb('findings').notNull(),
    /** The alert policy's verdicts on the findings (domain AlertVerdicts), evaluated once when the run was persisted; null on runs persisted before it was stored. */
    alerts: jsonb('alerts'),
    /** Series left out of the run because their data ended before its as-of (domain StaleSeries[]); null on runs persisted before it was stored. */
    staleSeries: jsonb('stale_series'),
  },
  (table) => [index('scan_runs_timeframe_finished_idx').on(table.timeframe, table.finishedAt)],
);

export type ScanRunRow = typeof scanRuns.$inferSelect;
