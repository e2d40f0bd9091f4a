/**
 * @module providers/alpaca/feed
 * Alpaca's live feed: the stock stream (./stream) through the shared
 * reconnecting feed (providers/live/feed), its gaps filled with 1-minute bars
 * from the multi-symbol bars endpoint (`/v2/stocks/bars?timeframe=1Min`,
 * `BACKFILL_SYMBOLS` symbols a request, paged by `next_page_token`).
 *
 * Plan limits (alpacahq/alpaca-docs, realtime.md "Subscription Plans"): on
 * the free `iex` feed one connection and 30 symbols for trades and quotes
 * (minute bars unlimited); on `sip`, no symbol limit. `TRADE_LIMITS` holds
 * them; `LIVE_TRADE_SYMBOLS` overrides.
 */
import { VendorFeed, type FeedOptions } from '../live/feed';
import type { VendorBar } from '../live/bars';
import type { AlpacaFeed as Feed, AlpacaRest } from './rest';
import { AlpacaStream, type AlpacaStreamOptions } from './stream';

/** Symbols a backfill request names (the query string stays a few kilobytes). */
export const BACKFILL_SYMBOLS = 100;
/** Trade and quote symbols each feed's plan allows (null: no limit). */
export const TRADE_LIMITS: Record<Feed, number | null> = { iex: 30, sip: null };

export interface AlpacaFeedOptions extends Omit<FeedOptions, 'protocol' | 'backfill' | 'tradeLimit'> {
  rest: AlpacaRest;
  stream: AlpacaStreamOptions;
  /** Overrides the plan's trade limit (`TRADE_LIMITS`). */
  tradeLimit?: number | null;
}

export function createAlpacaFeed({ rest, stream, tradeLimit, ...options }: AlpacaFeedOptions): VendorFeed {
  return new VendorFeed({
    ...options,
    protocol: new AlpacaStream(stream),
    tradeLimit: tradeLimit === undefined ? TRADE_LIMITS[stream.feed] : tradeLimit,
    backfill: async (symbols, from, to) => {
      const out = new Map<string, VendorBar[]>();
      for (let i = 0; i < symbols.length; i += BACKFILL_SYMBOLS) {
        const chunk = await rest.barsMany(symbols.slice(i, i + BACKFILL_SYMBOLS), { timeframe: '1Min', start: from, end: to });
        for (const [symbol, bars] of chunk) out.set(symbol, bars);
      }
      return out;
    },
  });
}
