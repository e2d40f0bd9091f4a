/**
 * @module stream/quotes
 * Quotes for the symbols someone on this instance subscribes to, and for no
 * other. A local provider (the synthetic market, files) is asked at every
 * tick — the synthetic quote ticks once a second during its sessions; a remote
 * one is polled every `pollMs` (its rate limits and fees are per request).
 * Each tick hands the hub the symbols whose quote changed since the last tick
 * (price or volume), one quote each: coalesced, so a client gets at most the
 * latest quote of a symbol per tick however often the source moved.
 *
 * A source that pushes quotes (a vendor's live stream: `watch`) is not
 * polled: its quotes replace the latest as they come and `onPush` tells the
 * hub at once; only a symbol's first quote, before anything is pushed, is
 * asked with `snapshot`.
 */
import type { QuoteEvent } from '../domain/events';
import type { Logger } from '../log';
import type { Snapshot } from '../providers/types';

/** Where quotes come from (market-data's `MarketData` fits). */
export interface QuoteSource {
  /** Whether quotes cost a network request (then they are polled every `pollMs`). */
  readonly remote: boolean;
  snapshot(symbol: string): Promise<Snapshot>;
  /** Pushes the symbol's quotes to `onQuote` until the returned function is called (a live stream). */
  watch?(symbol: string, onQuote: (quote: QuoteEvent) => void): () => void;
}

interface SymbolQuotes {
  subscribers: number;
  latest?: QuoteEvent;
  /** The last quote handed to the hub. */
  sent?: QuoteEvent;
  polledAt: number;
  polling: boolean;
  /** Stops the pushed quotes (a watched source). */
  unwatch?: () => void;
}

export interface QuoteFeedOptions {
  source: QuoteSource;
  /** Tick: how often changed quotes go out (and a local source is asked). */
  intervalMs: number;
  /** How often a remote source is polled per symbol. */
  pollMs: number;
  log: Logger;
  now?: () => number;
  /** A pushed quote changed the symbol's latest (the hub sends it without waiting for a tick). */
  onPush?: (symbol: string) => void;
}

export class QuoteFeed {
  private readonly symbols = new Map<string, SymbolQuotes>();
  private readonly now: () => number;

  constructor(private readonly options: QuoteFeedOptions) {
    this.now = options.now ?? Date.now;
  }

  add(symbol: string): void {
    const held = this.symbols.get(symbol);
    if (held) held.subscribers++;
    else {
      const fresh: SymbolQuotes = { subscribers: 1, polledAt: -Infinity, polling: false };
      this.symbols.set(symbol, fresh);
      fresh.unwatch = this.options.source.watch?.(symbol, (quote) => {
        fresh.latest = quote;
        this.options.onPush?.(symbol);
      });
      this.poll(symbol);
    }
  }

  remove(symbol: string): void {
    const held = this.symbols.get(symbol);
    if (held && --held.subscribers <= 0) {
      held.unwatch?.();
      this.symbols.delete(symbol);
    }
  }

  /** The symbol's latest quote when it changed since it was last handed on (then it counts as handed on). */
  take(symbol: string): QuoteEvent | undefined {
    const held = this.symbols.get(symbol);
    const latest = held?.latest;
    if (!held || !latest || (held.sent && latest.price === held.sent.price && latest.volume === held.sent.volume)) return undefined;
    held.sent = latest;
    return latest;
  }

  /** The latest quote known for a symbol (a new subscriber's first one). */
  latest(symbol: string): QuoteEvent | undefined {
    return this.symbols.get(symbol)?.latest;
  }

  get watched(): number {
    return this.symbols.size;
  }

  /** One tick: the quotes that changed since the last tick, then the polls that are due. */
  tick(): Map<string, QuoteEvent> {
    const changed = new Map<string, QuoteEvent>();
    for (const [symbol, held] of this.symbols) {
      const { latest, sent } = held;
      if (latest && (!sent || latest.price !== sent.price || latest.volume !== sent.volume)) {
        held.sent = latest;
        changed.set(symbol, latest);
      }
    }
    for (const symbol of this.symbols.keys()) this.poll(symbol);
    return changed;
  }

  private poll(symbol: string): void {
    const held = this.symbols.get(symbol)!;
    const { source, pollMs, log } = this.options;
    const now = this.now();
    if (held.polling || (held.unwatch && held.latest) || (source.remote && now - held.polledAt < pollMs)) return;
    held.polling = true;
    held.polledAt = now;
    source.snapshot(symbol).then(
      (q) => {
        held.polling = false;
        // A quote pushed meanwhile is newer than the snapshot asked before it.
        if (!held.unwatch || !held.latest) held.latest = { symbol: q.symbol, price: q.price, volume: q.volume, ts: q.ts, source: q.source };
      },
      (error: unknown) => {
        held.polling = false;
        log.warn('quote feed: snapshot failed', { symbol, error: String(error) });
      },
    );
  }
}
