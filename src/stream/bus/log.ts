/**
 * @module stream/bus/log
 * The durable event log as the bus reads it: the database's
 * (db/repositories/stream-events, what services.ts gives the bus), or an
 * in-memory one with the same contract for tests that run a hub without a
 * database. Positions are dense and start at 1.
 */
import type { StoredStreamEvent, StreamEventInput } from '../../db/repositories/stream-events';

export type { StoredStreamEvent, StreamEventInput };

export interface EventLog {
  /** Appends in order; resolves to the events at their positions. */
  append<E extends StreamEventInput>(events: readonly E[]): Promise<StoredStreamEvent<E>[]>;
  /** The last position handed out (0 before the first event). */
  head(): Promise<number>;
  /** Up to `limit` events after `position`, in order. */
  after(position: number, limit: number): Promise<StoredStreamEvent[]>;
  /** The head, and the latest events up to it (at most `limit`, none recorded before `since`), oldest first. */
  latest(limit: number, since: Date): Promise<{ head: number; events: StoredStreamEvent[] }>;
  /** Deletes the events at or below `position` recorded before `before`. */
  prune(position: number, before: Date): Promise<void>;
}

/** The log in this process's memory (tests): every event kept until pruned. */
export class MemoryEventLog implements EventLog {
  private readonly events: StoredStreamEvent[] = [];
  private last = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async append<E extends StreamEventInput>(events: readonly E[]): Promise<StoredStreamEvent<E>[]> {
    const recordedAt = new Date(this.now());
    const stored = events.map((event) => ({ ...event, position: ++this.last, recordedAt }));
    this.events.push(...stored);
    return stored;
  }

  async head(): Promise<number> {
    return this.last;
  }

  async after(position: number, limit: number): Promise<StoredStreamEvent[]> {
    return this.events.filter((e) => e.position > position).slice(0, limit);
  }

  async latest(limit: number, since: Date): Promise<{ head: number; events: StoredStreamEvent[] }> {
    const events = limit <= 0 ? [] : this.events.filter((e) => e.position > this.last - limit && e.recordedAt >= since);
    return { head: this.last, events };
  }

  async prune(position: number, before: Date): Promise<void> {
    for (let i = this.events.length - 1; i >= 0; i--) {
      const e = this.events[i]!;
      if (e.position <= position && e.recordedAt < before) this.events.splice(i, 1);
    }
  }
}
