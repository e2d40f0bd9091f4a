/**
 * @module db/schema/idempotency-keys
 * `Idempotency-Key` records: per user and key, the request it was first used
 * for (method and path, SHA-256 of the canonical JSON body) and, once that
 * request succeeded, its answer. A row without an answer is a request in
 * progress. Rows expire (plugins/idempotency).
 */
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    /** `POST /api/watchlists`. */
    route: text('route').notNull(),
    bodyHash: text('body_hash').notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] }), index('idempotency_keys_expiry_idx').on(table.expiresAt)],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
