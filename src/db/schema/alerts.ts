/**
 * @module db/schema/alerts
 * The alert log: each signal that became an alert candidate in a persisted
 * scan, once (the signal id is the key), with the bar time it first qualified.
 * The alert policy's cooldown reads it: another signal of the same symbol and
 * timeframe alerted within the cooldown blocks a new candidate.
 */
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const alerts = pgTable(
  'alerts',
  {
    signalId: text('signal_id').primaryKey(),
    symbol: text('symbol').notNull(),
    timeframe: text('timeframe').notNull(),
    runId: text('run_id').notNull(),
    /** The bar time of the scan in which the signal first qualified. */
    alertedAt: timestamp('alerted_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('alerts_timeframe_alerted_idx').on(table.timeframe, table.alertedAt)],
);

export type AlertRow = typeof alerts.$inferSelect;
