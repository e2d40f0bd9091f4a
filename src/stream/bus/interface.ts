/**
 * @module stream/bus/interface
 * The event bus that jobs publish to and the realtime hub reads from. Two
 * implementations: in-process (one instance, the default) and Redis Streams
 * (`REDIS_URL`: every instance reads every event once, in one order, under one
 * id). Payloads are DESIGN §4's SSE payloads; ids are stream/event-id's.
 */

import { AlertDispatchedBusEvent, BreakoutNewEvent, StateChangeEvent } from '../../domain/events';

/** Each channel's payload schema (domain/events); `BusEvents` is their static types. */
export const BUS_SCHEMAS = {
  'breakouts.new': BreakoutNewEvent,
  'breakouts.state_change': StateChangeEvent,
  /**
   * An alert sent out. `userId` names the owner of the rule that fired (absent
   * for the service's own alerts); only the owner's stream sees `ruleId` and
   * `rule` (stream/visibility).
   */
  'alerts.dispatched': AlertDispatchedBusEvent,
} as const;

export interface BusEvents {
  'breakouts.new': BreakoutNewEvent;
  'breakouts.state_change': StateChangeEvent;
  'alerts.dispatched': AlertDispatchedBusEvent;
}
export type Channel = keyof BusEvents;

/** Every channel, in the order the docs list them. */
export const CHANNELS = ['breakouts.new', 'breakouts.state_change', 'alerts.dispatched'] as const satisfies readonly Channel[];

export function isChannel(name: string): name is Channel {
  return (CHANNELS as readonly string[]).includes(name);
}

/** One event as the bus delivers it: its id (stream/event-id) with the channel and payload. */
export type BusEvent<C extends Channel = Channel> = { [K in C]: { id: string; channel: K; payload: BusEvents[K] } }[C];

/** Where delivery starts (see `EventBus.open`). */
export interface BusOpening {
  /** The id of the last event before live delivery starts; every event after it reaches the subscribers. */
  position: string;
  /** Up to the asked number of the latest events at or before `position`, oldest first. */
  history: BusEvent[];
}

export interface EventBus {
  readonly name: 'memory' | 'redis';
  /** Whether other instances publish into the same bus (then an id may be seen elsewhere first). */
  readonly shared: boolean;
  /**
   * Sends the event to every subscriber of every instance on this bus. It never
   * throws: the Redis bus queues while reconnecting and logs a failure.
   */
  publish<C extends Channel>(channel: C, payload: BusEvents[C]): void;
  /** Listens to one channel; events arrive in id order. Returns the unsubscribe function. */
  subscribe<C extends Channel>(channel: C, listener: (payload: BusEvents[C], event: BusEvent<C>) => void): () => void;
  /**
   * Starts live delivery (idempotent) and says from where, with the recent
   * history (`limit` events at most, none older than `maxAgeMs`) a replay
   * buffer starts from: nothing falls between the history and live delivery.
   */
  open(limit: number, maxAgeMs: number): Promise<BusOpening>;
  close(): Promise<void>;
}
