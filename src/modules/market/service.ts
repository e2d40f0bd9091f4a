/**
 * @module modules/market/service
 * Bars and quote snapshots over the cache-through market data.
 */
import { AppError } from '../../errors';
import type { MarketData } from '../../market-data';
import type { ApiVersion } from '../../config';
import type { BarSeries } from '../../providers/types';
import { RANGE_BARS, type BarsResponse, type Range, type SnapshotResponse } from './model';

/** The `date` of a daily bar: its session date (bars open at 00:00 UTC of it). */
export const sessionDate = (ts: number) => new Date(ts).toISOString().slice(0, 10);

/** The last `range` of daily bars, newest last. */
export function dailyBars(series: BarSeries, symbol: string, range: Range): BarsResponse {
  const count = Math.min(RANGE_BARS[range], series.ts.length);
  const start = series.ts.length - count;
  const bars = new Array(count);
  for (let i = 0; i < count; i++) {
    const j = start + i;
    bars[i] = {
      date: sessionDate(series.ts[j]!),
      open: series.open[j]!,
      high: series.high[j]!,
      low: series.low[j]!,
      close: series.close[j]!,
      volume: series.volume[j]!,
    };
  }
  return { symbol, range, bars };
}

/**
 * `dailyBars` serialised, held by the market data until the series is
 * refreshed: a repeat read of /api/bars builds no objects and does no JSON work.
 */
export async function dailyBarsJson(marketData: MarketData, symbol: string, requested: Range | undefined, apiVersion: ApiVersion): Promise<string> {
  if (requested === undefined && apiVersion !== '1.0.0') {
    throw new AppError('invalid_parameter', `Query parameter 'range' is required from API-Version 1.1.0 (one of: 1mo, 3mo, 6mo)`);
  }
  // Under 1.0.0 the spec's default applies; from 1.1.0 the parameter is required (so no TypeBox default).
  const range = requested ?? '6mo';
  await marketData.instrument(symbol);
  const { series, body, hold } = await marketData.serialized(symbol, 'daily', `bars:${range}`);
  if (body !== undefined) return body;
  const fresh = JSON.stringify(dailyBars(series, symbol, range));
  hold(fresh);
  return fresh;
}

export async function snapshot(marketData: MarketData, symbol: string): Promise<SnapshotResponse> {
  const instrument = await marketData.instrument(symbol);
  const quote = await marketData.snapshot(symbol);
  return { ...quote, name: instrument.name, sector: instrument.sector };
}
