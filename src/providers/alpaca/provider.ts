/**
 * @module providers/alpaca/provider
 * The `alpaca` market-data provider: history and snapshots over Alpaca Market
 * Data v2's REST API (providers/alpaca/rest), and, when its live feed runs
 * (providers/alpaca/feed), minute bars, trades and the bars they roll up into
 * over its WebSocket stream.
 *
 * - daily: `timeframe=1Day` since `HISTORY_START` (Alpaca's history begins in
 *   2016), stamped 00:00 UTC of the session date.
 * - 1h, 4h: `timeframe=30Min` over the last `INTRADAY_DAYS`, rolled up on the
 *   NYSE session (providers/live/bars says why not `1Hour`).
 * - Symbols are Alpaca's own (`BRK.B` with a dot, as ours).
 *
 * The universe is the bundled instrument list (providers/universe).
 */
import type { Timeframe } from '../../domain/signal';
import { dailySeries, sessionSeries } from '../live/bars';
import { VendorProvider } from '../live/vendor-provider';
import { sliceSeries, type BarSeries, type BarsQuery, type Snapshot } from '../types';
import { createAlpacaFeed, type AlpacaFeedOptions } from './feed';
import { NAME } from './parse';
import { AlpacaRest, type AlpacaRestOptions } from './rest';

const DAY_MS = 86_400_000;
/** The first day of daily history asked for (Alpaca's stock history starts in 2016). */
export const HISTORY_START = Date.parse('2016-01-01T00:00:00Z');
/** Calendar days of 1h and 4h history: two years, as Yahoo keeps of its hourly bars. */
export const INTRADAY_DAYS = 730;

export interface AlpacaProviderOptions extends AlpacaRestOptions {
  /** Take pre-market and after-hours bars into the 1h/4h/daily bars rolled up from minutes. */
  extendedHours?: boolean;
  /** The clock (tests pin it). */
  clock?: () => number;
  /** The stream (`wss://stream.data.alpaca.markets`) and how the live feed runs; no live feed without it. */
  live?: Omit<AlpacaFeedOptions, 'rest' | 'stream' | 'extendedHours'> & { streamUrl: string };
}

export class AlpacaProvider extends VendorProvider {
  readonly name = NAME;
  readonly rest: AlpacaRest;

  constructor(readonly options: AlpacaProviderOptions) {
    super(options.clock);
    this.rest = new AlpacaRest(options);
    if (options.live) {
      const { streamUrl, ...live } = options.live;
      const { keyId, secretKey, feed, extendedHours = false } = options;
      this.live = createAlpacaFeed({ ...live, extendedHours, rest: this.rest, stream: { keyId, secretKey, feed, streamUrl }, now: live.now ?? options.clock });
    }
  }

  async bars({ symbol, timeframe, from, to }: BarsQuery): Promise<BarSeries> {
    const now = this.clock();
    const until = Math.min(to ?? now, now);
    if (timeframe === 'daily') {
      // A day is stamped 00:00 UTC but Alpaca's stamp is its New York midnight, hours later: ask to the day's end.
      const bars = await this.rest.bars(symbol, { timeframe: '1Day', start: from ?? HISTORY_START, end: Math.min(until + DAY_MS, now) });
      return sliceSeries(dailySeries(symbol, bars, NAME), from, until);
    }
    const start = from ?? until - INTRADAY_DAYS * DAY_MS;
    const halfHours = await this.rest.bars(symbol, { timeframe: '30Min', start, end: Math.min(until + 4 * 3_600_000, now) });
    return sliceSeries(sessionSeries(symbol, timeframe as Exclude<Timeframe, 'daily'>, halfHours, NAME, this.options.extendedHours), from, until);
  }

  protected restSnapshot(symbol: string): Promise<Snapshot> {
    return this.rest.snapshot(symbol, this.clock());
  }
}
