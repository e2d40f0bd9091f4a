/**
 * @module providers/live/relay-history
 * What the vendor connection's holder relayed lately that a follower must not
 * miss — each window's latest bar and every window close, under their relay
 * numbers — so a follower that finds a hole in the numbering (Redis was down
 * while they were sent, or its own subscription dropped) can ask for them
 * again (./cluster: `resend`, answered with `replay`).
 *
 * Redis Pub/Sub keeps nothing: a message published while a subscriber is
 * disconnected is lost to it, and one published while Redis is down is never
 * sent at all (redis.io, "Redis Pub/Sub": at-most-once delivery). So the
 * holder keeps them itself, for `keepMs`. Trades are not kept: a missed quote
 * is worth nothing a second later, and the next trade replaces it.
 *
 * Bars are kept one per window (symbol, timeframe, start): a forming bar
 * carries its whole window so far, so the latest stands for every earlier
 * one, and a replay never hands a follower an older state of a window than
 * one it already has.
 */
import type { LiveBar, WindowClose } from './types';

/** A relayed message a follower may ask for again, with its relay number. */
export type KeptMessage = { k: 'bar'; seq: number; bar: LiveBar } | { k: 'close'; seq: number; close: WindowClose };

/** How long the holder keeps them: an outage of Redis longer than this loses what was sent before its last half hour. */
export const RELAY_KEEP_MS = 30 * 60_000;

export class RelayHistory {
  /** By window, in the order last updated (a key is deleted and set again on update), oldest first. */
  private readonly kept = new Map<string, { message: KeptMessage; at: number }>();
  /** The highest relay number aged out: a hole reaching at or below it cannot be filled whole. */
  private expired = 0;

  constructor(
    private readonly keepMs: number = RELAY_KEEP_MS,
    private readonly now: () => number = Date.now,
  ) {}

  keep(message: KeptMessage): void {
    const key = message.k === 'bar' ? `b|${message.bar.symbol}|${message.bar.timeframe}|${message.bar.bar.t}` : `c|${message.close.timeframe}|${message.close.start}|${message.seq}`;
    this.kept.delete(key); // superseded: the window's later bar stands for it
    const now = this.now();
    this.kept.set(key, { message, at: now });
    for (const [oldest, entry] of this.kept) {
      if (entry.at >= now - this.keepMs) break;
      this.kept.delete(oldest);
      this.expired = Math.max(this.expired, entry.message.seq);
    }
  }

  /**
   * What a follower missed between `after` and `through` (relay numbers,
   * `after` excluded), oldest first: the windows whose latest bar is in that
   * range and the closes in it. A bar superseded by one numbered after
   * `through` is not sent: that one reached the follower after the hole (or is
   * in a later hole, asked for in its turn). `complete` is false when part of
   * the range aged out.
   */
  between(after: number, through: number): { messages: KeptMessage[]; complete: boolean } {
    const messages: KeptMessage[] = [];
    for (const { message } of this.kept.values()) if (message.seq > after && message.seq <= through) messages.push(message);
    messages.sort((a, b) => a.seq - b.seq);
    return { messages, complete: after >= this.expired };
  }

  /** Forgets everything (a new term of the connection numbers its messages afresh). */
  clear(): void {
    this.kept.clear();
    this.expired = 0;
  }
}
