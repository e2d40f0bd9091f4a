/**
 * @module stream/quote-routes
 * Which subscribers get which symbol's quotes. Each tick of the quote feed
 * becomes one `quote` event per changed symbol for that symbol's subscribers;
 * a subscriber that has just joined, has just caught up, or had no room at a
 * tick is owed the current quote and gets it at the next tick (a quote that
 * has not changed is not sent again otherwise).
 *
 * A pushed quote (a vendor's live stream) goes out within the same turn of
 * the event loop, not at the next tick: the symbols pushed while the loop
 * handles its I/O are sent together once it is done (`setImmediate`), each at
 * its latest, so a vendor frame of many trades is one quote per symbol.
 */
import type { QuoteEvent } from '../domain/events';
import { QuoteFeed, type QuoteFeedOptions } from './quotes';
import type { Subscriber } from './subscriber';

/** Sends one quote event to these subscribers (the hub). */
export type SendQuote = (quote: QuoteEvent, recipients: Iterable<Subscriber>) => void;

export class QuoteRoutes {
  private readonly bySymbol = new Map<string, Set<Subscriber>>();
  private readonly owed = new Map<string, Set<Subscriber>>();
  private readonly feed: QuoteFeed;
  /** Symbols a live stream pushed a quote of since the last flush, and the set the flush after it fills. */
  private pushed = new Set<string>();
  private spare = new Set<string>();

  constructor(
    feed: Omit<QuoteFeedOptions, 'onPush'>,
    private readonly send: SendQuote,
  ) {
    this.feed = new QuoteFeed({ ...feed, onPush: (symbol) => this.push(symbol) });
  }

  /** Symbols whose quotes are being watched. */
  get watched(): number {
    return this.feed.watched;
  }

  add(subscriber: Subscriber): void {
    for (const symbol of subscriber.symbols) {
      this.feed.add(symbol);
      setOf(this.bySymbol, symbol).add(subscriber);
      setOf(this.owed, symbol).add(subscriber);
    }
  }

  /** The subscriber gets the current quote of `symbol` (of all its symbols without one) at the next tick. */
  owe(subscriber: Subscriber, symbol?: string): void {
    for (const s of symbol === undefined ? subscriber.symbols : [symbol]) if (this.bySymbol.get(s)?.has(subscriber)) setOf(this.owed, s).add(subscriber);
  }

  remove(subscriber: Subscriber): void {
    for (const symbol of subscriber.symbols) {
      const subscribers = this.bySymbol.get(symbol);
      if (!subscribers?.delete(subscriber)) continue;
      this.owed.get(symbol)?.delete(subscriber);
      if (subscribers.size === 0) {
        this.bySymbol.delete(symbol);
        this.owed.delete(symbol);
      }
      this.feed.remove(symbol);
    }
  }

  private push(symbol: string): void {
    if (this.pushed.size === 0) setImmediate(this.flushPushed);
    this.pushed.add(symbol);
  }

  /** The pushed symbols' latest quotes to their subscribers (those owed one included). */
  private readonly flushPushed = (): void => {
    const symbols = this.pushed;
    this.pushed = this.spare;
    for (const symbol of symbols) {
      const quote = this.feed.take(symbol);
      if (!quote) continue;
      this.owed.get(symbol)?.clear();
      this.send(quote, this.bySymbol.get(symbol) ?? []);
    }
    symbols.clear();
    this.spare = symbols;
  };

  /** One tick: `send` once per quote event, with its recipients. */
  tick(): void {
    const { send } = this;
    const changed = this.feed.tick();
    for (const [symbol, waiting] of this.owed) {
      const quote = changed.get(symbol) ?? this.feed.latest(symbol);
      if (!quote || waiting.size === 0) continue;
      const owed = [...waiting];
      waiting.clear();
      send(quote, changed.has(symbol) ? this.bySymbol.get(symbol)! : owed);
      changed.delete(symbol);
    }
    for (const [symbol, quote] of changed) send(quote, this.bySymbol.get(symbol) ?? []);
  }
}

function setOf<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}
