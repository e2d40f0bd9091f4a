/**
 * @module stream/bus/sequencer
 * Puts the event log's positions back in order for one instance: each event
 * is delivered once, in position order, whichever way it came (announced,
 * carried by Redis, read from the log). Positions are dense, so a hole is
 * always seen: an event that arrives with one before it waits while the hole
 * is read from the log. Positions the log no longer holds, and events that do
 * not read as ours, are given up as a gap (the hub answers it with `reset`).
 * Waiting is bounded: past `MAX_WAITING` events held while the log cannot be
 * read, the hole is given up too.
 */
import type { Logger } from '../../log';
import type { BusEvent, BusGap } from './interface';

/** A position the log holds whose event does not read as one of ours: delivered as a gap. */
export interface Lost {
  position: number;
  lost: string;
}
export type Slot = BusEvent | Lost;

export interface SequencerDeps {
  /** Up to `limit` positions of the log after `position`, as slots, in order; throws while the log cannot be read. */
  read(position: number, limit: number): Promise<Slot[]>;
  deliver(event: BusEvent): void;
  gap(gap: BusGap): void;
  /** The log was read (null), or could not be (the error): health says so. */
  readResult(error: unknown): void;
  /** How long to wait before reading a hole again while the log cannot be read. */
  retryMs: number;
  logger: Logger;
}

/** Log rows read per query. */
export const READ_BATCH = 1000;
/** Events held ahead of a hole while the log cannot be read; past this the hole is given up. */
const MAX_WAITING = 10_000;

export class Sequencer {
  /** The last position delivered (-1 until started). */
  head = -1;
  /** Events ahead of `head + 1`, waiting for the hole before them. */
  private readonly waiting = new Map<number, Slot>();
  private filling = false;
  private closed = false;

  constructor(private readonly deps: SequencerDeps) {}

  /** Events waiting for a hole to be read. */
  get held(): number {
    return this.waiting.size;
  }

  /** Starts after `logHead`, or before the first event accepted meanwhile (so it is delivered too). */
  start(logHead: number): void {
    if (this.head >= 0) return;
    this.head = this.waiting.size > 0 ? Math.min(logHead, Math.min(...this.waiting.keys()) - 1) : logHead;
    for (const position of this.waiting.keys()) if (position <= this.head) this.waiting.delete(position);
    this.drain();
  }

  /** Holds each event past the head, then delivers what follows the head without a hole. */
  accept(slots: readonly Slot[]): void {
    for (const slot of slots) {
      if (slot.position === this.head + 1 && this.waiting.size === 0 && !('lost' in slot)) {
        // The common case (events in order, nothing held): delivered without the map.
        this.head = slot.position;
        this.deps.deliver(slot);
      } else if (slot.position > this.head && !this.waiting.has(slot.position)) this.waiting.set(slot.position, slot);
    }
    if (this.waiting.size > 0) this.drain();
  }

  /** Reads whatever the log holds after the head (a poll, a catch-up). */
  async readLog(): Promise<void> {
    for (;;) {
      const from = this.head;
      const slots = await this.read(from);
      if (slots === null) return;
      if (slots.length > 0 && slots[0]!.position !== from + 1 && this.head === from) this.skip(slots[0]!.position - 1);
      this.accept(slots);
      if (slots.length < READ_BATCH) return;
    }
  }

  close(): void {
    this.closed = true;
  }

  /** The log after `from`, or null when it cannot be read (said to `readResult` either way). */
  private async read(from: number): Promise<Slot[] | null> {
    try {
      const slots = await this.deps.read(from, READ_BATCH);
      this.deps.readResult(null);
      return slots;
    } catch (error) {
      this.deps.readResult(error);
      return null;
    }
  }

  private drain(): void {
    if (this.head < 0) return;
    let lostFrom = -1;
    for (let slot = this.waiting.get(this.head + 1); slot !== undefined; slot = this.waiting.get(this.head + 1)) {
      this.waiting.delete(slot.position);
      this.head = slot.position;
      if ('lost' in slot) {
        if (lostFrom < 0) lostFrom = slot.position;
        this.deps.logger.error('event bus: an event in the log does not read as one; subscribers are told reset', { position: slot.position, error: slot.lost });
        continue;
      }
      if (lostFrom >= 0) this.deps.gap({ lastDelivered: lostFrom - 1, resumeAfter: slot.position - 1 });
      lostFrom = -1;
      this.deps.deliver(slot);
    }
    if (lostFrom >= 0) this.deps.gap({ lastDelivered: lostFrom - 1, resumeAfter: this.head });
    if (this.waiting.size > 0) void this.fill();
  }

  /** Gives up the positions up to `to` (the log does not hold them): a gap, then delivery goes on after it. */
  private skip(to: number): void {
    const from = this.head;
    this.head = to;
    for (const position of this.waiting.keys()) if (position <= to) this.waiting.delete(position);
    this.deps.gap({ lastDelivered: from, resumeAfter: to });
    this.drain();
  }

  /** Reads the holes before the waiting events from the log, until none waits. */
  private async fill(): Promise<void> {
    if (this.filling) return;
    this.filling = true;
    try {
      while (!this.closed && this.waiting.size > 0) {
        const from = this.head;
        const slots = await this.read(from);
        if (slots === null) {
          if (this.waiting.size > MAX_WAITING) this.skip(Math.min(...this.waiting.keys()) - 1);
          else await Bun.sleep(this.deps.retryMs);
          continue;
        }
        if (this.head !== from || this.waiting.size === 0) continue; // delivered meanwhile
        const first = slots[0]?.position ?? Math.min(...this.waiting.keys());
        if (first !== from + 1) this.skip(first - 1); // pruned from the log: a gap
        this.accept(slots);
      }
    } finally {
      this.filling = false;
    }
  }
}
