/**
 * @module db/schema/community-reports
 * Reports of community posts: one per user and post, with the reason.
 */
import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { communityPosts } from './community-posts';

export const communityReports = pgTable(
  'community_reports',
  {
    postId: text('post_id')
      .notNull()
      .references(() => communityPosts.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.postId, table.userId] })],
);

export type CommunityReportRow = typeof communityReports.$inferSelect;
