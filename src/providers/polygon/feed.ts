/**
 * @module providers/polygon/feed
 * Polygon's (Massive's) live feed: the stocks cluster (./stream) through the
 * shared reconnecting feed (providers/live/feed), its gaps filled with
 * 1-minute aggregates (`range/1/minute`, one request a symbol: the vendor has
 * no multi-symbol minute endpoint, so a free plan's 5 requests a minute cannot
 * fill a universe; paid plans are unlimited).
 *
 * Plan limits: one connection per cluster on an individual plan (a second
 * closes the first with `max_connections`); no per-symbol limit is
 * documented (`AM.*` subscribes every ticker), so trades are not limited
 * unless `LIVE_TRADE_SYMBOLS` says so.
 */
import { VendorFeed, type FeedOptions } from '../live/feed';
import type { VendorBar } from '../live/bars';
import type { PolygonRest } from './rest';
import { PolygonStream, type PolygonStreamOptions } from './stream';

export interface PolygonFeedOptions extends Omit<FeedOptions, 'protocol' | 'backfill' | 'tradeLimit'> {
  rest: PolygonRest;
  stream: PolygonStreamOptions;
  tradeLimit?: number | null;
}

export function createPolygonFeed({ rest, stream, tradeLimit, ...options }: PolygonFeedOptions): VendorFeed {
  return new VendorFeed({
    ...options,
    protocol: new PolygonStream(stream),
    tradeLimit: tradeLimit ?? null,
    backfill: async (symbols, from, to) => {
      const out = new Map<string, VendorBar[]>();
      for (const symbol of symbols) out.set(symbol, await rest.aggregates(symbol, 1, 'minute', from, to));
      return out;
    },
  });
}
