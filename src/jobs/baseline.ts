/**
 * @module jobs/baseline
 * The matched random baselines of a set of trades (kernels/baseline-match has
 * the rules): each trade's own price label, `matches` random entries of the
 * same calendar year and ATR(14)% quintile, and `matches` random entries of
 * other members on the same entry date in the same ATR(14)% quintile of that
 * day, all with the trade's direction, stop and target distances, resolved by
 * prices. bench/calibration calls it on the series it has loaded; the
 * scorecard's record section runs the same kernel in the worker pool
 * (workers/record).
 */
import { matchTrades, type MatchResult, type MatchTrade } from '../kernels/baseline-match';
import type { Ohlcv } from '../kernels/ohlcv';
import type { MarketData } from '../market-data';

export type BaselineTrade = MatchTrade;
export type BaselineResult = MatchResult;

export interface BaselineOptions {
  /** The symbols random entries are drawn from, and whether one is in the universe on a date (YYYY-MM-DD). */
  symbols: readonly string[];
  isMember?: (symbol: string, date: string) => boolean;
  matches: number;
  seed?: number;
  /** Series already loaded (bench/calibration keeps them), else read through `marketData`. */
  series?: Map<string, Ohlcv>;
}

/** The seed of the record's baselines (the same draws on every run). */
export const BASELINE_SEED = 14;

/** Both baselines of every trade of `trades` (in order); a trade whose symbol has no bar at its entry gets no label and no draws. */
export async function matchedBaseline(marketData: MarketData, trades: readonly BaselineTrade[], options: BaselineOptions): Promise<BaselineResult[]> {
  const loaded = options.series ?? new Map<string, Ohlcv>();
  const wanted = new Set([...options.symbols, ...trades.map((t) => t.symbol)]);
  for (const symbol of wanted) {
    if (loaded.has(symbol)) continue;
    const bars = await marketData.bars(symbol, 'daily').catch(() => null);
    if (bars && bars.ts.length) loaded.set(symbol, bars);
  }
  return matchTrades(trades, {
    symbols: options.symbols,
    barsOf: (symbol) => loaded.get(symbol),
    ...(options.isMember ? { isMember: options.isMember } : {}),
    matches: options.matches,
    seed: options.seed ?? BASELINE_SEED,
  });
}
