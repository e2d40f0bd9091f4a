/**
 * @module modules/signals/model/forecast
 * GET /api/forecast: its query and the quantile cone of the answer.
 */
import { t, type Static } from 'elysia';
import { DateParam, intParam, oneOf, PerformanceSchema, SymbolParam } from '../../shared/params';

/** Sessions of the forecast cone when `horizon` is absent. */
export const DEFAULT_HORIZON = 20;

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
