/**
 * @module db/repositories/community
 * Community posts and their reports. The public feed lists visible posts;
 * authors change their own posts (the owner's id scopes the write); a report
 * is counted once per user and post, and enough reports hide a post in the
 * same transaction; admins hide and unhide.
 */
import { and, count, eq, gt, or, sql } from 'drizzle-orm';
import type { PageRequest } from '../../pagination';
import type { Db } from '../client';
import { communityPosts, communityReports, type CommunityPostRow, type CommunityReportRow } from '../schema';
import { beyondCursor, pageOffset, pageOrder } from './keyset';

export interface FeedFilter {
  symbol?: string;
  /** Admins' moderation view: reported or hidden posts only, hidden ones included. */
  moderation?: boolean;
}

export class CommunityRepository {
  constructor(private readonly db: Db) {}

  async create(row: CommunityPostRow): Promise<CommunityPostRow> {
    const [inserted] = await this.db.insert(communityPosts).values(row).returning();
    return inserted!;
  }

  async page(filter: FeedFilter, page: PageRequest): Promise<{ rows: CommunityPostRow[]; total: number }> {
    const scope = and(
      filter.moderation ? or(gt(communityPosts.reportCount, 0), eq(communityPosts.hidden, true)) : eq(communityPosts.hidden, false),
      filter.symbol ? sql`${filter.symbol} = any(${communityPosts.symbols})` : undefined,
    );
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(communityPosts)
        .where(and(scope, beyondCursor(communityPosts.createdAt, communityPosts.id, page)))
        .orderBy(...pageOrder(communityPosts.createdAt, communityPosts.id, page.order))
        .limit(page.limit + 1)
        .offset(pageOffset(page)),
      this.db.select({ n: count() }).from(communityPosts).where(scope),
    ]);
    return { rows, total: Number(totals[0]?.n ?? 0) };
  }

  async get(id: string): Promise<CommunityPostRow | undefined> {
    const [row] = await this.db.select().from(communityPosts).where(eq(communityPosts.id, id)).limit(1);
    return row;
  }

  /** Changes the author's own post; undefined when `userId` has no such post. */
  async edit(userId: string, id: string, changes: Pick<Partial<CommunityPostRow>, 'body' | 'signalId' | 'symbols'> & { editedAt: Date }): Promise<CommunityPostRow | undefined> {
    const [row] = await this.db.update(communityPosts).set(changes).where(and(eq(communityPosts.id, id), eq(communityPosts.userId, userId))).returning();
    return row;
  }

  /** Deletes a post (with its reports); `userId` null deletes whoever wrote it (an admin). */
  async delete(userId: string | null, id: string): Promise<CommunityPostRow | undefined> {
    const which = userId === null ? eq(communityPosts.id, id) : and(eq(communityPosts.id, id), eq(communityPosts.userId, userId));
    const [row] = await this.db.delete(communityPosts).where(which).returning();
    return row;
  }

  /**
   * Records a user's report of a post, once; with `hideAfter` > 0, the post is
   * hidden when it reaches that many reports. Undefined when there is no such post.
   */
  async report(report: CommunityReportRow, hideAfter: number): Promise<{ post: CommunityPostRow; counted: boolean } | undefined> {
    return this.db.transaction(async (tx) => {
      const [post] = await tx.select().from(communityPosts).where(eq(communityPosts.id, report.postId)).for('update').limit(1);
      if (!post) return undefined;
      const [inserted] = await tx.insert(communityReports).values(report).onConflictDoNothing().returning();
      if (!inserted) return { post, counted: false };
      const reportCount = post.reportCount + 1;
      const hide = hideAfter > 0 && reportCount >= hideAfter && !post.hidden;
      const [updated] = await tx
        .update(communityPosts)
        .set({ reportCount, ...(hide ? { hidden: true, hiddenReason: `${reportCount} reports`, hiddenBy: 'reports', hiddenAt: report.createdAt } : {}) })
        .where(eq(communityPosts.id, post.id))
        .returning();
      return { post: updated!, counted: true };
    });
  }

  /** An admin's decision: hide (with a reason) or show again. */
  async moderate(id: string, decision: { hidden: boolean; reason: string | null; by: string; at: Date }): Promise<CommunityPostRow | undefined> {
    const [row] = await this.db
      .update(communityPosts)
      .set(decision.hidden ? { hidden: true, hiddenReason: decision.reason, hiddenBy: decision.by, hiddenAt: decision.at } : { hidden: false, hiddenReason: null, hiddenBy: null, hiddenAt: null })
      .where(eq(communityPosts.id, id))
      .returning();
    return row;
  }

  /** The reports of a post, newest first (admins). */
  reportsOf(postId: string): Promise<CommunityReportRow[]> {
    return this.db.select().from(communityReports).where(eq(communityReports.postId, postId)).orderBy(sql`${communityReports.createdAt} desc`);
  }
}
