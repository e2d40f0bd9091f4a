/**
 * @module stream/bus/memory
 * The in-process bus (the default, one instance): listeners are called
 * synchronously in publish order, ids minted by `EventIdClock`. It keeps no
 * history, so after a restart every earlier id is older than anything the hub
 * holds and a reconnecting client is told `reset`.
 */
import { EventEmitter } from 'node:events';
import { EventIdClock, formatEventId } from '../event-id';
import type { BusEvent, BusEvents, BusOpening, Channel, EventBus } from './interface';

export class InProcessBus implements EventBus {
  readonly name = 'memory';
  readonly shared = false;
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly ids: EventIdClock;

  constructor(now: () => number = Date.now) {
    this.ids = new EventIdClock(now);
  }

  publish<C extends Channel>(channel: C, payload: BusEvents[C]): void {
    const event: BusEvent<C> = { id: formatEventId(this.ids.next()), channel, payload };
    this.emitter.emit(channel, payload, event);
  }

  subscribe<C extends Channel>(channel: C, listener: (payload: BusEvents[C], event: BusEvent<C>) => void): () => void {
    this.emitter.on(channel, listener);
    return () => this.emitter.off(channel, listener);
  }

  async open(): Promise<BusOpening> {
    return { position: formatEventId(this.ids.current), history: [] };
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
