/**
 * @module stream/event-id
 * The ids of the realtime stream. A bus event's id is `<ms>-<seq>`: the
 * publish time in epoch milliseconds and a sequence number within that
 * millisecond — exactly a Redis Streams entry id, and the in-process bus mints
 * the same shape by the same rule (time never runs backwards: a clock step back
 * keeps the last millisecond and counts on). An event the hub makes itself
 * (a quote, `hello`, `reset`) sits between two bus events: `<ms>-<seq>-<n>`,
 * the id of the bus event before it and a counter from 1. Ids compare as the
 * tuple (ms, seq, n), so every event a client receives has a larger id than the
 * one before, also across reconnects.
 *
 * @example
 * parseEventId('1732212345678-3');   // => { ms: 1732212345678, seq: 3, sub: 0 }
 * formatEventId({ ms: 1, seq: 0, sub: 2 }); // => '1-0-2'
 */

export interface EventId {
  ms: number;
  seq: number;
  /** 0 for a bus event; from 1 for the hub's own events after it. */
  sub: number;
}

const ID = /^(\d{1,16})-(\d{1,16})(?:-(\d{1,16}))?$/;

/** The id, or null when the text is not one (a `Last-Event-ID` from elsewhere). */
export function parseEventId(text: string): EventId | null {
  const m = ID.exec(text.trim());
  if (!m) return null;
  const id = { ms: Number(m[1]), seq: Number(m[2]), sub: m[3] === undefined ? 0 : Number(m[3]) };
  return Number.isSafeInteger(id.ms) && Number.isSafeInteger(id.seq) && Number.isSafeInteger(id.sub) ? id : null;
}

export function formatEventId(id: EventId): string {
  return id.sub === 0 ? `${id.ms}-${id.seq}` : `${id.ms}-${id.seq}-${id.sub}`;
}

/** Negative when `a` comes before `b`, 0 when equal, positive after. */
export function compareEventIds(a: EventId, b: EventId): number {
  return a.ms - b.ms || a.seq - b.seq || a.sub - b.sub;
}

/** The bus position of an id (the bus event it is at or after). */
export function busPosition(id: EventId): EventId {
  return id.sub === 0 ? id : { ms: id.ms, seq: id.seq, sub: 0 };
}

export const ZERO_ID: EventId = { ms: 0, seq: 0, sub: 0 };

/**
 * Mints bus ids the way Redis does for `XADD *`: the current millisecond, or
 * the last one when the clock has not moved on (or went back), with the
 * sequence counting up within it.
 */
export class EventIdClock {
  private last: EventId;

  constructor(private readonly now: () => number = Date.now) {
    this.last = { ms: now(), seq: 0, sub: 0 };
  }

  /** The last id minted (at start: the current millisecond, sequence 0 — before any event). */
  get current(): EventId {
    return this.last;
  }

  next(): EventId {
    const ms = this.now();
    this.last = ms > this.last.ms ? { ms, seq: 0, sub: 0 } : { ms: this.last.ms, seq: this.last.seq + 1, sub: 0 };
    return this.last;
  }
}
