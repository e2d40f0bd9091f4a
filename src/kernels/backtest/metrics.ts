/**
 * @module kernels/backtest/metrics
 * The figures of a backtest from its daily returns and its closed trades.
 * Daily figures are annualised with 252 sessions a year; the risk-free rate
 * is taken as zero.
 *
 * ```
 * totalReturn       = Π(1 + r_d) − 1
 * annualizedReturn  = (1 + totalReturn)^(252 / T) − 1                  T = bars evaluated
 * sharpe            = mean(r) / s(r) · √252                             s with n − 1
 * sortino           = mean(r) / √(Σ min(r_d, 0)² / T) · √252           Sortino & Price, "Performance
 *                     measurement in a downside risk framework", J. of Investing 3(3), 1994; target 0
 * maxDrawdown       = max_d (1 − E_d / max_(s ≤ d) E_s), E over the starting equity and every close
 * winRate           = trades with net P&L > 0 / trades
 * profitFactor      = Σ winning net P&L / |Σ losing net P&L|            null without losers
 * expectancyR       = mean net R per trade (kernels/stats/trades, Tharp)
 * exposure          = bars with a position held / T
 * psr               = PSR(0) of the daily returns (kernels/backtest/sharpe)
 * ```
 *
 * A figure that does not exist (no trades, no variation, no losing day) is
 * null, never NaN or Infinity: JSON has neither.
 *
 * @example
 * performanceMetrics({ returns: [0.01, -0.005, 0.02], held: [1, 1, 0], trades: [{ pnl: 150, r: 1.2 }, { pnl: -50, r: -0.5 }], startEquity: 10_000 });
 * // => { totalReturn: 0.025049…, winRate: 0.5, profitFactor: 3, expectancyR: 0.35, exposure: 0.666…, tradeCount: 2, … }
 */
import { expectancy, profitFactor } from '../stats/trades';
import { moments, probabilisticSharpe } from './sharpe';

export const SESSIONS_PER_YEAR = 252;

export interface MetricsInput {
  returns: ArrayLike<number>;
  /** 1 where a position was held on the bar. */
  held: ArrayLike<number>;
  trades: readonly { pnl: number; r: number }[];
  /** Equity before the first return (for the drawdown). */
  startEquity: number;
}

export interface Metrics {
  totalReturn: number | null;
  annualizedReturn: number | null;
  sharpe: number | null;
  sortino: number | null;
  maxDrawdown: number | null;
  winRate: number | null;
  profitFactor: number | null;
  expectancyR: number | null;
  exposure: number | null;
  tradeCount: number;
  bars: number;
  /** Probability that the true Sharpe ratio is above 0 (Bailey & López de Prado 2012). */
  psr: number | null;
}

/** A finite number, or null. */
export const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

export function performanceMetrics(input: MetricsInput): Metrics {
  const { returns, held, trades, startEquity } = input;
  const T = returns.length;
  let growth = 1;
  let downside = 0;
  let peak = startEquity;
  let equity = startEquity;
  let maxDrawdown = 0;
  let exposed = 0;
  for (let d = 0; d < T; d++) {
    const r = returns[d]!;
    growth *= 1 + r;
    if (r < 0) downside += r * r;
    equity *= 1 + r;
    peak = Math.max(peak, equity);
    maxDrawdown = Math.max(maxDrawdown, 1 - equity / peak);
    if (held[d]) exposed++;
  }
  const m = moments(returns);
  const dailySharpe = m.sd > 0 ? m.mean / m.sd : NaN;
  const downsideDeviation = Math.sqrt(downside / T);
  const pnls = trades.map((t) => t.pnl);
  const wins = pnls.filter((p) => p > 0).length;
  return {
    totalReturn: T ? growth - 1 : null,
    annualizedReturn: T ? finite(growth ** (SESSIONS_PER_YEAR / T) - 1) : null,
    sharpe: finite(dailySharpe * Math.sqrt(SESSIONS_PER_YEAR)),
    sortino: downsideDeviation > 0 ? finite((m.mean / downsideDeviation) * Math.sqrt(SESSIONS_PER_YEAR)) : null,
    maxDrawdown: T ? maxDrawdown : null,
    winRate: trades.length ? wins / trades.length : null,
    profitFactor: trades.length ? finite(profitFactor(pnls)) : null,
    expectancyR: trades.length ? finite(expectancy(trades.map((t) => t.r)).expectancyR) : null,
    exposure: T ? exposed / T : null,
    tradeCount: trades.length,
    bars: T,
    psr: finite(probabilisticSharpe({ sharpe: dailySharpe, observations: T, skewness: m.skewness, kurtosis: m.kurtosis })),
  };
}
