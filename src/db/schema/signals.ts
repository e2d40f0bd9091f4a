/**
 * @module db/schema/signals
 * Every signal a scan surfaced, keyed by its id (`SYMBOL-pattern-detectedAt`,
 * DESIGN §4; `/PT4H` or `/PT1H` after it for intraday signals since issue 26:
 * domain/signal-id). The detection-time fields are written once; only `state`,
 * `lastSeenRunId` and `updatedAt` move, and every state change is also
 * appended to `signal_events`.
 */
import { bigserial, doublePrecision, index, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';

export const signals = pgTable(
  'signals',
  {
    id: text('id').primaryKey(),
    symbol: text('symbol').notNull(),
    timeframe: text('timeframe').notNull(),
    patternType: text('pattern_type').notNull(),
    patternFamily: text('pattern_family').notNull(),
    direction: text('direction').notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true, mode: 'date' }).notNull(),
    triggerPrice: doublePrecision('trigger_price').notNull(),
    target1: doublePrecision('target1').notNull(),
    stopLoss: doublePrecision('stop_loss').notNull(),
    finalScore: real('final_score').notNull(),
    confidence: real('confidence').notNull(),
    scoreBand: text('score_band').notNull(),
    trendRegime: text('trend_regime').notNull(),
    reasons: jsonb('reasons').notNull(),
    geometry: jsonb('geometry').notNull(),
    source: text('source').notNull(),
    firstRunId: text('first_run_id').notNull(),
    state: text('state').notNull(),
    lastSeenRunId: text('last_seen_run_id').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('signals_symbol_idx').on(table.symbol, table.detectedAt),
    index('signals_detected_idx').on(table.detectedAt, table.id),
  ],
);

export const signalEvents = pgTable(
  'signal_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    signalId: text('signal_id')
      .notNull()
      .references(() => signals.id),
    runId: text('run_id').notNull(),
    fromState: text('from_state'),
    toState: text('to_state').notNull(),
    price: doublePrecision('price').notNull(),
    /** The bar time the change happened at. */
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('signal_events_signal_idx').on(table.signalId, table.id)],
);

export type SignalRow = typeof signals.$inferSelect;
export type SignalEventRow = typeof signalEvents.$inferSelect;
