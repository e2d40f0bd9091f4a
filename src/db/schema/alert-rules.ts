/**
 * @module db/schema/alert-rules
 * A user's alert rules (`/api/alerts/v2`): which signals fire (symbols or a
 * watchlist, pattern types, a minimum band or score, timeframe, direction,
 * states) and where they go (an in-app notification, a webhook). The
 * webhook's signing secret is kept here because every delivery is signed
 * with it. A watchlist a rule watches cannot be deleted under it.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { watchlists } from './watchlists';

export const alertRules = pgTable(
  'alert_rules',
  {
    /** `rul_…` (ids.ts). */
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    /** The symbols watched; null when the rule watches a watchlist. */
    symbols: text('symbols').array(),
    watchlistId: text('watchlist_id').references(() => watchlists.id, { onDelete: 'restrict' }),
    /** Pattern types that fire; null → every type. */
    patternTypes: text('pattern_types').array(),
    minBand: text('min_band'),
    minScore: real('min_score'),
    timeframe: text('timeframe').notNull(),
    /** `long`, `short` or `any`. */
    direction: text('direction').notNull(),
    /** Breakout states in which a signal fires the rule. */
    states: text('states').array().notNull(),
    cooldownMinutes: integer('cooldown_minutes').notNull(),
    inApp: boolean('in_app').notNull(),
    webhookUrl: text('webhook_url'),
    /** `whsec_…`: the Standard Webhooks signing secret of the rule's deliveries. */
    webhookSecret: text('webhook_secret'),
    enabled: boolean('enabled').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('alert_rules_user_idx').on(table.userId, table.createdAt, table.id),
    index('alert_rules_timeframe_idx').on(table.timeframe, table.enabled),
    check('alert_rules_target', sql`(${table.symbols} is null) <> (${table.watchlistId} is null)`),
    check('alert_rules_webhook', sql`(${table.webhookUrl} is null) = (${table.webhookSecret} is null)`),
  ],
);

export type AlertRuleRow = typeof alertRules.$inferSelect;
