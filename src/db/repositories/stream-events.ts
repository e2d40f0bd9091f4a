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
import { Type } from '@sinclair/typebox';
import { storedAs } from '../../domain/check';
import type { Db } from '../client';
import { streamEvents, streamHead } from '../schema';
import { rowsOf } from './rows';

/** An event to append: its channel and payload. */
export interface StreamEventInput {
  channel: string;
  payload: unknown;
}

/** An event as the log holds it: with its position and when it was recorded. */
export type StoredStreamEvent<E extends StreamEventInput = StreamEventInput> = E & { position: number; recordedAt: Date };

type Tx = Pick<Db, 'execute'>;

/** The one row of `stream_head`. */
const HEAD_ID = 1;
/** A row the append's statement returns (bigint positions come back as text or number, by driver). */
const insertedRow = storedAs(Type.Object({ position: Type.Union([Type.Number(), Type.String({ pattern: '^[0-9]+$' })]) }, { additionalProperties: true }));

export class StreamEventsRepository {
  constructor(private readonly db: Db) {}

  /** Appends in one statement of its own (atomic by itself); resolves to the events at their positions. */
  append<E extends StreamEventInput>(events: readonly E[]): Promise<StoredStreamEvent<E>[]> {
    return this.appendIn(this.db, events);
  }

  /**
   * Appends inside the caller's transaction (atomic with what the events
   * announce); call it last in the transaction, it holds the head row's lock to
   * the commit. One statement (the head's upsert and the rows' insert in one
   * data-modifying WITH): a round trip costs milliseconds on the embedded
   * PGlite. Resolves to the events at their positions, in the given order.
   */
  async appendIn<E extends StreamEventInput>(tx: Tx, events: readonly E[]): Promise<StoredStreamEvent<E>[]> {
    if (events.length === 0) return [];
    const recordedAt = new Date();
    const n = events.length;
    const result = await tx.execute(sql`
      with head as (
        insert into ${streamHead} (id, position) values (${HEAD_ID}, ${n})
        on conflict (id) do update set position = ${streamHead}.position + ${n}
        returning position
      )
      insert into ${streamEvents} (position, channel, payload, recorded_at)
      select head.position - ${n} + e.ordinality, e.value->>'channel', e.value->'payload', ${recordedAt.toISOString()}::timestamptz
      from head, jsonb_array_elements(${JSON.stringify(events.map(({ channel, payload }) => ({ channel, payload })))}::jsonb) with ordinality as e(value, ordinality)
      returning position`);
    const first = Math.min(...rowsOf(result).map((row) => Number(insertedRow(row, 'stream event').position)));
    return events.map((event, k) => ({ ...event, position: first + k, recordedAt }));
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
