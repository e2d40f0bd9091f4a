/**
 * @module stream/bus/redis
 * Redis as the carrier of the event log between instances (`REDIS_URL`): one
 * Redis Stream (`<REDIS_KEY_PREFIX>stream`) whose entry ids are the log's
 * positions (`<position>-0`). A relay adds an event with `XADD … <position>-0`:
 * Redis refuses an id not above the stream's last one, so the same event
 * relayed by two instances (or twice by one) is added once, and the stream
 * stays in position order. Each instance reads it with one blocking `XREAD`
 * after another from the position it has delivered (a loop on the background
 * poller, src/poller: a failed read is tried again in half a second). Redis is never the only copy: an
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
import { Poller } from '../../poller';
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

/** How long one `XREAD` blocks: the next read starts from the bus's position, which the log may have moved on. */
const BLOCK_MS = 5000;
/** How soon a failed read is tried again (each time: the reader reconnects by itself, and the log carries events meanwhile). */
const RETRY_MS = 500;

export class RedisTransport {
  readonly name = 'redis';
  readonly key: string;
  private readonly writer: Redis;
  private readonly reader: Redis;
  private reads?: Poller;
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

  /** Starts the reads (once): each batch read after `position()` (asked before every read) goes to `deliver`, one read after another. */
  start(position: () => number, deliver: (entries: TransportEntry[]) => void): void {
    if (this.reads || this.closed) return;
    let last = 0;
    const reads = new Poller({
      what: 'event bus: reading Redis (events still reach this instance from the database)',
      log: this.options.log,
      everyMs: BLOCK_MS,
      baseMs: RETRY_MS,
      maxMs: RETRY_MS,
      pass: async () => {
        last = await this.read(last, position, deliver);
        void reads.kick(); // the next read at once
      },
    });
    this.reads = reads;
    reads.start();
  }

  /** Ends the reads: the one blocking now is cut short (the reader disconnects); the writer stays for the relay until `close`. */
  async stop(): Promise<void> {
    this.closed = true;
    this.reader.disconnect();
    await this.reads?.stop();
  }

  async close(): Promise<void> {
    await this.stop();
    this.writer.disconnect();
  }

  /** One blocking read after `last` (or the bus's position, when further); answers the last position read. */
  private async read(after: number, position: () => number, deliver: (entries: TransportEntry[]) => void): Promise<number> {
    let last = Math.max(after, position());
    let reply: unknown;
    try {
      reply = await this.reader.call('XREAD', 'COUNT', '1000', 'BLOCK', String(BLOCK_MS), 'STREAMS', this.key, `${last}-0`);
      this.readerFailing = false;
    } catch (error) {
      if (this.closed) return last;
      this.readerFailing = true;
      throw error;
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
    return last;
  }
}
