/**
 * @module db/schema/api-keys
 * API keys, stored only as a SHA-256 hash (hex) beside a short lookup prefix
 * taken from the key (auth/api-key-format says why a plain hash is enough).
 * The checks make the database itself refuse a row whose hash is not 64 hex
 * characters, so a plaintext key cannot be written here by mistake. Rows are
 * never deleted: revoking sets `revoked_at`; `last_used_at` is written in
 * batches (auth/api-keys), not on every request.
 */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const apiKeys = pgTable(
  'api_keys',
  {
    /** `key_…` (ids.ts). */
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    /** The first characters of the key after `bk_`: the lookup index, shown in listings. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, lower-case hex. */
    hash: text('hash').notNull(),
    tier: text('tier').notNull(),
    /** What the key may do (domain/scopes); keys made before scopes existed could only read. */
    scopes: text('scopes').array().notNull().default(sql`'{read}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('api_keys_prefix_idx').on(table.prefix),
    index('api_keys_user_idx').on(table.userId, table.createdAt),
    check('api_keys_hash_is_sha256_hex', sql`${table.hash} ~ '^[0-9a-f]{64}$'`),
    check('api_keys_prefix_format', sql`${table.prefix} ~ '^[0-9A-Za-z]{8}$'`),
    check('api_keys_tier', sql`${table.tier} in ('free', 'pro', 'enterprise')`),
    check('api_keys_scopes', sql`cardinality(${table.scopes}) > 0 and ${table.scopes} <@ array['read', 'write', 'backtest', 'admin:keys']::text[]`),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
