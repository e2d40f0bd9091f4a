/**
 * @module db/repositories/alert-dispatches
 * Records that rules fired: a dispatch once per rule and signal (the unique
 * key), its in-app notification and its webhook delivery, in one transaction.
 * The transaction holds an advisory lock, so instances evaluating the same
 * run one after the other see each other's dispatches: a signal fires a rule
 * once, and the rule's per-symbol cooldown holds across instances too.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { alertDispatches, notifications, webhookDeliveries, type AlertDispatchRow, type NotificationRow, type WebhookDeliveryRow } from '../schema';
import type { StoredStreamEvent, StreamEventInput, StreamEventsRepository } from './stream-events';

/** Advisory-lock key of alert dispatching ("ALRT"). */
const DISPATCH_LOCK_KEY = 0x414c5254;

/** A rule that matched a signal, with what firing it writes. */
export interface DispatchCandidate {
  dispatch: AlertDispatchRow;
  /** No other dispatch of the rule for the symbol may be newer than `dispatch.createdAt` minus this. */
  cooldownMs: number;
  /** Written when the rule has the in-app channel. */
  notification?: NotificationRow;
  /** Written when the rule has a webhook; its payload is made from the dispatch. */
  delivery?: (dispatch: AlertDispatchRow) => WebhookDeliveryRow;
}

export interface Dispatched {
  dispatch: AlertDispatchRow;
  notification?: NotificationRow;
  delivery?: WebhookDeliveryRow;
}

export class AlertDispatchesRepository {
  constructor(
    private readonly db: Db,
    /** The realtime stream's log: the dispatches' events are appended in their transaction. */
    private readonly streamEvents: StreamEventsRepository,
  ) {}

  /**
   * Fires the candidates in order: each is written unless its rule already
   * fired for the signal, or fired for the symbol within its cooldown (an
   * earlier candidate of this call included), with the stream events
   * `announce` makes of those written. Answers the ones written and the events.
   */
  async record<E extends StreamEventInput>(candidates: readonly DispatchCandidate[], announce: (written: Dispatched[]) => E[]): Promise<{ written: Dispatched[]; events: StoredStreamEvent<E>[] }> {
    if (candidates.length === 0) return { written: [], events: [] };
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${DISPATCH_LOCK_KEY})`);
      const written: Dispatched[] = [];
      for (const c of candidates) {
        const d = c.dispatch;
        if (c.cooldownMs > 0) {
          const since = new Date(d.createdAt.getTime() - c.cooldownMs);
          const [recent] = await tx
            .select({ id: alertDispatches.id })
            .from(alertDispatches)
            .where(and(eq(alertDispatches.ruleId, d.ruleId), eq(alertDispatches.symbol, d.symbol), gt(alertDispatches.createdAt, since)))
            .limit(1);
          if (recent) continue;
        }
        const [inserted] = await tx.insert(alertDispatches).values(d).onConflictDoNothing({ target: [alertDispatches.ruleId, alertDispatches.signalId] }).returning();
        if (!inserted) continue;
        const out: Dispatched = { dispatch: inserted };
        if (c.notification) {
          await tx.insert(notifications).values(c.notification);
          out.notification = c.notification;
        }
        if (c.delivery) {
          out.delivery = c.delivery(inserted);
          await tx.insert(webhookDeliveries).values(out.delivery);
        }
        written.push(out);
      }
      // Last: the stream log's lock is held only for the commit.
      return { written, events: await this.streamEvents.appendIn(tx, announce(written)) };
    });
  }

  /** The dispatches of a rule for a signal (tests and the owner's checks). */
  bySignal(ruleId: string, signalId: string): Promise<AlertDispatchRow[]> {
    return this.db.select().from(alertDispatches).where(and(eq(alertDispatches.ruleId, ruleId), eq(alertDispatches.signalId, signalId)));
  }
}
