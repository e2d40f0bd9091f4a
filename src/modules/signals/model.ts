/** @module modules/signals/model — schemas of the Signals tag. */
import { t, type Static } from 'elysia';
import { PATTERN_TYPES } from '../../kernels/patterns/types';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { DateParam, intParam, oneOf, PerformanceSchema, SYMBOL_PATTERN, SymbolParam } from '../params';

export const TIMEFRAMES = ['daily', '4h', '1h'] as const;

export const BreakoutsQuery = t.Object({
  symbols: t.Optional(
    t.String({
      pattern: `^${SYMBOL_PATTERN.slice(1, -1)}(,${SYMBOL_PATTERN.slice(1, -1)})*$`,
      description: 'Comma-separated symbols (default: the server-side universe); symbols outside it are scanned on demand',
      error: "Query parameter 'symbols' must be a comma-separated list of symbols matching ^[A-Za-z][A-Za-z0-9.-]{0,9}$",
    }),
  ),
  timeframe: t.Optional(oneOf('timeframe', TIMEFRAMES, 'Bar timeframe; default daily')),
  view: t.Optional(oneOf('view', ['rollup'] as const, 'rollup groups the signals per symbol into symbolRollups')),
  asOf: t.Optional(DateParam('asOf', 'Replay the scan as of this date (YYYY-MM-DD) using only bars up to it; nothing is persisted (additive)')),
  ...PageQuery,
});

export const BreakoutSignal = t.Object(
  {
    id: t.String({ description: 'SYMBOL-pattern-detectedAt' }),
    symbol: t.String(),
    timeframe: t.Union(TIMEFRAMES.map((v) => t.Literal(v))),
    patternFamily: t.String(),
    patternType: t.String(),
    direction: t.Union([t.Literal('long'), t.Literal('short')]),
    trendRegime: t.String({ description: 'uptrend | downtrend | sideways' }),
    breakoutState: t.String({ description: 'forming | triggered | confirmed | target_hit | stopped | failed | expired' }),
    triggerPrice: t.Number(),
    target1: t.Number(),
    stopLoss: t.Union([t.Number(), t.Null()]),
    finalScore: t.Number({ minimum: 0, maximum: 100 }),
    confidence: t.Number({ minimum: 0, maximum: 1 }),
    scoreBand: t.String({ description: 'elite ≥ 85, strong ≥ 70, watchlist ≥ 55, ignore' }),
    reasons: t.Array(t.String()),
    detectedAt: t.String({ format: 'date-time' }),
  },
  { title: 'BreakoutSignal', additionalProperties: true },
);

export const BreakoutsResponse = t.Object(
  {
    generatedAt: t.String({ format: 'date-time' }),
    rankedSignals: t.Array(BreakoutSignal, { description: 'This page of the ranking (by finalScore, best first); the same list as items' }),
    alertCandidates: t.Array(BreakoutSignal),
    alertBlocked: t.Array(t.Object({ signal: BreakoutSignal, reasons: t.Array(t.String()) })),
    alertThresholds: t.Record(t.String(), t.Any()),
    alertSummary: t.Record(t.String(), t.Any()),
    latestPersistedRun: t.Union([t.Record(t.String(), t.Any()), t.Null()]),
    runHistory: t.Array(t.Record(t.String(), t.Any())),
    view: t.Optional(t.Literal('rollup')),
    symbolRollups: t.Optional(t.Array(t.Record(t.String(), t.Any()))),
    asOf: t.Optional(t.String({ format: 'date-time' })),
    regime: t.Union([t.Record(t.String(), t.Any()), t.Null()]),
    items: t.Array(BreakoutSignal),
    pagination: PageMetaSchema,
  },
  { title: 'BreakoutsResponse' },
);

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
export type HistoryResponse = Static<typeof HistoryResponse>;

export const UNIVERSE_SOURCES = ['sp500', 'nasdaq100', 'high_liquidity'] as const;

export const UniverseScanQuery = t.Object({
  source: t.Optional(
    t.String({
      pattern: '^(sp500|nasdaq100|high_liquidity)(,(sp500|nasdaq100|high_liquidity))*$',
      description: 'Comma-separated universes: sp500, nasdaq100, high_liquidity (top 100 of S&P 500 ∪ Nasdaq-100 by 50-day dollar volume); default sp500',
      error: "Query parameter 'source' must be a comma-separated list of: sp500, nasdaq100, high_liquidity",
    }),
  ),
  benchmark: t.Optional(
    t.Transform(t.String({ pattern: SYMBOL_PATTERN, description: 'Broad-market benchmark of the regime; default SPY', error: `Query parameter 'benchmark' must match ${SYMBOL_PATTERN}` }))
      .Decode((v) => v.toUpperCase())
      .Encode((v) => v),
  ),
  minRsRank: t.Optional(t.Number({ minimum: 0, maximum: 99, description: 'Minimum RS rank (1–99); default 0', error: "Query parameter 'minRsRank' must be a number from 0 to 99" })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, description: '1..500, default 50', error: "Query parameter 'limit' must be an integer from 1 to 500" })),
  minAvgVolUsd: t.Optional(t.Number({ minimum: 0, description: 'Minimum 50-day average dollar volume; default 200000000', error: "Query parameter 'minAvgVolUsd' must be a number ≥ 0" })),
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
  trendTemplate: t.Object({ passed: t.Boolean(), met: t.Integer(), failed: t.Array(t.String()) }),
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
    regime: t.Union([t.Record(t.String(), t.Any()), t.Null()]),
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
  timeframe: t.Optional(oneOf('timeframe', TIMEFRAMES, 'Bar timeframe; default daily')),
  lookback: t.Optional(
    t.Integer({ minimum: 1, description: 'Bars in the windowed factors (volume, relative strength); default 20; longer than the history is clamped', error: "Query parameter 'lookback' must be an integer of at least 1" }),
  ),
  benchmark: t.Optional(
    t.String({ pattern: SYMBOL_PATTERN, description: 'Benchmark of the relative-strength factor (additive); default SPY', error: `Query parameter 'benchmark' must be a symbol matching ${SYMBOL_PATTERN}` }),
  ),
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
    method: t.Record(t.String(), t.Unknown()),
  },
  { additionalProperties: true },
);
export type ConfluenceResponse = Static<typeof ConfluenceResponse>;

export const FORECAST_MODELS = ['garch', 'ewma'] as const;

export const ForecastQuery = t.Object({
  symbol: SymbolParam,
  horizon: intParam('horizon', 1, 252, 20, 'Trading days ahead'),
  model: t.Optional(oneOf('model', FORECAST_MODELS, 'Volatility model: garch (GARCH(1,1), the default) or ewma (RiskMetrics λ = 0.94)')),
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
    method: t.Record(t.String(), t.String()),
  },
  { title: 'ForecastResponse' },
);
export type ForecastResponse = Static<typeof ForecastResponse>;
