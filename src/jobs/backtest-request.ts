/**
 * @module jobs/backtest-request
 * What a walk-forward backtest is asked to do once its inputs are checked and
 * defaulted (modules/backtest parses them), what it needs to run, and the
 * worker's settings made from it.
 */
import type { BacktestConfig, BacktestUniverse } from '../domain/backtest';
import type { Logger } from '../log';
import type { MarketData } from '../market-data';
import type { KernelPool } from '../pool';
import type { BarStore } from '../store';
import type { WalkForwardParams } from '../../workers/backtest';

export interface BacktestRequest {
  /** The symbol of a single-symbol run. */
  symbol: string;
  benchmark: string;
  config: BacktestConfig;
  /** A universe run's symbols (resolved from `universe` or listed), or empty for a single-symbol run. */
  symbols: string[];
  universe: BacktestUniverse | null;
}

export interface BacktestDeps {
  marketData: MarketData;
  barStore: BarStore;
  pool: KernelPool;
  log: Logger;
}

/** The worker's settings: bars, the time stop, costs in dollars and basis points, the account. */
export function paramsOf(config: BacktestConfig): WalkForwardParams {
  return {
    months: config.months,
    train: config.train,
    test: config.test,
    purge: config.purge,
    embargo: config.embargo,
    maxHold: config.hold,
    costs: { slippageBps: config.slippage, commissionPerShare: config.commission },
    capital: config.capital,
    maxPositions: config.maxPositions,
    minTrainTrades: config.minTrainTrades,
    ...(config.trials === null ? {} : { trials: config.trials }),
  };
}
