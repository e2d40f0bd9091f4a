/**
 * @module stream/entries
 * A bus event as the hub holds it (./replay `ReplayEntry`): its frame encoded
 * once for everyone, and, where its owner sees more than the others (an
 * alert's owner, a backtest's), the owner's frame beside it (./visibility
 * says what each sees). Each subscriber then gets `frameFor` its principal:
 * the owner's bytes, the shared ones, or nothing.
 */
import type { BusEvent } from './bus';
import type { EventId } from './event-id';
import { encodeFrame } from './frames';
import type { ReplayEntry } from './replay';
import { ownerAlert, ownerProgress, publicAlert, type StreamPrincipal } from './visibility';

export function replayEntry(event: BusEvent, id: EventId, receivedAt: number): ReplayEntry {
  const entry: ReplayEntry = { id, channel: event.channel, frame: null, receivedAt };
  if (event.channel === 'alerts.dispatched') {
    const { payload } = event;
    entry.frame = encodeFrame({ id: event.id, event: event.channel, data: publicAlert(payload) });
    if (payload.userId !== undefined) entry.owner = { userId: payload.userId, frame: encodeFrame({ id: event.id, event: event.channel, data: ownerAlert(payload) }) };
  } else if (event.channel === 'backtest.progress') {
    const { payload } = event;
    entry.owner = { userId: payload.userId, frame: encodeFrame({ id: event.id, event: event.channel, data: ownerProgress(payload) }) };
  } else entry.frame = encodeFrame({ id: event.id, event: event.channel, data: event.payload });
  return entry;
}

/** What a subscriber receives of the event: the owner's frame, the public one, or nothing (null: someone else's). */
export function frameFor(entry: ReplayEntry, principal: StreamPrincipal): Uint8Array | null {
  return entry.owner && principal?.userId === entry.owner.userId ? entry.owner.frame : entry.frame;
}
