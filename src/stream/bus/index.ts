/**
 * @module stream/bus
 * Picks the event bus: Redis Streams when `REDIS_URL` is set (every instance
 * on that Redis shares events and ids), else in-process.
 */
import type { Logger } from '../../log';
import type { EventBus } from './interface';
import { InProcessBus } from './memory';
import { RedisEventBus } from './redis';

export { BUS_SCHEMAS, CHANNELS, isChannel, type BusEvent, type BusEvents, type BusOpening, type Channel, type EventBus } from './interface';
export { InProcessBus, RedisEventBus };

export function createEventBus(options: { redisUrl?: string; maxLength: number; log: Logger }): EventBus {
  return options.redisUrl ? new RedisEventBus({ url: options.redisUrl, maxLength: options.maxLength, log: options.log }) : new InProcessBus();
}
