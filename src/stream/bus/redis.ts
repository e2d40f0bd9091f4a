/**
 * @module stream/bus/redis
 * The bus shared by every instance on one Redis (`REDIS_URL`), over a Redis
 * Stream: `publish` is one `XADD … MAXLEN ~ n *`, and each instance reads the
 * stream with one blocking `XREAD` loop from the last id it saw. So every
 * instance sees every event exactly once, in the stream's order, under the
 * stream's own id (`<ms>-<seq>`, stream/event-id) — a client may resume on any
 * instance with the id another one gave it. A dropped Redis connection loses
 * nothing: the loop reads on from its last id once the client reconnects
 * (ioredis queues `XADD`s meanwhile), as long as the stream still holds it.
 *
 * Redis Streams: https://redis.io/docs/latest/develop/data-types/streams/
 */
import Redis from 'ioredis';
import { storedAs } from '../../domain/check';
import type { Logger } from '../../log';
import { parseEventId } from '../event-id';
import { BUS_SCHEMAS, isChannel, type BusEvent, type BusEvents, type BusOpening, type Channel, type EventBus } from './interface';

export interface RedisBusOptions {
  url: string;
  /** The stream's key (default `breakline:events`); instances that share it share events. */
  key?: string;
  /** Entries the stream keeps (approximately, `MAXLEN ~`): the longest replay any instance can start from. */
  maxLength: number;
  log: Logger;
}

type Entry = [id: string, fields: string[]];
type Listener = (payload: unknown, event: BusEvent) => void;

/** Reads an `XREAD`/`XRANGE` reply: entries `[id, [field, value, …]]`. */
function entriesOf(reply: unknown): Entry[] {
  if (!Array.isArray(reply)) return [];
  return reply.filter((e): e is Entry => Array.isArray(e) && typeof e[0] === 'string' && Array.isArray(e[1]));
}

type Checker<C extends Channel> = (value: unknown, what: string) => BusEvents[C];
const CHECKED: { [C in Channel]: Checker<C> } = {
  'breakouts.new': storedAs(BUS_SCHEMAS['breakouts.new']),
  'breakouts.state_change': storedAs(BUS_SCHEMAS['breakouts.state_change']),
  'alerts.dispatched': storedAs(BUS_SCHEMAS['alerts.dispatched']),
};

/** The checked event of a stream entry; throws (StoredDataError, SyntaxError) when it is not one of ours. */
function eventOf([id, fields]: Entry): BusEvent {
  const channel = fields[fields.indexOf('channel') + 1] ?? '';
  const text = fields[fields.indexOf('payload') + 1] ?? '';
  if (!isChannel(channel)) throw new Error(`stream entry ${id}: unknown channel '${channel}'`);
  const payload: unknown = JSON.parse(text);
  return eventFor(id, channel, payload);
}

/** The event with its payload checked against its channel's schema (a generic the compiler can follow). */
function eventFor<C extends Channel>(id: string, channel: C, payload: unknown): BusEvent<C> {
  const check: Checker<C> = CHECKED[channel];
  return { id, channel, payload: check(payload, `stream entry ${id} (${channel})`) };
}

export class RedisEventBus implements EventBus {
  readonly name = 'redis';
  readonly shared = true;
  readonly key: string;
  private readonly writer: Redis;
  private readonly reader: Redis;
  private readonly listeners = new Map<Channel, Set<Listener>>();
  private opening?: Promise<string>;
  private closed = false;

  constructor(private readonly options: RedisBusOptions) {
    this.key = options.key ?? 'breakline:events';
    const common = { lazyConnect: true, protocol: 2 as const, connectTimeout: 2000 };
    this.writer = new Redis(options.url, { ...common, maxRetriesPerRequest: 3 });
    // The reader blocks in XREAD; it retries forever (the loop below re-reads from its last id).
    this.reader = new Redis(options.url, { ...common, maxRetriesPerRequest: null });
    this.writer.on('error', () => {}); // surfaced by the failing command, logged in publish
    this.reader.on('error', () => {});
  }

  publish<C extends Channel>(channel: C, payload: BusEvents[C]): void {
    this.writer
      .xadd(this.key, 'MAXLEN', '~', String(this.options.maxLength), '*', 'channel', channel, 'payload', JSON.stringify(payload))
      .catch((error: unknown) => this.options.log.error('event bus: publish failed; the event is lost', { channel, error: String(error) }));
  }

  subscribe<C extends Channel>(channel: C, listener: (payload: BusEvents[C], event: BusEvent<C>) => void): () => void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    const untyped = listener as Listener;
    set.add(untyped);
    void this.start().catch((error: unknown) => this.options.log.error('event bus: cannot start reading', { error: String(error) }));
    return () => set.delete(untyped);
  }

  async open(limit: number, maxAgeMs: number): Promise<BusOpening> {
    const position = await this.start();
    if (limit <= 0 || position === '0-0') return { position, history: [] };
    // On the writer: the reader connection is blocked in XREAD.
    const reply = await this.writer.call('XREVRANGE', this.key, position, '-', 'COUNT', String(limit));
    const oldest = Date.now() - maxAgeMs;
    const history = entriesOf(reply)
      .reverse()
      .filter(([id]) => (parseEventId(id)?.ms ?? 0) >= oldest)
      .flatMap((entry) => this.read(entry));
    return { position, history };
  }

  /** Deletes the stream (tests that give each case a key of its own). */
  async drop(): Promise<void> {
    await this.writer.del(this.key);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.reader.disconnect();
    this.writer.disconnect();
  }

  /** Finds the stream's last id once and starts the read loop after it; resolves to that id. */
  private start(): Promise<string> {
    if (!this.opening) {
      this.opening = (async () => {
        const last = entriesOf(await this.writer.call('XREVRANGE', this.key, '+', '-', 'COUNT', '1'))[0]?.[0] ?? '0-0';
        void this.readFrom(last);
        return last;
      })().catch((error: unknown) => {
        this.opening = undefined; // Redis was unreachable: asked again next time
        throw error;
      });
    }
    return this.opening;
  }

  private async readFrom(after: string): Promise<void> {
    let last = after;
    while (!this.closed) {
      let reply: unknown;
      try {
        reply = await this.reader.call('XREAD', 'COUNT', '1000', 'BLOCK', '0', 'STREAMS', this.key, last);
      } catch (error) {
        if (this.closed) return;
        this.options.log.warn('event bus: read failed; retrying', { error: String(error) });
        await Bun.sleep(500);
        continue;
      }
      const streams = Array.isArray(reply) ? reply : [];
      for (const stream of streams) {
        if (!Array.isArray(stream)) continue;
        for (const entry of entriesOf(stream[1])) {
          last = entry[0];
          for (const event of this.read(entry)) this.dispatch(event);
        }
      }
    }
  }

  /** The entry's event, or none (logged) when it is not a well-formed event of ours. */
  private read(entry: Entry): BusEvent[] {
    try {
      return [eventOf(entry)];
    } catch (error) {
      this.options.log.error('event bus: skipped a malformed stream entry', { id: entry[0], error: String(error) });
      return [];
    }
  }

  private dispatch(event: BusEvent): void {
    const set = this.listeners.get(event.channel);
    if (!set) return;
    for (const listener of set) {
      try {
        listener(event.payload, event);
      } catch (error) {
        this.options.log.error('event bus: listener failed', { channel: event.channel, id: event.id, error: String(error) });
      }
    }
  }
}

