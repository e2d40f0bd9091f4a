/**
 * @module stream/bus/redis
 * Redis as the carrier of the event log between instances (`REDIS_URL`): one
 * Redis Stream (`<REDIS_KEY_PREFIX>stream`) whose entry ids are the log's
 * positions (`<position>-0`). A relay adds an event with `XADD … <position>-0`:
 * Redis refuses an id not above the stream's last one, so the same event
 * relayed by two instances (or twice by one) is added once, and the stream
 * stays in position order. Each instance reads it with one blocking `XREAD`
 * loop from the position it has delivered. Redis is never the only copy: an
 * event it lost (a restart without persistence, an outage while relaying) is
 * read from the log by the bus (stream/bus/durable).
 *
 * The writer fails at once while the connection is down (no offline queue):
 * the relay retries from the log when Redis is back (`onReady`).
 *
 * Redis Streams: https://redis.io/docs/latest/develop/data-types/streams/
 * (XADD: "the ID specified … must be greater than the last ID in the stream")
 */
import Redis from 'ioredis';
import type { Logger } from '../../log';

export interface RedisTransportOptions {
  url: string;
  /** The stream's key (`<REDIS_KEY_PREFIX>stream`); deployments with their own prefix share nothing. */
  key: string;
  /** Entries the stream keeps (approximately, `MAXLEN ~`): readers that fall further behind read the log. */
  maxLength: number;
  log: Logger;
}

/** An event as the transport carries it: its position and the event as the log holds it. */
export interface CarriedEvent {
  position: number;
  recordedAt: number;
  channel: string;
  payload: unknown;
}

/** A stream entry as read: its position, and the event's fields as sent (checked by the bus). */
export interface TransportEntry {
  position: number;
  recordedAt: number;
  channel: string;
  /** The payload's JSON text. */
  payload: string;
}

type Entry = [id: string, fields: string[]];

/** Reads an `XREAD`/`XRANGE` reply: entries `[id, [field, value, …]]`. */
function entriesOf(reply: unknown): Entry[] {
  if (!Array.isArray(reply)) return [];
  return reply.filter((e): e is Entry => Array.isArray(e) && typeof e[0] === 'string' && Array.isArray(e[1]));
}

/** The position of an entry id `<position>-<seq>`. */
const positionOf = (id: string): number => Number(id.slice(0, id.indexOf('-')));

const field = (fields: string[], name: string): string => fields[fields.indexOf(name) + 1] ?? '';

/** Redis's refusal of an id not above the stream's last: the event is there already. */
const ALREADY_THERE = /equal or smaller than the target stream top item/;

export class RedisTransport {
  readonly name = 'redis';
  readonly key: string;
  private readonly writer: Redis;
  private readonly reader: Redis;
  private reading = false;
  private closed = false;
  private readerFailing = false;

  constructor(private readonly options: RedisTransportOptions) {
    this.key = options.key;
    const common = { lazyConnect: true, protocol: 2 as const, connectTimeout: 2000 };
    this.writer = new Redis(options.url, { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    // The reader blocks in XREAD; it retries forever (the loop below re-reads from the bus's position).
    this.reader = new Redis(options.url, { ...common, maxRetriesPerRequest: null });
    this.writer.on('error', () => {}); // surfaced by the failing commands and `up`
    this.reader.on('error', () => {});
    this.writer.connect().catch(() => {}); // ioredis keeps retrying; `ready` says when it is back
  }

  /** Whether Redis carries events now. */
  get up(): boolean {
    return this.writer.status === 'ready' && !this.readerFailing;
  }

  /** Calls `listener` each time the connection is (re)established. */
  onReady(listener: () => void): void {
    this.writer.on('ready', listener);
  }

  /** The stream's last position (0 when empty or absent); throws while Redis cannot be reached. */
  async top(): Promise<number> {
    const last = entriesOf(await this.writer.call('XREVRANGE', this.key, '+', '-', 'COUNT', '1'))[0];
    return last ? positionOf(last[0]) : 0;
  }

  /** Deletes the stream (it holds positions this database never wrote: see the bus's check on connect). */
  async drop(): Promise<void> {
    await this.writer.del(this.key);
  }

  /** Adds the events in order; an event already there counts as added. Throws when Redis cannot take them. */
  async send(events: readonly CarriedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const pipeline = this.writer.pipeline();
    for (const e of events) {
      pipeline.xadd(this.key, 'MAXLEN', '~', String(this.options.maxLength), `${e.position}-0`, 'channel', e.channel, 'payload', JSON.stringify(e.payload), 'at', String(e.recordedAt));
    }
    const replies = (await pipeline.exec()) ?? [];
    for (const [error] of replies) if (error && !ALREADY_THERE.test(error.message)) throw error;
  }

  /** Starts the read loop (once): each batch read after `position()` (asked before every read) goes to `deliver`. */
  start(position: () => number, deliver: (entries: TransportEntry[]) => void): void {
    if (this.reading) return;
    this.reading = true;
    void this.readLoop(position, deliver);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.reader.disconnect();
    this.writer.disconnect();
  }

  private async readLoop(position: () => number, deliver: (entries: TransportEntry[]) => void): Promise<void> {
    let last = 0;
    while (!this.closed) {
      last = Math.max(last, position());
      let reply: unknown;
      try {
        // A bounded block: the next read starts from the bus's position, which the log may have moved on.
        reply = await this.reader.call('XREAD', 'COUNT', '1000', 'BLOCK', '5000', 'STREAMS', this.key, `${last}-0`);
        this.readerFailing = false;
      } catch (error) {
        if (this.closed) return;
        if (!this.readerFailing) this.options.log.warn('event bus: reading Redis failed; retrying (events still reach this instance from the database)', { error: String(error) });
        this.readerFailing = true;
        await Bun.sleep(500);
        continue;
      }
      const entries: TransportEntry[] = [];
      for (const stream of Array.isArray(reply) ? reply : []) {
        if (!Array.isArray(stream)) continue;
        for (const [id, fields] of entriesOf(stream[1])) {
          const at = positionOf(id);
          if (!Number.isSafeInteger(at) || at <= last) continue;
          last = at;
          entries.push({ position: at, recordedAt: Number(field(fields, 'at')), channel: field(fields, 'channel'), payload: field(fields, 'payload') });
        }
      }
      if (entries.length > 0) deliver(entries);
    }
  }
}
