/**
 * @module db/schema/notifications
 * In-app notifications: one per dispatch of a rule with the in-app channel.
 * They keep the rule's id and name as they were, so they outlive the rule.
 * Only `read_at` ever changes.
 */
import { index, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';

export const notifications = pgTable(
  'notifications',
  {
    /** `ntf_…` (ids.ts). */
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    /** `alert` (a rule fired). */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    alertId: text('alert_id').notNull(),
    ruleId: text('rule_id').notNull(),
    ruleName: text('rule_name').notNull(),
    signalId: text('signal_id').notNull(),
    symbol: text('symbol').notNull(),
    timeframe: text('timeframe').notNull(),
    patternType: text('pattern_type').notNull(),
    state: text('state').notNull(),
    finalScore: real('final_score').notNull(),
    scoreBand: text('score_band').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('notifications_user_idx').on(table.userId, table.createdAt, table.id)],
);

export type NotificationRow = typeof notifications.$inferSelect;
