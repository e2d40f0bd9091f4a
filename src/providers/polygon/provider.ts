/**
 * @module providers/polygon/provider
 * The `polygon` market-data provider (Polygon, now Massive): history and
 * snapshots over REST (providers/polygon/rest), and, when its live feed runs
 * (providers/polygon/feed), minute aggregates and trades over the stocks
 * WebSocket cluster.
 *
 * - daily: `range/1/day` since `HISTORY_START`; but a window of a few recent
 *   sessions (what a refresh after a session asks) is read from the daily
 *   market summaries instead, one request a session for the whole universe,
 *   kept per date (`DAILY_SUMMARIES_KEPT`) for the next symbols asked.
 * - 1h, 4h: `range/30/minute` over the last `INTRADAY_DAYS`, rolled up on the
 *   NYSE session (providers/live/bars says why not `range/1/hour`).
 *
 * The universe is the bundled instrument list (providers/universe).
 */
import type { Timeframe } from '../../domain/signal';
import { Lru } from '../../lru';
import { tradingDays } from '../calendar';
import { newYorkDate } from '../new-york-time';
import { dailySeries, sessionSeries, type VendorBar } from '../live/bars';
import { VendorProvider } from '../live/vendor-provider';
import { sliceSeries, type BarSeries, type BarsQuery, type Snapshot } from '../types';
import { createPolygonFeed, type PolygonFeedOptions } from './feed';
import { NAME } from './parse';
import { PolygonRest, type PolygonRestOptions } from './rest';

const DAY_MS = 86_400_000;
/** The first day of daily history asked for. */
export const HISTORY_START = Date.parse('2004-01-01T00:00:00Z');
/** Calendar days of 1h and 4h history: two years (the free plan's whole history). */
export const INTRADAY_DAYS = 730;
/** A daily window of at most this many sessions is read from the daily market summaries. */
export const SUMMARY_SESSIONS = 5;
/** Daily market summaries kept (a week of sessions and then some). */
export const DAILY_SUMMARIES_KEPT = 10;

export interface PolygonProviderOptions extends PolygonRestOptions {
  extendedHours?: boolean;
  clock?: () => number;
  /** The stream (`wss://socket.massive.com`, or `wss://delayed.massive.com`) and how the live feed runs; no live feed without it. */
  live?: Omit<PolygonFeedOptions, 'rest' | 'stream' | 'extendedHours'> & { streamUrl: string };
}

export class PolygonProvider extends VendorProvider {
  readonly name = NAME;
  readonly rest: PolygonRest;
  /** Daily market summaries of past sessions by date (a session in progress is never kept). */
  private readonly summaries = new Lru<string, Promise<Map<string, VendorBar>>>({ maxEntries: DAILY_SUMMARIES_KEPT });

  constructor(readonly options: PolygonProviderOptions) {
    super(options.clock);
    this.rest = new PolygonRest(options);
    if (options.live) {
      const { streamUrl, ...live } = options.live;
      this.live = createPolygonFeed({ ...live, extendedHours: options.extendedHours ?? false, rest: this.rest, stream: { apiKey: options.apiKey, streamUrl }, now: live.now ?? options.clock });
    }
  }

  async bars({ symbol, timeframe, from, to }: BarsQuery): Promise<BarSeries> {
    const now = this.clock();
    const until = Math.min(to ?? now, now);
    if (timeframe === 'daily') {
      // A day's bar is stamped 00:00 UTC of its date: the UTC dates of the bounds are the sessions' (never past today).
      const utcDate = (t: number) => new Date(t).toISOString().slice(0, 10);
      const last = [utcDate(until), newYorkDate(now)].sort()[0]!;
      const sessions = from === undefined || utcDate(from) > last ? [] : tradingDays(utcDate(from), last);
      if (from !== undefined && sessions.length <= SUMMARY_SESSIONS) return sliceSeries(await this.fromSummaries(symbol, sessions), from, until);
      const bars = await this.rest.aggregates(symbol, 1, 'day', from ?? HISTORY_START, until);
      return sliceSeries(dailySeries(symbol, bars, NAME), from, until);
    }
    const start = from ?? until - INTRADAY_DAYS * DAY_MS;
    const halfHours = await this.rest.aggregates(symbol, 30, 'minute', start, Math.min(until + 4 * 3_600_000, now));
    return sliceSeries(sessionSeries(symbol, timeframe as Exclude<Timeframe, 'daily'>, halfHours, NAME, this.options.extendedHours), from, until);
  }

  /** Every US stock's bar of a session (`YYYY-MM-DD`): one request, shared by every symbol asked after it. */
  dailySummary(date: string): Promise<Map<string, VendorBar>> {
    const held = this.summaries.get(date);
    if (held) return held;
    const asked = this.rest.groupedDaily(date);
    // A session that has not closed yet is asked again next time; a failure too.
    if (date < newYorkDate(this.clock())) {
      this.summaries.set(date, asked);
      asked.catch(() => this.summaries.delete(date));
    }
    return asked;
  }

  private async fromSummaries(symbol: string, sessions: readonly string[]): Promise<BarSeries> {
    const bars: VendorBar[] = [];
    for (const date of sessions) {
      const bar = (await this.dailySummary(date)).get(symbol);
      if (bar) bars.push(bar);
    }
    return dailySeries(symbol, bars, NAME);
  }

  protected restSnapshot(symbol: string): Promise<Snapshot> {
    return this.rest.snapshot(symbol, this.clock());
  }
}
