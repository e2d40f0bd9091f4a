/**
 * @module stream/event-id
 * The ids of the realtime stream. A bus event's id is its position in the
 * durable event log (db/schema/stream-events): a whole number, dense and in
 * commit order across every instance on one database, so the same event has
 * the same id on every instance and a client may resume anywhere. An event
 * the hub makes itself (a quote, `hello`, `reset`) sits between two bus
 * events: `<position>-<n>`, the position of the bus event before it and a
 * counter from 1. Ids compare as the pair (position, n), so every event a
 * client receives has a larger id than the one before, also across
 * reconnects and instances.
 *
 * @example
 * parseEventId('42');    // => { position: 42, sub: 0 }
 * parseEventId('42-3');  // => { position: 42, sub: 3 }
 * formatEventId({ position: 42, sub: 0 }); // => '42'
 */

export interface EventId {
  /** The bus event's position in the log (for a hub event, the bus event's before it). */
  position: number;
  /** 0 for a bus event; from 1 for the hub's own events after it. */
  sub: number;
}

const ID = /^(\d{1,16})(?:-(\d{1,16}))?$/;

/** The id, or null when the text is not one (a `Last-Event-ID` from elsewhere). */
export function parseEventId(text: string): EventId | null {
  const m = ID.exec(text.trim());
  if (!m) return null;
  const id = { position: Number(m[1]), sub: m[2] === undefined ? 0 : Number(m[2]) };
  return Number.isSafeInteger(id.position) && Number.isSafeInteger(id.sub) ? id : null;
}

export function formatEventId(id: EventId): string {
  return id.sub === 0 ? String(id.position) : `${id.position}-${id.sub}`;
}

/** Negative when `a` comes before `b`, 0 when equal, positive after. */
export function compareEventIds(a: EventId, b: EventId): number {
  return a.position - b.position || a.sub - b.sub;
}

/** The bus position of an id (the bus event it is at or after). */
export function busPosition(id: EventId): EventId {
  return id.sub === 0 ? id : { position: id.position, sub: 0 };
}

/** The id of the bus event at `position`. */
export const positionId = (position: number): EventId => ({ position, sub: 0 });

export const ZERO_ID: EventId = { position: 0, sub: 0 };
