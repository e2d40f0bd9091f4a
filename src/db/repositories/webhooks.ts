/**
 * @module db/repositories/webhooks
 * Webhook deliveries and their attempt log. Any instance takes due
 * deliveries: the claim moves a delivery's `next_attempt_at` past the attempt's
 * timeout in the same statement that selects it (`FOR UPDATE SKIP LOCKED`),
 * so no two instances send the same attempt, and a delivery whose sender died
 * is taken again once that time has passed.
 */
import { Type } from '@sinclair/typebox';
import { and, asc, count, eq, inArray, lte, sql } from 'drizzle-orm';
import { storedAs } from '../../domain/check';
import { literalUnion } from '../../domain/signal';
import type { PageRequest } from '../../pagination';
import type { Db } from '../client';
import { webhookAttempts, webhookDeliveries, type WebhookAttemptRow, type WebhookDeliveryRow } from '../schema';
import { beyondCursor, pageOffset, pageOrder } from './keyset';
import { rowsOf } from './rows';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface StoredDelivery extends Omit<WebhookDeliveryRow, 'status'> {
  status: DeliveryStatus;
}

const statusOf = storedAs(literalUnion(DELIVERY_STATUSES));
const storedDelivery = (row: WebhookDeliveryRow): StoredDelivery => ({ ...row, status: statusOf(row.status, `webhook delivery ${row.id} status`) });


const claimedRow = storedAs(Type.Object({ id: Type.String() }));

export class WebhooksRepository {
  constructor(private readonly db: Db) {}

  /** Takes up to `limit` due pending deliveries, leasing each until `leaseUntil`. */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<StoredDelivery[]> {
    const result = await this.db.execute(sql`
      update ${webhookDeliveries} set next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
      where id in (
        select id from ${webhookDeliveries}
        where status = 'pending' and next_attempt_at <= ${now.toISOString()}::timestamptz
        order by next_attempt_at limit ${limit}
        for update skip locked)
      returning id`);
    const ids = rowsOf(result).map((r) => claimedRow(r, 'claimed webhook delivery').id);
    if (ids.length === 0) return [];
    const rows = await this.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids)).orderBy(asc(webhookDeliveries.createdAt));
    return rows.map(storedDelivery);
  }

  /** Appends an attempt and moves the delivery on: delivered, failed, or pending until `nextAttemptAt`. */
  async recordAttempt(attempt: Omit<WebhookAttemptRow, 'id'>, next: { status: DeliveryStatus; nextAttemptAt: Date; finishedAt: Date | null }): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(webhookAttempts).values(attempt);
      await tx
        .update(webhookDeliveries)
        .set({ status: next.status, attempts: attempt.attempt, nextAttemptAt: next.nextAttemptAt, finishedAt: next.finishedAt })
        .where(eq(webhookDeliveries.id, attempt.deliveryId));
    });
  }

  /** A page of a rule's deliveries (by createdAt, id) with their attempts, for its owner. */
  async page(userId: string, ruleId: string, page: PageRequest): Promise<{ rows: (StoredDelivery & { attemptLog: WebhookAttemptRow[] })[]; total: number }> {
    const scope = and(eq(webhookDeliveries.userId, userId), eq(webhookDeliveries.ruleId, ruleId));
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(webhookDeliveries)
        .where(and(scope, beyondCursor(webhookDeliveries.createdAt, webhookDeliveries.id, page)))
        .orderBy(...pageOrder(webhookDeliveries.createdAt, webhookDeliveries.id, page.order))
        .limit(page.limit + 1)
        .offset(pageOffset(page)),
      this.db.select({ n: count() }).from(webhookDeliveries).where(scope),
    ]);
    const attempts = rows.length
      ? await this.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.id))).orderBy(asc(webhookAttempts.attempt))
      : [];
    return {
      rows: rows.map((r) => ({ ...storedDelivery(r), attemptLog: attempts.filter((a) => a.deliveryId === r.id) })),
      total: Number(totals[0]?.n ?? 0),
    };
  }

  /** Deliveries still pending whose next attempt is due by `at` (how much work is waiting). */
  async pendingDue(at: Date): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(webhookDeliveries).where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, at)));
    return Number(row?.n ?? 0);
  }
}
