/**
 * @module db/repositories/notifications
 * A user's in-app notifications, newest first by default; marking read sets
 * `read_at` once (a read notification keeps its first read time).
 */
import { and, count, eq, isNull } from 'drizzle-orm';
import type { PageRequest } from '../../pagination';
import type { Db } from '../client';
import { notifications, type NotificationRow } from '../schema';
import { beyondCursor, pageOffset, pageOrder } from './keyset';

export class NotificationsRepository {
  constructor(private readonly db: Db) {}

  async page(userId: string, page: PageRequest, filter: { unread?: boolean }): Promise<{ rows: NotificationRow[]; total: number; unread: number }> {
    const owner = eq(notifications.userId, userId);
    const scope = filter.unread ? and(owner, isNull(notifications.readAt)) : owner;
    const [rows, totals, unread] = await Promise.all([
      this.db
        .select()
        .from(notifications)
        .where(and(scope, beyondCursor(notifications.createdAt, notifications.id, page)))
        .orderBy(...pageOrder(notifications.createdAt, notifications.id, page.order))
        .limit(page.limit + 1)
        .offset(pageOffset(page)),
      this.db.select({ n: count() }).from(notifications).where(scope),
      this.db.select({ n: count() }).from(notifications).where(and(owner, isNull(notifications.readAt))),
    ]);
    return { rows, total: Number(totals[0]?.n ?? 0), unread: Number(unread[0]?.n ?? 0) };
  }

  /** Marks one read (once); undefined when the user has no such notification. */
  async markRead(userId: string, id: string, at: Date): Promise<NotificationRow | undefined> {
    const mine = and(eq(notifications.id, id), eq(notifications.userId, userId));
    await this.db.update(notifications).set({ readAt: at }).where(and(mine, isNull(notifications.readAt)));
    const [row] = await this.db.select().from(notifications).where(mine).limit(1);
    return row;
  }

  /** Marks every unread notification of the user read; answers how many. */
  async markAllRead(userId: string, at: Date): Promise<number> {
    const rows = await this.db
      .update(notifications)
      .set({ readAt: at })
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
      .returning({ id: notifications.id });
    return rows.length;
  }
}
