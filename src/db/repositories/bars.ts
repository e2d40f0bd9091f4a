/**
 * @module db/repositories/bars
 * Reads and writes cached provider bars and the fetch bookkeeping beside them.
 * Bars arrive and leave as columnar `BarSeries`.
 */
import { newOhlcv, OHLCV_COLUMNS } from '../../kernels/ohlcv';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { BarSeries } from '../../providers/types';
import type { Timeframe } from '../../domain/signal';
import type { Db } from '../client';
import { bars, providerCache, type ProviderCacheRow } from '../schema';

/** Rows per INSERT statement: 9 parameters a row stays far below PostgreSQL's 65,535-parameter limit. */
const CHUNK = 2000;

export class BarsRepository {
  constructor(private readonly db: Db) {}

  async cacheEntry(provider: string, symbol: string, timeframe: Timeframe): Promise<ProviderCacheRow | undefined> {
    const rows = await this.db
      .select()
      .from(providerCache)
      .where(and(eq(providerCache.provider, provider), eq(providerCache.symbol, symbol), eq(providerCache.timeframe, timeframe)))
      .limit(1);
    return rows[0];
  }

  /** All stored bars of a series, oldest first. */
  async load(source: string, symbol: string, timeframe: Timeframe): Promise<BarSeries> {
    const rows = await this.db
      .select({ ts: bars.ts, open: bars.open, high: bars.high, low: bars.low, close: bars.close, volume: bars.volume })
      .from(bars)
      .where(and(eq(bars.source, source), eq(bars.symbol, symbol), eq(bars.timeframe, timeframe)))
      .orderBy(asc(bars.ts));
    const n = rows.length;
    const series: BarSeries = { symbol, timeframe, source, ...newOhlcv(n) };
    rows.forEach((row, i) => {
      for (const name of OHLCV_COLUMNS) series[name][i] = row[name];
    });
    return series;
  }

  /**
   * Stores a fetched series and its bookkeeping in one transaction. Bars already
   * held are updated in place: a provider's latest (possibly partial) session bar
   * and its corrections replace the cached copy, which is a cache of the vendor's
   * data, not a record of ours. Only bars at or after `since` are written (the
   * caller passes the last stored bar's time, so a refresh writes a few rows).
   */
  async save(series: BarSeries, fetchedAt: Date, since = -Infinity): Promise<void> {
    const n = series.ts.length;
    let first = 0;
    while (first < n && series.ts[first]! < since) first++;
    await this.db.transaction(async (tx) => {
      for (let start = first; start < n; start += CHUNK) {
        const values = [];
        for (let i = start; i < Math.min(n, start + CHUNK); i++) {
          values.push({
            source: series.source,
            symbol: series.symbol,
            timeframe: series.timeframe,
            ts: series.ts[i]!,
            open: series.open[i]!,
            high: series.high[i]!,
            low: series.low[i]!,
            close: series.close[i]!,
            volume: series.volume[i]!,
          });
        }
        await tx
          .insert(bars)
          .values(values)
          .onConflictDoUpdate({
            target: [bars.source, bars.symbol, bars.timeframe, bars.ts],
            set: {
              open: sql`excluded.open`,
              high: sql`excluded.high`,
              low: sql`excluded.low`,
              close: sql`excluded.close`,
              volume: sql`excluded.volume`,
            },
          });
      }
      const entry = {
        provider: series.source,
        symbol: series.symbol,
        timeframe: series.timeframe,
        fetchedAt,
        firstTs: n > 0 ? series.ts[0]! : null,
        lastTs: n > 0 ? series.ts[n - 1]! : null,
        barCount: n,
      };
      await tx
        .insert(providerCache)
        .values(entry)
        .onConflictDoUpdate({
          target: [providerCache.provider, providerCache.symbol, providerCache.timeframe],
          set: { fetchedAt: entry.fetchedAt, firstTs: entry.firstTs, lastTs: entry.lastTs, barCount: entry.barCount },
        });
    });
  }
}
