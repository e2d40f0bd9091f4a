/**
 * @module kernels/backtest
 * Purged walk-forward backtesting of the live detectors, one small unit a
 * file, each with its formula and source:
 *
 * | file | what |
 * |---|---|
 * | `folds.ts` | the purged walk-forward splitter and the purge rule (López de Prado 2018, ch. 7) |
 * | `signals.ts` | a symbol's signals at each bar, point in time (the live scan at every bar) |
 * | `fills.ts` | entry and exit fills, slippage and commission, net R |
 * | `candidates.ts` | signals → every trade they offered, and its cut at a window's end |
 * | `learn.ts` | what a fold learns from its purged training trades: the band floor, the pattern filter |
 * | `portfolio.ts` | one account under a position limit, marked to market |
 * | `metrics.ts` | returns, Sharpe, Sortino, drawdown, win rate, profit factor, expectancy, exposure |
 * | `sharpe.ts` | moments, probabilistic and deflated Sharpe ratio (Bailey & López de Prado 2012, 2014) |
 * | `walk-forward.ts` | the evaluation: folds, learning, the account, the figures, the tables |
 *
 * Pure functions over typed arrays and plain objects; bad options throw a
 * `RangeError`.
 */
export * from './candidates';
export * from './fills';
export * from './folds';
export * from './learn';
export * from './metrics';
export * from './portfolio';
export * from './sharpe';
export * from './signals';
export * from './walk-forward';
