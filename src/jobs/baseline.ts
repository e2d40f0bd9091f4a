/**
 * @module jobs/baseline
 * The matched random baseline of a set of trades (kernels/baseline has the
 * rules): each trade's own price label (target1 before the stop, prices only,
 * from its entry bar), and `matches` random entries of the same calendar year
 * and ATR(14)% quintile — from the universe's symbols that are members that
 * day — with the trade's direction, stop and target distances, resolved by
 * prices (workers/baseline has the computation). bench/calibration calls it
 * on bars it loaded; the scorecard (modules/transparency) runs the same in
 * the pool's background lane over the shared bar store.
 */
import type { Ohlcv } from '../kernels/ohlcv';
import type { MarketData } from '../market-data';
import { matchTrades, type BaselineResult, type BaselineTrade } from '../../workers/baseline';

export type { BaselineResult, BaselineTrade };

export interface BaselineOptions {
  /** The symbols random entries are drawn from, and whether one is in the universe on a date (YYYY-MM-DD). */
  symbols: readonly string[];
  isMember?: (symbol: string, date: string) => boolean;
  matches: number;
  seed?: number;
  /** Series already loaded (bench/calibration keeps them), else read through `marketData`. */
  series?: Map<string, Ohlcv>;
}

/** The baseline of every trade of `trades` (in order), over bars read through `marketData` (workers/baseline has the computation). */
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
    ...(options.isMember ? { isMember: options.isMember } : {}),
    barsOf: (symbol) => loaded.get(symbol),
    matches: options.matches,
    seed: options.seed ?? 14,
  });
}
