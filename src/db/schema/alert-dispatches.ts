/**
 * @module db/schema/alert-dispatches
 * Each time a rule fired for a signal: once per rule and signal (the unique
 * key, which holds across instances sharing the database). The rule's
 * cooldown reads the newest dispatch of the rule for a symbol. Dispatches go
 * with their rule.
 */
import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { alertRules } from './alert-rules';

export const alertDispatches = pgTable(
  'alert_dispatches',
  {
    /** `alr_…`: the `alertId` of the `alerts.dispatched` event. */
    id: text('id').primaryKey(),
    ruleId: text('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    signalId: text('signal_id').notNull(),
    symbol: text('symbol').notNull(),
    timeframe: text('timeframe').notNull(),
    /** The signal's state when the rule fired. */
    state: text('state').notNull(),
    runId: text('run_id').notNull(),
    /** The bar time of the run that fired it. */
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    uniqueIndex('alert_dispatches_rule_signal_idx').on(table.ruleId, table.signalId),
    index('alert_dispatches_rule_symbol_idx').on(table.ruleId, table.symbol, table.createdAt),
  ],
);

export type AlertDispatchRow = typeof alertDispatches.$inferSelect;
