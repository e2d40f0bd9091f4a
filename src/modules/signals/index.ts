/** @module modules/signals — the Signals tag: breakouts. */
import { Elysia } from 'elysia';
import type { Services } from '../../services';
import { jsonResponse, withErrors } from '../params';
import { confluenceOf } from './confluence';
import { DEFAULT_HORIZON, forecastOf } from './forecast';
import { signalHistory } from './history';
import { BreakoutsQuery, BreakoutsResponse, ConfluenceQuery, ConfluenceResponse, ForecastQuery, ForecastResponse, HistoryQuery, HistoryResponse, UniverseScanQuery, UniverseScanResponse } from './model';
import { breakoutsJson } from './service';
import { scanUniverse } from './universe';

export function signalsModule(services: Services) {
  return new Elysia({ name: 'breakline/signals' }).get('/api/breakouts', async ({ query }) => jsonResponse(await breakoutsJson(services, query)), {
    query: BreakoutsQuery,
    response: withErrors(BreakoutsResponse, 400, 404, 429, 500),
    detail: {
      tags: ['Signals'],
      summary: 'Ranked breakout signals',
      description:
        'Signals of the latest persisted universe scan of a timeframe, ranked by finalScore, with alert candidates, blocked alerts and their reasons, the thresholds, and the run history. `symbols` filters (symbols outside the universe are scanned on demand), `view=rollup` groups per symbol, `asOf` replays the scan as of a date without persisting. Envelope: `items`/`pagination` (rankedSignals holds the same page). 500 in the Error shape when the scan fails.',
    },
  })
    .get('/api/breakouts/history', ({ query }) => signalHistory(services.scans, query), {
      query: HistoryQuery,
      response: withErrors(HistoryResponse, 400, 429),
      detail: {
        tags: ['Signals'],
        summary: 'Signal history',
        description:
          'Every signal a persisted scan ever surfaced, newest first by detection time, with its recorded state changes; filter by symbol, pattern and timeframe. Envelope endpoint: keyset cursors over (detectedAt, id); `signals` holds the same page as `items`.',
      },
    })
    .get('/api/confluence', ({ query }) => confluenceOf(services, query), {
      query: ConfluenceQuery,
      response: withErrors(ConfluenceResponse, 400, 404, 429, 500),
      detail: {
        tags: ['Signals'],
        summary: 'Confluence of evidence',
        description:
          'How far independent evidence agrees on the next move of `symbol` at its latest bar (or `asOf`): trend (0.25), momentum (0.15), volume (0.15), volatility contraction (0.10), relative strength vs `benchmark` (0.15), the higher timeframe (0.10; weekly under daily, daily under 4h/1h) and active patterns (0.10), each with its value, vote (−1/0/+1) and weight; `score` −100..100, `direction`, `agreement`, `coverage`. `lookback` (≥ 1, default 20) is the window of the volume and relative-strength factors. 400 for a missing symbol, bad timeframe or lookback; 404 for an unknown symbol.',
      },
    })
    .get('/api/forecast', ({ query }) => forecastOf(services, query), {
      query: ForecastQuery,
      response: withErrors(ForecastResponse, 400, 404, 429, 500),
      detail: {
        tags: ['Signals'],
        summary: 'Price forecast cone',
        description: `Quantile price cone (5, 25, 50, 75, 95%) for each of the next \`horizon\` sessions (1–252, default ${DEFAULT_HORIZON}) from a daily volatility model fitted to the last five years of closes: \`model=garch\` (GARCH(1,1) by quasi-maximum likelihood with variance targeting; the default; EWMA when fewer than 250 returns, said in \`fallback\`) or \`model=ewma\` (RiskMetrics λ = 0.94). The cone is a driftless lognormal: a volatility forecast, not a directional call. \`calibration\` reports how often past cones from this symbol's own history held the realised move. \`activePattern\` is the symbol's best live daily setup, with the cone's probability of closing beyond its target and stop at the horizon; \`trackRecord\` the ledger's hit rate and R of that pattern (all symbols and this symbol). \`asOf\` replays with only the bars and outcomes known then. Exists under API-Version 1.0.0 and 1.1.0 (additive). 400 for a missing symbol or a bad horizon, model or asOf; 404 for an unknown symbol or fewer than 61 closes.`,
      },
    })
    .get('/api/universe/scan', ({ query }) => scanUniverse(services, query), {
      query: UniverseScanQuery,
      response: withErrors(UniverseScanResponse, 400, 429, 500),
      detail: {
        tags: ['Signals'],
        summary: 'Universe scan',
        description:
          'S&P 500, Nasdaq-100 and/or the 100 most liquid names ranked by IBD-style RS rank, with the Minervini trend template, 50-day average dollar volume, sector, the best live setup, and the market regime with its multiplier. Filters: minRsRank, minAvgVolUsd, limit (1–500).',
      },
    });
}
