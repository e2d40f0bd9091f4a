/**
 * @module stream/bus/relay
 * Carries this instance's view of the event log into Redis, in position
 * order, from the last position known to be there (`relayed`): the events
 * this instance just wrote, and after an outage (or when a writer died before
 * relaying what it wrote) everything after `relayed`, read again from the
 * log. Every instance relays, and relaying is idempotent by id (the
 * transport's `XADD <position>-0`), so an event relayed by several instances
 * or twice is in the stream once. One pass at a time: passes queue, so the
 * stream is never sent a later position before an earlier one by this relay.
 */
import type { Logger } from '../../log';
import type { EventLog } from './log';
import type { CarriedEvent, RedisTransport } from './redis';

/** Events read from the log per pass. */
const BATCH = 500;

export class Relay {
  /** The highest position known to be in the stream (sent by this relay, or read from it). */
  relayed = 0;
  private queue: Promise<void> = Promise.resolve();
  private failing = false;

  constructor(
    private readonly deps: {
      transport: RedisTransport;
      log: Pick<EventLog, 'after'>;
      /** The last position delivered here: nothing beyond it is relayed. */
      head: () => number;
      logger: Logger;
    },
  ) {}

  /** The stream holds `position` (the read loop saw it). */
  seen(position: number): void {
    if (position > this.relayed) this.relayed = position;
  }

  /** Relays `events` (just written here) or, when they do not follow `relayed`, everything after it from the log; resolves when the pass ends. */
  push(events?: readonly CarriedEvent[]): Promise<void> {
    this.queue = this.queue.then(() => this.pass(events));
    return this.queue;
  }

  private async pass(events?: readonly CarriedEvent[]): Promise<void> {
    const { transport, log, head, logger } = this.deps;
    if (!transport.up) return; // retried when Redis is back (the bus calls push on `ready`)
    let batch = (events ?? []).filter((e) => e.position > this.relayed);
    try {
      for (;;) {
        if (batch[0]?.position !== this.relayed + 1) {
          const until = head();
          if (this.relayed >= until) return;
          const rows = await log.after(this.relayed, BATCH);
          batch = rows.filter((r) => r.position <= until).map((r) => ({ position: r.position, recordedAt: r.recordedAt.getTime(), channel: r.channel, payload: r.payload }));
          if (batch.length === 0) return;
        }
        await transport.send(batch);
        this.relayed = Math.max(this.relayed, batch.at(-1)!.position);
        batch = [];
        if (this.failing) logger.info('event bus: relaying to Redis again', { relayed: this.relayed });
        this.failing = false;
      }
    } catch (error) {
      if (!this.failing) logger.warn('event bus: relaying to Redis failed; retried from the event log when it answers', { relayed: this.relayed, error: String(error) });
      this.failing = true;
    }
  }
}
