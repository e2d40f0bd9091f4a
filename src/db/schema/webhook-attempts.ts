/**
 * @module db/schema/webhook-attempts
 * The delivery log: every attempt at a webhook delivery, with the receiver's
 * status code or the error, and how long it took. Appended, never updated.
 */
import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { webhookDeliveries } from './webhook-deliveries';

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    /** 1 for the first attempt. */
    attempt: integer('attempt').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The receiver's HTTP status; null when no answer came (refused address, timeout, connection error). */
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (table) => [index('webhook_attempts_delivery_idx').on(table.deliveryId, table.attempt)],
);

export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
