/**
 * @module jobs/backtest-report
 * A walk-forward evaluation (workers/backtest, bar times and raw numbers)
 * as the spec's WalkForwardResponse: dates, rounded figures (prices 4
 * decimals, dollars 2, ratios 6), the method in words, the disclaimer and
 * the data fingerprint. No figure is computed here.
 */
import { createHash } from 'node:crypto';
import type { BacktestConfig, BacktestMetrics, BacktestTrade, WalkForwardResponse } from '../domain/backtest';
import type { Metrics } from '../kernels/backtest';
import { round, roundOrNull } from '../kernels/round';
import type { CompactEvaluation, CompactTrade, FoldWindows } from '../../workers/backtest';

export const DISCLAIMER =
  'A simulation of past data, not a forecast or advice. It trades the signals the service would have shown at each bar with the costs stated in `config`, ' +
  'but real fills, borrow for shorts, taxes and liquidity differ; the csv and synthetic data carry survivorship bias (today’s index members only). ' +
  'Past results do not predict future returns.';

/** How the run was made, in words (the same for every run; `score` depends on the mode). */
export function methodOf(mode: 'single' | 'universe'): Record<string, string> {
  return {
    folds:
      'Rolling walk-forward: `train` bars, `purge` bars left out, `test` bars; the next test window starts `embargo` bars after the last one ends. The test windows cover the last `months` months. Purged and embargoed folds after López de Prado, Advances in Financial Machine Learning (Wiley 2018), ch. 7.',
    purge: 'A training trade counts only if it entered in the train window and exited before the test window starts: no training label overlaps a test window.',
    signals:
      'At the close of every bar the live daily scan (the same detectors, lifecycle and scoring as /api/breakouts) is run on the bars up to that bar only; its listed setups are the signals of that bar.',
    score:
      mode === 'single'
        ? 'Scores use the market regime from the benchmark at each bar (no universe breadth) and no RS rank (it needs a universe): a single-symbol score tops out at 80 and bands lower than in /api/breakouts, as in /api/forecast.'
        : 'Scores use each symbol’s RS rank among the run’s symbols and the market regime from the benchmark with the run’s breadth, both at each bar, as a universe scan on that day would.',
    entry:
      'A setup listed `forming` gets a stop order at its trigger for the next bar (filled at the trigger, or at the open on a gap through it); one first listed on its breakout bar is bought (sold short) at the next open. No fill outside the stop–target1 range. One trade per setup.',
    exit: 'target1, the stop (a bar touching both counts as the stop), the time stop `hold` bars after the entry bar, or the end of the test window, whichever comes first; stops and targets gapped through fill at the open.',
    costs: 'Slippage `slippage` basis points on every fill against the trade; commission `commission` US dollars per share on the entry and on the exit. R = net dollars per share ÷ (entry − stop).',
    learning:
      'Per fold, from its purged training trades only: the lowest band floor (watchlist, strong, elite) whose training trades averaged a positive net R (too few trades to judge: watchlist, or the floor reached); patterns whose training hit rate is at or below their break-even hit rate L / (W + L) are not traded.',
    account: 'One account, equity ÷ maxPositions per position at entry, at most one position per symbol, marked to market at every test-bar close; positions never cross a test window’s end, so the embargo bars are flat and not counted.',
    metrics: 'Daily returns over the test bars; annualised with 252 sessions; risk-free rate 0. PSR and DSR after Bailey & López de Prado (2012; 2014).',
    deflatedSharpe: 'Trials: the learned strategy and the three fixed band floors, traded the same way (or the `trials` you state); V is the variance of their daily Sharpe ratios.',
  };
}

const day = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const r6 = (x: number | null) => roundOrNull(x, 6);

export function metricsOut(m: Metrics): BacktestMetrics {
  return {
    totalReturn: r6(m.totalReturn),
    annualizedReturn: r6(m.annualizedReturn),
    sharpe: r6(m.sharpe),
    sortino: r6(m.sortino),
    maxDrawdown: r6(m.maxDrawdown),
    winRate: r6(m.winRate),
    profitFactor: r6(m.profitFactor),
    expectancyR: r6(m.expectancyR),
    exposure: r6(m.exposure),
    tradeCount: m.tradeCount,
    bars: m.bars,
    psr: r6(m.psr),
  };
}

function tradeOut(t: CompactTrade): BacktestTrade {
  return {
    symbol: t.symbol,
    patternType: t.patternType,
    patternFamily: t.patternFamily,
    direction: t.direction,
    band: t.band,
    finalScore: round(t.finalScore, 2),
    signalDate: day(t.signalTs),
    entryDate: day(t.entryTs),
    entryKind: t.entryKind,
    entryPrice: round(t.entryPrice, 4),
    trigger: round(t.trigger, 4),
    stopLoss: round(t.stopLoss, 4),
    target1: round(t.target1, 4),
    exitDate: day(t.exitTs),
    exitPrice: round(t.exitPrice, 4),
    exitReason: t.exitReason,
    barsHeld: t.barsHeld,
    shares: t.shares,
    pnl: round(t.pnl, 2),
    r: round(t.r, 4),
  };
}

const windowOut = (span: [number, number] | null, bars: number) => (span ? { from: day(span[0]), to: day(span[1]), bars } : null);

function foldOut(f: CompactEvaluation['folds'][number]) {
  const w: FoldWindows = f.windows;
  return {
    index: w.index,
    train: windowOut(w.train, w.bars.train)!,
    purge: windowOut(w.purge, w.bars.purge),
    test: { ...windowOut(w.test, w.bars.test)!, partial: w.partial },
    embargo: windowOut(w.embargo, w.bars.embargo),
    model: {
      minBand: f.model.minBand,
      minBandReason: f.model.minBandReason,
      thresholds: f.model.thresholds.map((t) => ({ ...t, meanR: r6(t.meanR) })),
      patterns: Object.fromEntries(
        Object.entries(f.model.patterns).map(([type, p]) => [type, { ...p, hitRate: round(p.hitRate, 6), breakEvenHitRate: r6(p.breakEvenHitRate) }]),
      ),
      trainingTrades: f.model.trainingTrades,
      purgedTrades: f.purged,
    },
    candidates: f.candidates,
    picked: f.picked,
    tradeCount: f.trades.length,
    trades: f.trades.map(tradeOut),
    metrics: metricsOut(f.metrics),
  };
}

const groupOut = <G extends { winRate: number | null; expectancyR: number | null; totalR: number; profitFactorR: number | null }>(g: G): G => ({
  ...g,
  winRate: r6(g.winRate),
  expectancyR: r6(g.expectancyR),
  totalR: round(g.totalR, 4),
  profitFactorR: r6(g.profitFactorR),
});

const holdOut = (symbol: string, h: CompactEvaluation['benchmarks'][string] | undefined) => ({
  symbol,
  totalReturn: r6(h?.totalReturn ?? null),
  annualizedReturn: r6(h?.annualizedReturn ?? null),
  sharpe: r6(h?.sharpe ?? null),
  maxDrawdown: r6(h?.maxDrawdown ?? null),
});

/** SHA-256 over the source, each series' fingerprint (sorted by symbol) and the effective inputs. */
export function dataFingerprint(source: string, fingerprints: Record<string, string>, config: BacktestConfig): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ source, config }));
  for (const symbol of Object.keys(fingerprints).sort()) hash.update(`\n${symbol}:${fingerprints[symbol]}`);
  return hash.digest('hex');
}

export interface ReportInput {
  mode: 'single' | 'universe';
  symbol: string;
  benchmark: string;
  config: BacktestConfig;
  evaluation: CompactEvaluation;
  /** Buy-and-hold keys in `evaluation.benchmarks` for the symbol and the equal-weight universe, when there are. */
  holds: { symbol?: string; universe?: string };
  data: { source: string; symbols: number; firstBar: number; lastBar: number };
  fingerprint: string;
  universe?: WalkForwardResponse['universe'];
}

export function walkForwardReport(input: ReportInput): WalkForwardResponse {
  const { evaluation: e, config } = input;
  const folds = e.folds.map(foldOut);
  const first = folds[0]!.test;
  const last = folds[folds.length - 1]!.test;
  const deflated = e.deflated;
  return {
    symbol: input.symbol,
    benchmark: input.benchmark,
    range: `${config.months}mo` as WalkForwardResponse['range'],
    period: { from: first.from, to: last.to, bars: e.metrics.bars },
    config,
    folds,
    metrics: {
      ...metricsOut(e.metrics),
      deflatedSharpe: deflated && {
        value: r6(Number.isFinite(deflated.value) ? deflated.value : null),
        trials: deflated.trials,
        trialsSource: deflated.source === 'caller' ? 'request' : 'variants',
        trialSharpeVariance: round(deflated.trialVariance, 10),
        expectedMaxSharpe: round(deflated.expectedMaxSharpe, 6),
        dailySharpe: round(deflated.sharpe ?? 0, 6),
      },
    },
    tradeCount: e.metrics.tradeCount,
    refused: e.refused,
    equity: e.equity.map(({ ts, equity }) => ({ date: day(ts), equity: round(equity, 2) })),
    benchmarks: {
      ...(input.holds.symbol ? { symbol: holdOut(input.holds.symbol, e.benchmarks[input.holds.symbol]) } : {}),
      benchmark: holdOut(input.benchmark, e.benchmarks[input.benchmark]),
      ...(input.holds.universe ? { universeEqualWeight: holdOut(input.holds.universe, e.benchmarks[input.holds.universe]) } : {}),
    },
    scoreBands: {
      elite: groupOut(e.scoreBands.elite),
      strong: groupOut(e.scoreBands.strong),
      watchlist: groupOut(e.scoreBands.watchlist),
      ignore: groupOut(e.scoreBands.ignore),
    },
    bandMonotonicity: { verdict: e.monotonicity.verdict, meanRRho: r6(Number.isFinite(e.monotonicity.meanRRho) ? e.monotonicity.meanRRho : null), sentence: e.monotonicity.sentence },
    patterns: Object.fromEntries(Object.entries(e.patterns).map(([type, g]) => [type, groupOut(g)])),
    variants: e.variants.map((v) => ({ ...v, sharpe: r6(v.sharpe), totalReturn: r6(v.totalReturn) })),
    ...(input.universe ? { universe: input.universe } : {}),
    method: methodOf(input.mode),
    data: { source: input.data.source, symbols: input.data.symbols, firstBar: day(input.data.firstBar), lastBar: day(input.data.lastBar) },
    dataFingerprint: input.fingerprint,
    disclaimer: DISCLAIMER,
  };
}
