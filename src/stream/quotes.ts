/**
 * @module stream/quotes
 * Quotes for the symbols someone on this instance subscribes to, and for no
 * other. A local provider (the synthetic market, files) is asked at every
 * tick — the synthetic quote ticks once a second during its sessions; a remote
 * one is polled every `pollMs` (its rate limits and fees are per request).
 * Each tick hands the hub the symbols whose quote changed since the last tick
 * (price or volume), one quote each: coalesced, so a client gets at most the
 * latest quote of a symbol per tick however often the source moved.
 */
import type { QuoteEvent } from '../domain/events';
import type { Logger } from '../log';
import type { Snapshot } from '../providers/types';

/** Where quotes come from (market-data's `MarketData` fits). */
export interface QuoteSource {
  /** Whether quotes cost a network request (then they are polled every `pollMs`). */
  readonly remote: boolean;
  snapshot(symbol: string): Promise<Snapshot>;
}

interface SymbolQuotes {
  subscribers: number;
  latest?: QuoteEvent;
  /** The last quote handed to the hub. */
  sent?: QuoteEvent;
  polledAt: number;
  polling: boolean;
}

export interface QuoteFeedOptions {
  source: QuoteSource;
  /** Tick: how often changed quotes go out (and a local source is asked). */
  intervalMs: number;
  /** How often a remote source is polled per symbol. */
  pollMs: number;
  log: Logger;
  now?: () => number;
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
      this.symbols.set(symbol, { subscribers: 1, polledAt: -Infinity, polling: false });
      this.poll(symbol);
    }
  }

  remove(symbol: string): void {
    const held = this.symbols.get(symbol);
    if (held && --held.subscribers <= 0) this.symbols.delete(symbol);
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
    if (held.polling || (source.remote && now - held.polledAt < pollMs)) return;
    held.polling = true;
    held.polledAt = now;
    source.snapshot(symbol).then(
      (q) => {
        held.polling = false;
        held.latest = { symbol: q.symbol, price: q.price, volume: q.volume, ts: q.ts, source: q.source };
      },
      (error: unknown) => {
        held.polling = false;
        log.warn('quote feed: snapshot failed', { symbol, error: String(error) });
      },
    );
  }
}
