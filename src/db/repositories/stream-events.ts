/**
 * @module db/repositories/stream-events
 * The realtime stream's durable log (db/schema/stream-events): events are
 * appended in the transaction that stores what they announce (`appendIn`), or
 * in one of their own (`append`), at dense positions taken from the
 * `stream_head` row. That row's lock is held to the commit, so positions are
 * committed in order across every instance: once position p is visible, so is
 * every position below it. The lock is taken last in a transaction (after the
 * ledger's and the alert dispatcher's advisory locks), so it is held only
 * for the commit and no two writers wait on each other in a circle.
 *
 * Rows come back with their payloads as stored (unknown JSON): the event bus
 * checks each against its channel's schema before delivering it.
 *
 * @example
 * const [stored] = await events.append([{ channel: 'backtest.progress', payload }]);
 * stored.position; // => 1 on a fresh database
 * await events.after(0, 100); // => [stored]
 */
import { and, asc, eq, gt, gte, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { streamEvents, streamHead } from '../schema';

/** An event to append: its channel and payload. */
export interface StreamEventInput {
  channel: string;
  payload: unknown;
}

/** An event as the log holds it: with its position and when it was recorded. */
export type StoredStreamEvent<E extends StreamEventInput = StreamEventInput> = E & { position: number; recordedAt: Date };

type Tx = Pick<Db, 'insert'>;

/** The one row of `stream_head`. */
const HEAD_ID = 1;
/** Rows per INSERT: 3 bind parameters a row stay well under PostgreSQL's 65,535. */
const ROWS_A_STATEMENT = 1000;

export class StreamEventsRepository {
  constructor(private readonly db: Db) {}

  /** Appends in a transaction of its own; resolves to the events at their positions. */
  append<E extends StreamEventInput>(events: readonly E[]): Promise<StoredStreamEvent<E>[]> {
    if (events.length === 0) return Promise.resolve([]);
    return this.db.transaction((tx) => this.appendIn(tx, events));
  }

  /**
   * Appends inside the caller's transaction (atomic with what the events
   * announce); call it last in the transaction, it holds the head row's lock to
   * the commit. Resolves to the events at their positions, in the given order.
   */
  async appendIn<E extends StreamEventInput>(tx: Tx, events: readonly E[]): Promise<StoredStreamEvent<E>[]> {
    if (events.length === 0) return [];
    const [head] = await tx
      .insert(streamHead)
      .values({ id: HEAD_ID, position: events.length })
      .onConflictDoUpdate({ target: streamHead.id, set: { position: sql`${streamHead.position} + ${events.length}` } })
      .returning({ position: streamHead.position });
    const first = head!.position - events.length + 1;
    const recordedAt = new Date();
    const stored = events.map((event, k) => ({ ...event, position: first + k, recordedAt }));
    for (let i = 0; i < stored.length; i += ROWS_A_STATEMENT) {
      await tx.insert(streamEvents).values(stored.slice(i, i + ROWS_A_STATEMENT).map(({ position, channel, payload }) => ({ position, channel, payload, recordedAt })));
    }
    return stored;
  }

  /** The last position handed out (0 before the first event). */
  async head(): Promise<number> {
    const [row] = await this.db.select({ position: streamHead.position }).from(streamHead).where(eq(streamHead.id, HEAD_ID));
    return row?.position ?? 0;
  }

  /** Up to `limit` events after `position`, in order (fewer than asked: the log has no more, or pruned a start of them). */
  after(position: number, limit: number): Promise<StoredStreamEvent[]> {
    return this.db.select().from(streamEvents).where(gt(streamEvents.position, position)).orderBy(asc(streamEvents.position)).limit(limit);
  }

  /**
   * The head, and the latest events up to it: at most `limit`, none recorded
   * before `since`, oldest first (where a subscriber's replay can start).
   */
  async latest(limit: number, since: Date): Promise<{ head: number; events: StoredStreamEvent[] }> {
    const head = await this.head();
    if (limit <= 0 || head === 0) return { head, events: [] };
    const events = await this.db
      .select()
      .from(streamEvents)
      .where(and(gt(streamEvents.position, head - limit), lte(streamEvents.position, head), gte(streamEvents.recordedAt, since)))
      .orderBy(asc(streamEvents.position));
    return { head, events };
  }

  /** Deletes the events at or below `position` recorded before `before` (instances pruning at once delete nothing twice). */
  async prune(position: number, before: Date): Promise<void> {
    await this.db.delete(streamEvents).where(and(lte(streamEvents.position, position), lt(streamEvents.recordedAt, before)));
  }
}
