/**
 * @module modules/signals/model/docs
 * OpenAPI text of the Signals routes.
 */
import { bulkDocs } from '../../shared/representations';
import { HISTORY_CSV_COLUMNS } from './history';
import { DEFAULT_HORIZON } from './forecast';

/** OpenAPI text of the Signals routes. */
export const SIGNALS_DOCS = {
  breakouts: {
    tags: ['Signals'],
    summary: 'Ranked breakout signals',
    description:
      'Signals of the latest persisted universe scan of a timeframe, ranked by finalScore, with alert candidates, blocked alerts and their reasons, the thresholds, and the run history. `symbols` filters (symbols outside the universe are scanned on demand), `view=rollup` groups per symbol (and pages the symbols: `pagination` counts them, `rankedSignals`/`items` are each group’s best signal), `asOf` replays the scan as of a date without persisting. Envelope: `items`/`pagination` (rankedSignals holds the same page), and a `Link` header to the next, previous and first pages. The run-level fields (regime, alert lists and thresholds, latestPersistedRun, runHistory) are on the first page; past it only those `include` names. 500 in the Error shape when the scan fails.',
  },
  history: {
    tags: ['Signals'],
    summary: 'Signal history',
    description:
      'Every signal a persisted scan ever surfaced, newest first by detection time, with its recorded state changes; filter by symbol, pattern and timeframe. Envelope endpoint: keyset cursors over (detectedAt, id); `signals` holds the same page as `items`. Additive: CSV (one row per signal of the page; `reasons` and `stateHistory` as JSON text) or NDJSON (one HistorySignal per line) by Accept or format=, with the same Link header.',
    'x-responses': bulkDocs({
      json: 'A page of the history (BreakoutHistoryResponse)',
      csv: `A header row (${HISTORY_CSV_COLUMNS.join(',')}), then one row per signal of the page, CRLF line ends; reasons and stateHistory are JSON text`,
      ndjson: 'One HistorySignal JSON object per line (LF)',
    }),
  },
  confluence: {
    tags: ['Signals'],
    summary: 'Confluence of evidence',
    description:
      'How far independent evidence agrees on the next move of `symbol` at its latest bar (or `asOf`): trend (0.25), momentum (0.15), volume (0.15), volatility contraction (0.10), relative strength vs `benchmark` (0.15), the higher timeframe (0.10; weekly under daily, daily under 4h/1h) and active patterns (0.10), each with its value, vote (−1/0/+1) and weight; `score` −100..100, `direction`, `agreement`, `coverage`. `lookback` (≥ 1, default 20) is the window of the volume and relative-strength factors. 400 for a missing symbol, bad timeframe or lookback; 404 for an unknown symbol.',
  },
  forecast: {
    tags: ['Signals'],
    summary: 'Price forecast cone',
    description:
      `Quantile price cone (5, 25, 50, 75, 95%) for each of the next \`horizon\` sessions (1–252, default ${DEFAULT_HORIZON}) from a daily volatility model fitted to the last five years of closes: \`model=garch\` (GARCH(1,1) by quasi-maximum likelihood with variance targeting; the default; EWMA when fewer than 250 returns, said in \`fallback\`) or \`model=ewma\` (RiskMetrics λ = 0.94). The cone is a driftless lognormal: a volatility forecast, not a directional call. \`calibration\` reports how often past cones from this symbol's own history held the realised move. \`activePattern\` is the symbol's best live daily setup, with the cone's probability of closing beyond its target and stop at the horizon; \`trackRecord\` the ledger's hit rate and R of that pattern (all symbols and this symbol). \`asOf\` replays with only the bars and outcomes known then. Exists under API-Version 1.0.0 and 1.1.0 (additive). 400 for a missing symbol or a bad horizon, model or asOf; 404 for an unknown symbol or fewer than 61 closes.`,
  },
  universe: {
    tags: ['Signals'],
    summary: 'Universe scan',
    description:
      'S&P 500, Nasdaq-100 and/or the 100 most liquid names ranked by IBD-style RS rank, with the Minervini trend template, 50-day average dollar volume, sector, the best live setup, and the market regime with its multiplier. Filters: minRsRank, minAvgVolUsd, limit (1–500).',
  },
};
