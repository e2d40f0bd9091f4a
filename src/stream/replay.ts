/**
 * @module stream/replay
 * The bounded replay buffer: the latest bus events with their encoded frames,
 * at most `capacity` of them and none older than `maxAgeMs`, in id order. It
 * knows its `floor`: every event after the floor id is held, so a client whose
 * last id is at or after the floor can be replayed without a gap, and one
 * before it must be told `reset`. A ring of slots addressed by an absolute
 * index that only grows, so a replaying client's cursor stays valid while new
 * events arrive (and is known to be lost once the ring has overwritten it).
 */
import type { Channel } from './bus';
import { compareEventIds, type EventId } from './event-id';

export interface ReplayEntry {
  id: EventId;
  channel: Channel;
  /** The frame everyone receives; null when only the owner receives this event. */
  frame: Uint8Array | null;
  /** For an event of a user's own rule: that user, and the frame only they receive. */
  owner?: { userId: string; frame: Uint8Array };
  /** When this instance received it (epoch ms): the age bound counts from here. */
  receivedAt: number;
}

export class ReplayBuffer {
  private readonly slots: (ReplayEntry | undefined)[];
  /** Absolute index of the oldest held entry. */
  private first = 0;
  /** Absolute index one past the newest. */
  private next = 0;
  private floorId: EventId;

  constructor(
    private readonly capacity: number,
    private readonly maxAgeMs: number,
    /** Every event after this id is held (at the start: the bus position the buffer starts from). */
    floor: EventId,
  ) {
    if (capacity < 1) throw new RangeError('a replay buffer holds at least one event');
    this.slots = new Array(capacity);
    this.floorId = floor;
  }

  get floor(): EventId {
    return this.floorId;
  }

  /** Absolute index one past the newest entry (a cursor there is caught up). */
  get end(): number {
    return this.next;
  }

  get size(): number {
    return this.next - this.first;
  }

  /** Appends an event; whether the oldest had to go to make room. */
  push(entry: ReplayEntry): boolean {
    const full = this.size === this.capacity;
    if (full) this.evictOldest();
    this.slots[this.next % this.capacity] = entry;
    this.next++;
    return full;
  }

  /** Drops entries older than the age bound (the floor moves up past them); whether any went. */
  expire(now: number): boolean {
    const oldest = now - this.maxAgeMs;
    const before = this.first;
    while (this.size > 0 && this.slots[this.first % this.capacity]!.receivedAt < oldest) this.evictOldest();
    return this.first !== before;
  }

  /** Whether every event after `id` is held (no gap between the id and the buffer). */
  covers(id: EventId): boolean {
    return compareEventIds(id, this.floorId) >= 0;
  }

  /** The absolute index of the first entry after `id` (`end` when none is). */
  seek(id: EventId): number {
    let lo = this.first;
    let hi = this.next;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareEventIds(this.slots[mid % this.capacity]!.id, id) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The entry at an absolute index; undefined when it is past the end, or already overwritten (the reader fell behind). */
  at(index: number): ReplayEntry | undefined {
    return index >= this.first && index < this.next ? this.slots[index % this.capacity] : undefined;
  }

  /** Drops every entry: only what comes after `floor` is held from now on (events before it were lost: no replay reaches across). */
  restart(floor: EventId): void {
    while (this.size > 0) this.evictOldest();
    this.floorId = floor;
  }

  /** Whether a cursor points at an entry that has been dropped already. */
  lost(index: number): boolean {
    return index < this.first;
  }

  private evictOldest(): void {
    const slot = this.first % this.capacity;
    this.floorId = this.slots[slot]!.id;
    this.slots[slot] = undefined;
    this.first++;
  }
}
