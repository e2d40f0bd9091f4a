/** @module modules/signals/model — schemas of the Signals tag. */
import { t, type Static } from 'elysia';
import { PATTERN_TYPES, RegimeReadingSchema, SignalSchema, TIMEFRAMES, TrendTemplateSchema } from '../../domain/signal';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { DEFAULT_BENCHMARK } from '../../providers/universe';
import { DateParam, intParam, numberParam, oneOf, PerformanceSchema, SYMBOL_PATTERN, SymbolParam, symbolParam } from '../shared/params';
import { bulkDocs, FormatParam } from '../shared/representations';

/** Bars of the windowed confluence factors when `lookback` is absent. */
export const DEFAULT_LOOKBACK = 20;
/** Sessions of the forecast cone when `horizon` is absent. */
export const DEFAULT_HORIZON = 20;

/** The timeframe parameter: one of the spec's three, `daily` when absent. */
const TimeframeParam = (description: string) => oneOf('timeframe', TIMEFRAMES, description, 'daily');

export const BreakoutsQuery = t.Object({
  symbols: t.Optional(
    t.String({
      pattern: `^${SYMBOL_PATTERN.slice(1, -1)}(,${SYMBOL_PATTERN.slice(1, -1)})*$`,
      description: 'Comma-separated symbols (default: the server-side universe); symbols outside it are scanned on demand',
      error: "Query parameter 'symbols' must be a comma-separated list of symbols matching ^[A-Za-z][A-Za-z0-9.-]{0,9}$",
    }),
  ),
  timeframe: TimeframeParam('Bar timeframe; default daily'),
  view: t.Optional(oneOf('view', ['rollup'] as const, 'rollup groups the signals per symbol into symbolRollups')),
  asOf: t.Optional(DateParam('asOf', 'Replay the scan as of this date (YYYY-MM-DD) using only bars up to it; nothing is persisted (additive)')),
  ...PageQuery,
});

/** The spec's BreakoutSignal with our documented extras (domain/signal declares it). */
export const BreakoutSignal = SignalSchema;

const AlertBlocked = t.Object({
  signal: BreakoutSignal,
  reasons: t.Array(t.String(), { description: 'Each reason in words, with its numbers' }),
  codes: t.Array(t.String(), { description: 'The same reasons as codes: extended | illiquid | regime | earnings | cooldown' }),
});

/** What a persisted run's summary holds (signals/service `summarize`). */
const RUN_SUMMARY_DOCS =
  'The latest persisted run: id, timeframe, asOf (the bar it stood on), startedAt, finishedAt, durationMs, symbolsScanned, signalsFound, status, source, ' +
  'and staleSeries: the series left out because their data ended more than one session of bars before asOf ({symbol, lastBar, barsBehind}; null on runs stored before it was recorded)';

/** What the latest run says as a whole (the same on every page), by the `include=` group each field is in. */
const RUN_LEVEL = {
  regime: t.Union([RegimeReadingSchema, t.Null()], { description: 'The market regime of the run (kernels/regime), null when it could not be read' }),
  alertCandidates: t.Array(BreakoutSignal),
  alertBlocked: t.Array(AlertBlocked),
  alertThresholds: t.Record(t.String(), t.Any()),
  alertSummary: t.Record(t.String(), t.Any()),
  latestPersistedRun: t.Union([t.Record(t.String(), t.Any()), t.Null()], { description: RUN_SUMMARY_DOCS }),
  runHistory: t.Array(t.Record(t.String(), t.Any()), { description: `The newest persisted runs, newest first, each as latestPersistedRun` }),
};

const PAGE_LEVEL = {
  generatedAt: t.String({ format: 'date-time' }),
  rankedSignals: t.Array(BreakoutSignal, { description: 'This page of the ranking (by finalScore, best first); the same list as items. In the rollup view: the best signal of each symbol of the page' }),
  view: t.Optional(t.Literal('rollup')),
  symbolRollups: t.Optional(t.Array(t.Record(t.String(), t.Any()), { description: 'In the rollup view: this page of the symbols, each {symbol, bestSignal, count, patterns}' })),
  asOf: t.Optional(t.String({ format: 'date-time' })),
  items: t.Array(BreakoutSignal),
  pagination: PageMetaSchema,
};

/** /api/breakouts as a value, every field present (GraphQL's `breakouts`: a client there selects the fields it reads). */
export const BreakoutsResponse = t.Object(
  {
    generatedAt: PAGE_LEVEL.generatedAt,
    rankedSignals: PAGE_LEVEL.rankedSignals,
    alertCandidates: RUN_LEVEL.alertCandidates,
    alertBlocked: RUN_LEVEL.alertBlocked,
    alertThresholds: RUN_LEVEL.alertThresholds,
    alertSummary: RUN_LEVEL.alertSummary,
    latestPersistedRun: RUN_LEVEL.latestPersistedRun,
    runHistory: RUN_LEVEL.runHistory,
    view: PAGE_LEVEL.view,
    symbolRollups: PAGE_LEVEL.symbolRollups,
    asOf: PAGE_LEVEL.asOf,
    regime: RUN_LEVEL.regime,
    items: PAGE_LEVEL.items,
    pagination: PAGE_LEVEL.pagination,
  },
  { title: 'BreakoutsResponse' },
);

/**
 * A REST page of /api/breakouts (issue 31): the spec's required keys
 * (generatedAt, rankedSignals) and the envelope on every page; the run-level
 * fields, all optional in the spec, as `include` says.
 */
export const BreakoutsPage = t.Object(
  {
    ...PAGE_LEVEL,
    regime: t.Optional(RUN_LEVEL.regime),
    alertCandidates: t.Optional(RUN_LEVEL.alertCandidates),
    alertBlocked: t.Optional(RUN_LEVEL.alertBlocked),
    alertThresholds: t.Optional(RUN_LEVEL.alertThresholds),
    alertSummary: t.Optional(RUN_LEVEL.alertSummary),
    latestPersistedRun: t.Optional(RUN_LEVEL.latestPersistedRun),
    runHistory: t.Optional(RUN_LEVEL.runHistory),
  },
  {
    title: 'BreakoutsResponse',
    description:
      'The run-level fields (regime; alertCandidates, alertBlocked, alertThresholds, alertSummary; latestPersistedRun, runHistory) are on the first page (no cursor, offset 0) and, past it, only when `include` names their group (regime, alerts, runs); `include` decides on every page when given',
  },
);

export const RUN_GROUPS = ['alerts', 'runs', 'regime'] as const;
export type RunGroup = (typeof RUN_GROUPS)[number];

/** The REST query: the shared one (GraphQL's arguments) and `include`, which only a page of REST needs (GraphQL selects fields). */
export const BreakoutsRouteQuery = t.Object({
  ...BreakoutsQuery.properties,
  include: t.Optional(
    t.String({
      pattern: '^(none|(alerts|runs|regime)(,(alerts|runs|regime))*)$',
      description: 'Run-level groups to carry on this page, comma-separated: alerts, runs, regime, or none; default all on the first page and none past it',
      examples: ['alerts,runs'],
      error: "Query parameter 'include' must be none, or a comma-separated list of: alerts, runs, regime",
    }),
  ),
});

export type BreakoutsPage = Static<typeof BreakoutsPage>;
export type BreakoutsRouteQuery = Static<typeof BreakoutsRouteQuery>;
export type BreakoutsQuery = Static<typeof BreakoutsQuery>;
export type BreakoutsResponse = Static<typeof BreakoutsResponse>;

export const HistoryQuery = t.Object({
  symbol: t.Optional(
    t.Transform(t.String({ pattern: SYMBOL_PATTERN, description: 'Only this symbol', error: `Query parameter 'symbol' must match ${SYMBOL_PATTERN}` }))
      .Decode((v) => v.toUpperCase())
      .Encode((v) => v),
  ),
  pattern: t.Optional(oneOf('pattern', PATTERN_TYPES, 'Only this pattern type')),
  timeframe: t.Optional(oneOf('timeframe', TIMEFRAMES, 'Only this timeframe')),
  ...PageQuery,
});

export const StateChange = t.Object({
  from: t.Union([t.String(), t.Null()]),
  to: t.String(),
  price: t.Number(),
  at: t.String({ format: 'date-time', description: 'Bar time of the change' }),
  recordedAt: t.String({ format: 'date-time' }),
  runId: t.String(),
});

export const HistorySignal = t.Composite(
  [
    t.Object({
      id: t.String(),
      symbol: t.String(),
      timeframe: t.String(),
      patternFamily: t.String(),
      patternType: t.String(),
      direction: t.String(),
      trendRegime: t.String(),
      breakoutState: t.String(),
      triggerPrice: t.Number(),
      target1: t.Number(),
      stopLoss: t.Union([t.Number(), t.Null()]),
      finalScore: t.Number(),
      confidence: t.Number(),
      scoreBand: t.String(),
      reasons: t.Array(t.String()),
      detectedAt: t.String({ format: 'date-time' }),
      source: t.String(),
      firstRunId: t.String(),
      lastSeenRunId: t.String(),
    }),
    t.Object({ stateHistory: t.Array(StateChange, { description: 'Every recorded state change, oldest first' }) }),
  ],
  { title: 'HistorySignal' },
);

export const HistoryResponse = t.Object(
  {
    signals: t.Array(HistorySignal, { description: 'The page (same as items)' }),
    filters: t.Object({ symbol: t.Union([t.String(), t.Null()]), pattern: t.Union([t.String(), t.Null()]), timeframe: t.Union([t.String(), t.Null()]) }),
    items: t.Array(HistorySignal),
    pagination: PageMetaSchema,
  },
  { title: 'BreakoutHistoryResponse' },
);

export type HistoryQuery = Static<typeof HistoryQuery>;

/** The CSV columns of the history: a signal's fields in their JSON order; `reasons` and `stateHistory` are JSON text in their cells. */
export const HISTORY_CSV_COLUMNS = [
  'id', 'symbol', 'timeframe', 'patternFamily', 'patternType', 'direction', 'trendRegime', 'breakoutState', 'triggerPrice', 'target1', 'stopLoss',
  'finalScore', 'confidence', 'scoreBand', 'reasons', 'detectedAt', 'source', 'firstRunId', 'lastSeenRunId', 'stateHistory',
] as const satisfies readonly (keyof Static<typeof HistorySignal>)[];

/** The route's query: the history's (GraphQL's arguments too) and the representation. */
export const HistoryRouteQuery = t.Composite([HistoryQuery, t.Object({ format: t.Optional(FormatParam('signal')) })]);
export type HistoryRouteQuery = Static<typeof HistoryRouteQuery>;
export type HistoryResponse = Static<typeof HistoryResponse>;

export const UNIVERSE_SOURCES = ['sp500', 'nasdaq100', 'high_liquidity'] as const;

export const UniverseScanQuery = t.Object({
  source: t.String({
    pattern: '^(sp500|nasdaq100|high_liquidity)(,(sp500|nasdaq100|high_liquidity))*$',
    default: 'sp500',
    description: 'Comma-separated universes: sp500, nasdaq100, high_liquidity (top 100 of S&P 500 ∪ Nasdaq-100 by 50-day dollar volume); default sp500',
    error: "Query parameter 'source' must be a comma-separated list of: sp500, nasdaq100, high_liquidity",
  }),
  benchmark: symbolParam('benchmark', DEFAULT_BENCHMARK, 'Broad-market benchmark of the regime'),
  minRsRank: numberParam('minRsRank', { minimum: 0, maximum: 99 }, 0, 'Minimum RS rank (1–99)'),
  limit: intParam('limit', 1, 500, 50, 'Rows'),
  minAvgVolUsd: numberParam('minAvgVolUsd', { minimum: 0 }, 200_000_000, 'Minimum 50-day average dollar volume, USD'),
});

export const UniverseRow = t.Object({
  symbol: t.String(),
  name: t.String(),
  sector: t.Union([t.String(), t.Null()]),
  indices: t.Array(t.String()),
  price: t.Number(),
  rsRank: t.Union([t.Integer(), t.Null()]),
  rsScore: t.Union([t.Number(), t.Null()], { description: '0.4·ROC63 + 0.2·(ROC126 + ROC189 + ROC252)' }),
  avgDollarVolume: t.Number({ description: '50-day average of close × volume, USD' }),
  trendTemplate: TrendTemplateSchema,
  trendRegime: t.String(),
  bestSetup: t.Union([BreakoutSignal, t.Null()], { description: 'The highest-scoring live setup, or null' }),
});

export const UniverseScanResponse = t.Object(
  {
    ok: t.Boolean(),
    generatedAt: t.String({ format: 'date-time' }),
    asOf: t.String({ format: 'date-time' }),
    source: t.String(),
    benchmark: t.String(),
    universeSize: t.Integer({ description: 'Symbols in the chosen universes before filters' }),
    count: t.Integer(),
    filters: t.Object({ minRsRank: t.Number(), minAvgVolUsd: t.Number(), limit: t.Integer() }),
    regime: t.Union([RegimeReadingSchema, t.Null()], { description: 'The market regime of the run (kernels/regime), null when it could not be read' }),
    regimeMultiplier: t.Number(),
    method: t.String(),
    ranked: t.Array(UniverseRow),
  },
  { title: 'UniverseScanResponse' },
);

export type UniverseScanQuery = Static<typeof UniverseScanQuery>;
export type UniverseScanResponse = Static<typeof UniverseScanResponse>;

export const ConfluenceQuery = t.Object({
  symbol: SymbolParam,
  timeframe: TimeframeParam('Bar timeframe; default daily'),
  lookback: t.Integer({
    minimum: 1,
    default: DEFAULT_LOOKBACK,
    description: `Bars in the windowed factors (volume, relative strength); default ${DEFAULT_LOOKBACK}; longer than the history is clamped`,
    error: "Query parameter 'lookback' must be an integer of at least 1",
  }),
  benchmark: symbolParam('benchmark', DEFAULT_BENCHMARK, 'Benchmark of the relative-strength factor (additive)'),
  asOf: t.Optional(DateParam('asOf', 'Evaluate at the last bar on or before this date, using only bars up to it (additive)')),
});
export type ConfluenceQuery = Static<typeof ConfluenceQuery>;

const ConfluenceFactor = t.Object({
  name: t.String({ description: 'trend | momentum | volume | volatilityContraction | relativeStrength | higherTimeframe | activePatterns' }),
  value: t.Union([t.Number(), t.Null()], { description: 'The number the vote rests on, null without evidence' }),
  vote: t.Union([t.Literal(-1), t.Literal(0), t.Literal(1)]),
  weight: t.Number(),
  detail: t.String({ description: 'The reading in words, with its numbers' }),
});

export const ConfluenceResponse = t.Object(
  {
    ok: t.Boolean(),
    symbol: t.String(),
    timeframe: t.Union(TIMEFRAMES.map((v) => t.Literal(v))),
    asOf: t.String({ format: 'date-time', description: 'Time of the bar evaluated' }),
    benchmark: t.String(),
    higherTimeframe: t.Union([t.Literal('weekly'), t.Literal('daily')]),
    lookback: t.Object({ requested: t.Integer(), effective: t.Integer() }),
    bars: t.Integer({ description: 'Bars of history read' }),
    score: t.Number({ description: '−100..100' }),
    direction: t.Union([t.Literal('bullish'), t.Literal('bearish'), t.Literal('neutral')]),
    agreement: t.Number({ description: '0..1' }),
    coverage: t.Number({ description: '0..1' }),
    factors: t.Array(ConfluenceFactor),
    method: t.Object(
      {
        score: t.String(),
        direction: t.String(),
        agreement: t.String(),
        coverage: t.String(),
        weights: t.Object(
          { trend: t.Number(), momentum: t.Number(), volume: t.Number(), volatilityContraction: t.Number(), relativeStrength: t.Number(), higherTimeframe: t.Number(), activePatterns: t.Number() },
          { description: "Each factor's weight (kernels/confluence CONFLUENCE_WEIGHTS; they sum to 1)" },
        ),
        lookback: t.String(),
        noLookAhead: t.String(),
      },
      { description: 'How each figure is computed, in words' },
    ),
  },
  { title: 'ConfluenceResponse', additionalProperties: true },
);
export type ConfluenceResponse = Static<typeof ConfluenceResponse>;

export const FORECAST_MODELS = ['garch', 'ewma'] as const;

export const ForecastQuery = t.Object({
  symbol: SymbolParam,
  horizon: intParam('horizon', 1, 252, DEFAULT_HORIZON, 'Trading days ahead'),
  model: oneOf('model', FORECAST_MODELS, 'Volatility model: garch (GARCH(1,1), the default) or ewma (RiskMetrics λ = 0.94)', 'garch'),
  asOf: t.Optional(DateParam('asOf', 'Forecast from the last close on or before this date, using only bars and ledger outcomes known by then (additive)')),
});
export type ForecastQuery = Static<typeof ForecastQuery>;

const Price = t.Number();
const ConePoint = t.Object(
  {
    day: t.Integer({ description: 'Trading days ahead' }),
    date: t.String({ format: 'date', description: 'The session (NYSE calendar)' }),
    p5: Price,
    p25: Price,
    p50: Price,
    p75: Price,
    p95: Price,
  },
  { title: 'ForecastConePoint' },
);

const Num = (description?: string) => t.Union([t.Number(), t.Null()], { description });

export const ForecastResponse = t.Object(
  {
    ok: t.Boolean(),
    symbol: t.String(),
    asOf: t.String({ format: 'date', description: 'Session of the last close used' }),
    price: t.Number({ description: 'That close' }),
    horizon: t.Integer({ description: 'Trading days ahead' }),
    model: t.Union([t.Literal('garch'), t.Literal('ewma')], { description: 'The model used' }),
    requestedModel: t.Union([t.Literal('garch'), t.Literal('ewma')]),
    fallback: t.Union([t.String(), t.Null()], { description: 'Why the requested model was not used, or null' }),
    volatility: t.Object({
      daily: t.Number({ description: 'Forecast σ of tomorrow’s log return' }),
      annualized: t.Number({ description: 'daily × √252' }),
      horizon: t.Number({ description: 'σ of the log return over the horizon, √V_h' }),
      horizonAnnualized: t.Number({ description: 'Average annualised volatility over the horizon, √(252 · V_h / h)' }),
      longRunDaily: Num('GARCH long-run σ √(ω / (1 − α − β)); null for EWMA'),
      params: t.Object({
        omega: t.Number(),
        alpha: t.Number(),
        beta: t.Number(),
        persistence: t.Number({ description: 'α + β' }),
        halfLifeDays: Num('Days for a variance shock to halve; null for EWMA (no mean reversion)'),
        lambda: Num('EWMA decay; null for GARCH'),
      }),
      observations: t.Integer({ description: 'Daily returns used' }),
      logLikelihood: Num('Gaussian log-likelihood of the GARCH fit; null for EWMA'),
    }),
    quantiles: t.Object({ p5: Price, p25: Price, p50: Price, p75: Price, p95: Price }, { description: 'At the horizon (the cone’s last point)' }),
    cone: t.Array(ConePoint, { description: 'Quantiles for each day 1..horizon' }),
    calibration: t.Object({
      windows: t.Integer({ description: 'Past forecast origins checked (overlapping horizon windows)' }),
      band90: Num('Share of realised horizon moves inside the 5–95% band'),
      band50: Num('Share inside the 25–75% band'),
      outOfSample: t.Boolean({ description: 'True for EWMA; GARCH parameters are fitted on the same window (in-sample)' }),
    }),
    activePattern: t.Union([
      t.Object({
        patternType: t.String(),
        patternFamily: t.String(),
        direction: t.Union([t.Literal('long'), t.Literal('short')]),
        state: t.String(),
        finalScore: t.Number(),
        scoreBand: t.String(),
        detectedAt: t.String({ format: 'date-time' }),
        pivot: t.Number(),
        target1: t.Number(),
        stopLoss: t.Number(),
        probabilityBeyondTarget: t.Number({ description: 'P(close at the horizon beyond target1 in the trade’s direction), from the cone' }),
        probabilityBeyondStop: t.Number({ description: 'P(close at the horizon beyond the stop)' }),
      }),
      t.Null(),
    ], { description: 'The highest-scoring live setup of the symbol on the daily scan at asOf, or null' }),
    trackRecord: t.Union([
      t.Object({
        patternType: t.String(),
        direction: t.String(),
        timeframe: t.Literal('daily'),
        knownAt: t.String({ format: 'date-time', description: 'Signals detected and outcomes exited by then' }),
        pattern: PerformanceSchema,
        symbol: PerformanceSchema,
      }),
      t.Null(),
    ], { description: 'Ledger figures of the active pattern (all symbols, and this symbol alone); null without an active pattern' }),
    method: t.Object(
      {
        returns: t.String(),
        ewma: t.String(),
        garch: t.String(),
        horizon: t.String(),
        cone: t.String(),
        calibration: t.String(),
        activePattern: t.String(),
        trackRecord: t.String(),
        noLookAhead: t.String(),
      },
      { description: 'How each figure is computed, in words' },
    ),
  },
  { title: 'ForecastResponse' },
);
export type ForecastResponse = Static<typeof ForecastResponse>;

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
