/**
 * @module db/schema/community-posts
 * Posts of the public community feed: text, an optional signal id, symbol
 * tags; moderation fields (hidden by an admin or by reports, the reason, the
 * report count). Authors edit and delete their own.
 */
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const communityPosts = pgTable(
  'community_posts',
  {
    /** `pst_…` (ids.ts). */
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    body: text('body').notNull(),
    signalId: text('signal_id'),
    symbols: text('symbols').array().notNull(),
    hidden: boolean('hidden').notNull(),
    hiddenReason: text('hidden_reason'),
    hiddenBy: text('hidden_by'),
    hiddenAt: timestamp('hidden_at', { withTimezone: true, mode: 'date' }),
    reportCount: integer('report_count').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    editedAt: timestamp('edited_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('community_posts_feed_idx').on(table.hidden, table.createdAt, table.id),
    index('community_posts_user_idx').on(table.userId, table.createdAt),
  ],
);

export type CommunityPostRow = typeof communityPosts.$inferSelect;
