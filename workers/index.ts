/**
 * The worker pool's module (src/pool): every task a worker thread runs, by
 * name. Scans live in scan.ts, the point-in-time replay in replay.ts, confluence in confluence.ts, outcome resolution in outcomes.ts,
 * option grids in options.ts, the forecast's volatility model in forecast.ts, walk-forward backtests in backtest.ts, the record section's baselines and figures in record.ts.
 */
export { prepare, scan, regime, track } from './scan';
export { confluence } from './confluence';
export { outcomes } from './outcomes';
export { replayStats, replayRanks, replayRegimes, replayScan } from './replay';
export { optionGrid } from './options';
export { forecastModel } from './forecast';
export { recordConfidence, recordCuts, recordMatch, recordSection } from './record';
export { walkForward, backtestCrossSection, backtestRegimes, backtestCandidates, backtestEvaluate } from './backtest';

/** The health check's round trip: a thread of the pool started, loaded this module and answers. */
export function ping(): 'pong' {
  return 'pong';
}
