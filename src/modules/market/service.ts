/**
 * @module modules/market/service
 * Bars and quote snapshots over the cache-through market data.
 */
import type { MarketData } from '../../providers/market-data';
import { RANGE_BARS, type BarsResponse, type Range, type SnapshotResponse } from './model';

/** The `date` of a daily bar: its session date (bars open at 00:00 UTC of it). */
export const sessionDate = (ts: number) => new Date(ts).toISOString().slice(0, 10);

export async function dailyBars(marketData: MarketData, symbol: string, range: Range): Promise<BarsResponse> {
  await marketData.instrument(symbol);
  const series = await marketData.bars(symbol, 'daily');
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

/** Serialised bars responses per market-data instance, by symbol and range, valid while the series' `loadedAt` is unchanged. */
const barsJsonCaches = new WeakMap<MarketData, Map<string, { loadedAt: number; body: string }>>();
const BARS_JSON_CACHE_MAX = 4096;

/**
 * `dailyBars` serialised, cached until the series is refreshed: a repeat read
 * of /api/bars builds no objects and does no JSON work.
 */
export async function dailyBarsJson(marketData: MarketData, symbol: string, range: Range): Promise<string> {
  await marketData.instrument(symbol);
  await marketData.bars(symbol, 'daily');
  const loadedAt = marketData.loadedAt(symbol, 'daily') ?? -1;
  let cache = barsJsonCaches.get(marketData);
  if (!cache) barsJsonCaches.set(marketData, (cache = new Map()));
  const key = `${symbol}|${range}`;
  const hit = cache.get(key);
  if (hit && hit.loadedAt === loadedAt) return hit.body;
  const body = JSON.stringify(await dailyBars(marketData, symbol, range));
  if (cache.size >= BARS_JSON_CACHE_MAX) cache.clear();
  cache.set(key, { loadedAt, body });
  return body;
}

export async function snapshot(marketData: MarketData, symbol: string): Promise<SnapshotResponse> {
  const instrument = await marketData.instrument(symbol);
  const quote = await marketData.snapshot(symbol);
  return { ...quote, name: instrument.name, sector: instrument.sector };
}
