/**
 * @module providers/live/relay
 * How the instance that holds the vendor connection (./cluster) hands its
 * bars, window closes, trades and stream status to the others, and how the
 * others tell it which symbols their clients watch: one Redis Pub/Sub channel
 * per vendor (`REDIS_KEY_PREFIX` + `live:<vendor>`).
 *
 * Pub/Sub rather than the event bus (stream/bus): a market-open minute is
 * thousands of trades, each worth something only for a second; the bus keeps
 * every event for clients' replay (a Redis Stream capped at
 * `SSE_REPLAY_SIZE`), so relaying market data through it would push the
 * breakouts and alerts clients resume from out of that history. Pub/Sub
 * delivers "at most once" to whoever is subscribed at that moment and keeps
 * nothing (redis.io, "Redis Pub/Sub": delivery semantics), which is what a
 * live quote needs. What it can lose is made good another way: each message
 * is numbered, so a follower sees a hole and asks the holder for it again
 * (`resend`), and the holder, which keeps each window's latest bar and every
 * window close for a while (./relay-history), sends them to it (`replay`).
 * Trades are not sent again (the next one replaces a lost one).
 *
 * While Redis is down the publisher drops rather than queues
 * (`enableOfflineQueue: false`: a backlog of stale quotes would be memory
 * spent on nothing), and the subscriber re-subscribes when it reconnects
 * (ioredis does so by itself).
 */
import Redis from 'ioredis';
import type { Logger } from '../../log';
import type { KeptMessage } from './relay-history';
import type { LiveBar, LiveStatus, LiveTrade, WindowClose } from './types';

/** What travels on the relay channel; `from` is the sending instance, `seq` its message number (the leader's). */
export type RelayMessage =
  | { k: 'bar'; from: string; seq: number; bar: LiveBar }
  | { k: 'close'; from: string; seq: number; close: WindowClose }
  | { k: 'trade'; from: string; seq: number; trade: LiveTrade }
  /** The leader's stream status, sent every heartbeat: followers report it as theirs. */
  | { k: 'status'; from: string; seq: number; status: LiveStatus; backfilling: boolean }
  /** A follower's watched symbols (all of them, every heartbeat and on change). */
  | { k: 'want'; from: string; symbols: string[] }
  /** A follower missed `to`'s messages numbered after `after` up to `through`: send them again. */
  | { k: 'resend'; from: string; to: string; after: number; through: number }
  /** The answer to a `resend`: what `from` still keeps of that range, oldest first (`complete` false when part of it aged out). */
  | { k: 'replay'; from: string; to: string; after: number; through: number; messages: KeptMessage[]; complete: boolean };

export interface LiveRelay {
  /** Sends to every instance on the channel (this one's subscriber included); never throws. */
  publish(message: RelayMessage): void;
  /** Every message on the channel, in the order each sender sent them. */
  subscribe(listener: (message: RelayMessage) => void): () => void;
  close(): Promise<void>;
}

const KINDS = new Set(['bar', 'close', 'trade', 'status', 'want', 'resend', 'replay']);

/** A channel message, or undefined when it is not one of ours (another version's, garbage). */
export function readRelayMessage(text: string): RelayMessage | undefined {
  try {
    const message = JSON.parse(text) as RelayMessage;
    return message && typeof message === 'object' && KINDS.has(message.k) && typeof message.from === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

export class RedisLiveRelay implements LiveRelay {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly listeners = new Set<(message: RelayMessage) => void>();
  private readonly channel: string;
  private subscribing: Promise<unknown> | undefined;
  /** Messages not sent (Redis unreachable): logged once an outage. */
  dropped = 0;
  private failing = false;

  constructor(private readonly options: { url: string; keyPrefix: string; vendor: string; log: Logger }) {
    this.channel = `${options.keyPrefix}live:${options.vendor}`;
    const common = { protocol: 2 as const, connectTimeout: 2000 };
    this.publisher = new Redis(options.url, { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    this.subscriber = new Redis(options.url, { ...common, maxRetriesPerRequest: null });
    this.publisher.on('error', () => {}); // counted in publish
    this.subscriber.on('error', () => {});
    this.publisher.on('ready', () => (this.failing = false));
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      const message = readRelayMessage(text);
      if (!message) return;
      for (const listener of this.listeners) {
        try {
          listener(message);
        } catch (error) {
          this.options.log.error('live relay: a listener failed', { error: String(error) });
        }
      }
    });
  }

  publish(message: RelayMessage): void {
    this.publisher.publish(this.channel, JSON.stringify(message)).catch((error: unknown) => this.drop(error));
  }

  subscribe(listener: (message: RelayMessage) => void): () => void {
    this.listeners.add(listener);
    this.subscribing ??= this.subscriber.subscribe(this.channel).catch((error: unknown) => {
      // ioredis subscribes again on each reconnection; the first attempt failing is only logged.
      this.options.log.warn('live relay: subscribing failed; ioredis retries', { error: String(error) });
    });
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  private drop(error: unknown): void {
    this.dropped++;
    if (this.failing) return;
    this.failing = true;
    this.options.log.warn('live relay: Redis unreachable; market data not relayed until it is back', { error: String(error) });
  }
}
