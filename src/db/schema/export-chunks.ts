/**
 * @module db/schema/export-chunks
 * The content of a done export, in order, a piece of up to about 1 MB each,
 * so any instance can stream it without holding it whole. Deleted when the
 * export expires.
 */
import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { exports } from './exports';

export const exportChunks = pgTable(
  'export_chunks',
  {
    exportId: text('export_id')
      .notNull()
      .references(() => exports.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    content: text('content').notNull(),
  },
  (table) => [primaryKey({ columns: [table.exportId, table.seq] })],
);

export type ExportChunkRow = typeof exportChunks.$inferSelect;
