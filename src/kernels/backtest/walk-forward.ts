/**
 * @module kernels/backtest/walk-forward
 * The purged walk-forward evaluation of candidate trades
 * (kernels/backtest/candidates) over a calendar of bars:
 *
 * 1. per fold (kernels/backtest/folds): the training set is the candidates
 *    that entered in the train window and exited before the test window
 *    (purged: no training label overlaps the test window); the fold's model
 *    is learned from it alone (kernels/backtest/learn);
 * 2. the test window's candidates are cut at its last bar (`capAt`) and the
 *    model picks the ones to take;
 * 3. one account trades every fold's picks under the position limit, marked
 *    at every test bar (kernels/backtest/portfolio); positions never cross a
 *    window's end, so the embargo bars between windows are flat and left out
 *    of the daily returns;
 * 4. figures overall and per fold (kernels/backtest/metrics); per score band
 *    and per pattern over every test candidate (taken or not: out-of-sample
 *    evidence for the bands themselves); buy-and-hold of the given series over
 *    the same test bars; and the deflated Sharpe ratio of the strategy.
 *
 * Trials of the deflated Sharpe ratio (kernels/backtest/sharpe): the learned
 * strategy and the three fixed band floors it chooses among (`watchlist`,
 * `strong`, `elite`, each with the fold's pattern filter), all traded through
 * the same account over the same bars; V is the sample variance of their
 * daily Sharpe ratios and N their number, unless the caller states more
 * trials (every configuration it has tried).
 *
 * Deterministic: ties are broken by key, so the same candidates give the same
 * numbers.
 */
import type { PatternType, ScoreBand } from '../../domain/signal';
import { scoreBandMonotonicity, type Monotonicity } from '../stats/monotonicity';
import { capAt, type CandidateTrade, type WindowTrade } from './candidates';
import type { Costs } from './fills';
import { purgedFromTraining, type Fold } from './folds';
import { atOrAbove, BAND_THRESHOLDS, learnFromTraining, takes, type BandThreshold, type FoldModel } from './learn';
import { finite, performanceMetrics, type Metrics } from './metrics';
import { tradePortfolio, type FilledTrade, type PortfolioRun, type Refusal } from './portfolio';
import { deflatedSharpe, moments, sharpeRatio, type DeflatedSharpe } from './sharpe';

export interface EvaluationOptions {
  costs: Costs;
  capital: number;
  maxPositions: number;
  /** Training trades needed to judge a band or a pattern (kernels/backtest/learn). */
  minTrainTrades?: number;
  /** Trials to deflate by; default the configurations this evaluation traded. */
  trials?: number;
}

export interface FoldResult {
  fold: Fold;
  model: FoldModel;
  /** Candidates that entered in the train window but were dropped because their exit reached the test window. */
  purged: number;
  /** Test-window candidates, and those the model picked. */
  candidates: number;
  picked: number;
  trades: FilledTrade[];
  metrics: Metrics;
}

export interface GroupStats {
  candidates: number;
  taken: number;
  wins: number;
  winRate: number | null;
  expectancyR: number | null;
  totalR: number;
  profitFactorR: number | null;
}

export interface VariantResult {
  name: 'learned' | BandThreshold;
  trades: number;
  sharpe: number | null;
  totalReturn: number | null;
}

export interface BuyAndHold {
  totalReturn: number | null;
  annualizedReturn: number | null;
  sharpe: number | null;
  maxDrawdown: number | null;
}

export interface Evaluation {
  folds: FoldResult[];
  metrics: Metrics;
  trades: FilledTrade[];
  refused: Record<Refusal, number>;
  equity: { ts: number; equity: number }[];
  deflated: (DeflatedSharpe & { sharpe: number | null; source: 'variants' | 'caller' }) | null;
  variants: VariantResult[];
  scoreBands: Record<ScoreBand, GroupStats>;
  monotonicity: Monotonicity;
  patterns: Partial<Record<PatternType, GroupStats & { foldsExcluded: number }>>;
  benchmarks: Record<string, BuyAndHold>;
}

function groupStats(trades: readonly WindowTrade[], takenKeys: ReadonlySet<string>): GroupStats {
  const rs = trades.map((t) => t.r);
  const wins = rs.filter((r) => r > 0);
  const lossR = -rs.filter((r) => r < 0).reduce((a, b) => a + b, 0);
  const totalR = rs.reduce((a, b) => a + b, 0);
  return {
    candidates: trades.length,
    taken: trades.filter((t) => takenKeys.has(t.key)).length,
    wins: wins.length,
    winRate: trades.length ? wins.length / trades.length : null,
    expectancyR: trades.length ? totalR / trades.length : null,
    totalR,
    profitFactorR: lossR > 0 ? wins.reduce((a, b) => a + b, 0) / lossR : null,
  };
}

/**
 * Evaluates `candidates` (every symbol's, any order) over `calendar` (bar
 * times, increasing) split into `folds` (indices into `calendar`).
 * `buyAndHold` holds, per name, a close aligned with `calendar` (NaN where
 * the series has no bar yet).
 */
export function evaluateWalkForward(
  calendar: readonly number[],
  folds: readonly Fold[],
  candidates: readonly CandidateTrade[],
  options: EvaluationOptions,
  buyAndHold: Record<string, ArrayLike<number>> = {},
): Evaluation {
  const { costs } = options;
  const testBars: number[] = [];
  const foldOf: number[] = [];
  const perFold = folds.map((fold) => {
    const ts = { trainStart: calendar[fold.trainStart]!, trainEnd: calendar[fold.trainEnd]!, testStart: calendar[fold.testStart]!, testEnd: calendar[fold.testEnd]! };
    const entered = candidates.filter((c) => c.entryTs >= ts.trainStart && c.entryTs <= ts.trainEnd);
    const training = entered.filter((c) => !purgedFromTraining(ts, c.entryTs, c.exitTs));
    const model = learnFromTraining(training, options.minTrainTrades);
    const tested = candidates
      .filter((c) => c.entryTs >= ts.testStart && c.entryTs <= ts.testEnd)
      .map((c) => capAt(c, ts.testEnd, costs))
      .sort((a, b) => a.entryTs - b.entryTs || a.key.localeCompare(b.key));
    for (let i = fold.testStart; i <= fold.testEnd; i++) {
      testBars.push(calendar[i]!);
      foldOf.push(fold.index);
    }
    return { fold, model, purged: entered.length - training.length, tested, picked: tested.filter((c) => takes(model, c)) };
  });

  const account = (pick: (f: (typeof perFold)[number]) => WindowTrade[]) =>
    tradePortfolio(testBars, perFold.flatMap(pick), { capital: options.capital, maxPositions: options.maxPositions, commissionPerShare: costs.commissionPerShare });
  const run = account((f) => f.picked);
  const startOf = (k: number) => (k === 0 ? options.capital : run.equity[k - 1]!);

  const foldResults: FoldResult[] = perFold.map((f) => {
    const first = foldOf.indexOf(f.fold.index);
    const last = foldOf.lastIndexOf(f.fold.index);
    const trades = run.trades.filter((t) => t.entryTs >= calendar[f.fold.testStart]! && t.entryTs <= calendar[f.fold.testEnd]!);
    return {
      fold: f.fold,
      model: f.model,
      purged: f.purged,
      candidates: f.tested.length,
      picked: f.picked.length,
      trades,
      metrics: performanceMetrics({ returns: run.returns.slice(first, last + 1), held: run.held.subarray(first, last + 1), trades, startEquity: startOf(first) }),
    };
  });
  const metrics = performanceMetrics({ returns: run.returns, held: run.held, trades: run.trades, startEquity: options.capital });

  const variants: VariantResult[] = [variantOf('learned', run)];
  for (const band of BAND_THRESHOLDS) {
    variants.push(variantOf(band, account((f) => f.tested.filter((c) => atOrAbove(c.band, band) && (f.model.patterns[c.patternType]?.traded ?? true)))));
  }
  const deflated = deflate(run.returns, variants, options.trials);

  const allTested = perFold.flatMap((f) => f.tested);
  const takenKeys = new Set(run.trades.map((t) => t.key));
  const scoreBands = Object.fromEntries(
    (['ignore', 'watchlist', 'strong', 'elite'] as const).map((band) => [band, groupStats(allTested.filter((t) => t.band === band), takenKeys)]),
  ) as Record<ScoreBand, GroupStats>;
  const monotonicity = scoreBandMonotonicity(
    (['ignore', 'watchlist', 'strong', 'elite'] as const).map((band) => ({
      band,
      trades: scoreBands[band].candidates,
      meanR: scoreBands[band].expectancyR ?? 0,
      hitRate: scoreBands[band].winRate ?? 0,
    })),
  );
  const patterns: Evaluation['patterns'] = {};
  for (const type of [...new Set(allTested.map((t) => t.patternType))].sort()) {
    patterns[type] = {
      ...groupStats(allTested.filter((t) => t.patternType === type), takenKeys),
      foldsExcluded: perFold.filter((f) => f.model.patterns[type]?.traded === false).length,
    };
  }

  const benchmarks: Record<string, BuyAndHold> = {};
  for (const [name, close] of Object.entries(buyAndHold)) benchmarks[name] = holdOver(folds, close);

  return {
    folds: foldResults,
    metrics,
    trades: run.trades,
    refused: run.refused,
    equity: testBars.map((ts, k) => ({ ts, equity: run.equity[k]! })),
    deflated,
    variants,
    scoreBands,
    monotonicity,
    patterns,
    benchmarks,
  };
}

function variantOf(name: VariantResult['name'], run: PortfolioRun): VariantResult {
  const growth = run.returns.reduce((g, r) => g * (1 + r), 1);
  return { name, trades: run.trades.length, sharpe: finite(sharpeRatio(run.returns) * Math.sqrt(252)), totalReturn: run.returns.length ? growth - 1 : null };
}

/** DSR of the learned strategy against the variants' spread of daily Sharpe ratios. */
function deflate(returns: readonly number[], variants: readonly VariantResult[], statedTrials: number | undefined): Evaluation['deflated'] {
  const m = moments(returns);
  const sharpe = m.sd > 0 ? m.mean / m.sd : NaN;
  const daily = variants.map((v) => v.sharpe).filter((s): s is number => s !== null).map((s) => s / Math.sqrt(252));
  if (!Number.isFinite(sharpe) || daily.length < 2) return null;
  const variance = moments(daily).sd ** 2;
  const trials = statedTrials ?? variants.length;
  const result = deflatedSharpe({ sharpe, observations: returns.length, skewness: m.skewness, kurtosis: m.kurtosis, trials, trialVariance: variance });
  return { ...result, sharpe, source: statedTrials === undefined ? 'variants' : 'caller' };
}

/** Buy-and-hold of `close` over the folds' test bars: each bar's close-to-close return, flat between windows. */
function holdOver(folds: readonly Fold[], close: ArrayLike<number>): BuyAndHold {
  const returns: number[] = [];
  for (const fold of folds) {
    for (let i = fold.testStart; i <= fold.testEnd; i++) {
      const r = close[i]! / close[i - 1]! - 1;
      returns.push(Number.isFinite(r) ? r : 0);
    }
  }
  const m = performanceMetrics({ returns, held: returns.map(() => 1), trades: [], startEquity: 1 });
  return { totalReturn: m.totalReturn, annualizedReturn: m.annualizedReturn, sharpe: m.sharpe, maxDrawdown: m.maxDrawdown };
}
