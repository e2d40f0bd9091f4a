/**
 * @module stream/bus
 * The event bus over the durable log: Redis carries it between instances when
 * `REDIS_URL` is set (on the stream `<REDIS_KEY_PREFIX>stream`), else it
 * stays in this process. Either way the log (the database) is the source.
 */
import type { Logger } from '../../log';
import { DurableBus } from './durable';
import type { EventBus } from './interface';
import type { EventLog } from './log';
import { RedisTransport } from './redis';

export { BUS_SCHEMAS, CHANNELS, isChannel, type BusEvent, type BusEventInput, type BusEvents, type BusGap, type BusHealth, type BusOpening, type Channel, type EventBus, type LoggedBusEvent } from './interface';
export { MemoryEventLog, type EventLog } from './log';
export { DurableBus, RedisTransport };

export interface EventBusOptions {
  log: EventLog;
  redisUrl?: string;
  /** REDIS_KEY_PREFIX: the stream is `<prefix>stream`. */
  keyPrefix: string;
  /** What the log keeps at least, and what the Redis stream keeps (about `keep.events` entries). */
  keep: { events: number; ms: number };
  logger: Logger;
  pollMs?: { steady: number; outage: number };
}

/** The stream key of a deployment (REDIS_KEY_PREFIX). */
export const streamKey = (keyPrefix: string): string => `${keyPrefix}stream`;

export function createEventBus(options: EventBusOptions): EventBus {
  const { log, redisUrl, keyPrefix, keep, logger, pollMs } = options;
  const transport = redisUrl ? new RedisTransport({ url: redisUrl, key: streamKey(keyPrefix), maxLength: keep.events, log: logger }) : undefined;
  return new DurableBus({ log, transport, logger, keep, pollMs });
}
