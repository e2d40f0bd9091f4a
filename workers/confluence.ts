/**
 * Worker entry point for /api/confluence (run by src/pool through piscina):
 * reads the symbol, its benchmark and its higher timeframe from the shared bar
 * store, aligns them, and calls the confluence kernel as of one bar.
 */
import { confluence as confluenceKernel, type ConfluenceResult } from '../src/kernels/confluence';
import type { Ohlcv } from '../src/kernels/indicators';
import { alignByTime, weeklyBars } from '../src/kernels/resample';
import type { Timeframe } from '../src/domain/signal';
import type { StoreHandle } from '../src/store';
import { indexAtOrBefore, store } from './store';

export interface ConfluenceInput {
  handle: StoreHandle;
  symbol: string;
  timeframe: Timeframe;
  /** Read with `timeframe`; its closes are aligned to the symbol's bar times. */
  benchmark: string;
  /** Stand on the symbol's last bar at or before this time (epoch ms). */
  asOfTs: number;
  lookback: number;
}

export interface ConfluenceOutput extends ConfluenceResult {
  /** Time of the bar stood on. */
  barTs: number;
  /** Which series voted as the higher timeframe. */
  higherTimeframe: 'weekly' | 'daily';
  /** Whether the benchmark had bars to align (else RS votes on nothing). */
  benchmarkAligned: boolean;
}

/** The confluence of `symbol` at its last bar at or before `asOfTs`, or null when it has no bar by then. */
export function confluence({ handle, symbol, timeframe, benchmark, asOfTs, lookback }: ConfluenceInput): ConfluenceOutput | null {
  const s = store(handle);
  const bars = s.get(symbol, timeframe);
  if (!bars) return null;
  const asOf = indexAtOrBefore(bars.ts, asOfTs);
  if (asOf < 0) return null;
  const bench = symbol === benchmark ? undefined : s.get(benchmark, timeframe);
  const daily = timeframe === 'daily' ? bars : s.get(symbol, 'daily');
  const higher: Ohlcv | null = !daily ? null : timeframe === 'daily' ? weeklyBars(daily) : daily;
  const result = confluenceKernel({
    bars,
    benchmarkClose: bench ? alignByTime(bars.ts, bench.ts, bench.close) : null,
    higherTimeframe: higher,
    asOf,
    lookback,
    rsRank: null,
  });
  return { ...result, barTs: bars.ts[asOf]!, higherTimeframe: timeframe === 'daily' ? 'weekly' : 'daily', benchmarkAligned: bench !== undefined };
}
