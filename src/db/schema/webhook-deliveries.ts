/**
 * @module db/schema/webhook-deliveries
 * One webhook delivery per dispatch of a rule that has a webhook: the exact
 * signed body, its status (`pending` until a 2xx, `delivered`, or `failed`
 * after the last attempt) and when the next attempt is due. Any instance may
 * take a due delivery (claimed by moving `next_attempt_at` past its timeout),
 * so a delivery survives a restart.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { alertDispatches } from './alert-dispatches';

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** `whd_…`: also the Standard Webhooks `webhook-id` (the receiver's de-duplication key). */
    id: text('id').primaryKey(),
    dispatchId: text('dispatch_id')
      .notNull()
      .references(() => alertDispatches.id, { onDelete: 'cascade' }),
    ruleId: text('rule_id').notNull(),
    userId: text('user_id').notNull(),
    url: text('url').notNull(),
    /** The JSON body, exactly as signed and sent. */
    payload: text('payload').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('webhook_deliveries_due_idx').on(table.status, table.nextAttemptAt),
    index('webhook_deliveries_rule_idx').on(table.ruleId, table.createdAt, table.id),
    check('webhook_deliveries_status', sql`${table.status} in ('pending', 'delivered', 'failed')`),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
