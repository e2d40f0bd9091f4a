/**
 * @module db/schema/stream-events
 * The realtime stream's durable log (an outbox): every event a subscriber of
 * GET /api/stream may receive, at a position that is dense (1, 2, 3, … with
 * no holes) and in commit order across every instance on this database. A
 * writer takes its positions from the one `stream_head` row in the same
 * transaction that writes what the events announce, so the row lock orders
 * the writers: an event is in the log exactly when what it announces is
 * stored, and a reader that sees position p can read every position below it.
 * The event bus carries them (Redis, or in-process) and fills any hole it
 * sees from here (stream/bus); old positions are pruned, and a hole that
 * reaches into pruned positions is a `reset` for the subscribers.
 */
import { bigint, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

export const streamEvents = pgTable('stream_events', {
  position: bigint('position', { mode: 'number' }).primaryKey(),
  /** The stream channel (stream/bus CHANNELS). */
  channel: text('channel').notNull(),
  /** The bus payload (domain/events), checked against the channel's schema when read back. */
  payload: jsonb('payload').notNull(),
  recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** One row (`id` 1): the last position handed out. Its row lock orders the writers of `stream_events`. */
export const streamHead = pgTable('stream_head', {
  id: smallint('id').primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull(),
});

export type StreamEventRow = typeof streamEvents.$inferSelect;
