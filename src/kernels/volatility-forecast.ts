/**
 * @module kernels/volatility-forecast
 * The model half of /api/forecast (modules/signals/forecast): the variance
 * model fitted to a symbol's daily closes (GARCH(1,1), or EWMA when asked or
 * when GARCH cannot be fitted), the variance filtered through the window, its
 * cumulative forecast over the horizon and the calibration of past cones. A
 * pure function of the closes, run by a worker thread (workers/forecast): the
 * GARCH fit and a calibration that walks every past close over the horizon
 * held the server's thread 25–50 ms per cold call (issue 27, bench/stall).
 */
import {
  coneCoverage,
  cumulativeVariance,
  ewmaModel,
  fitGarch11,
  logReturns,
  varianceFilter,
  type ConeCoverage,
  type Garch11,
  type VarianceModel,
} from './volatility';

/** GARCH needs this many returns, else EWMA is used and `fallback` says why. */
export const GARCH_MIN = 250;
/** First forecast origin checked by the calibration (the filter has warmed up by then). */
export const CALIBRATION_FROM = 60;
/** The calibration's bands: 5–95% and 25–75%. */
export const CALIBRATION_BANDS: readonly [number, number][] = [
  [0.05, 0.95],
  [0.25, 0.75],
];

export interface VolatilityForecastInput {
  /** The window's daily closes, oldest first. */
  close: Float64Array;
  horizon: number;
  model: 'garch' | 'ewma';
}

export interface VolatilityForecast {
  /** The fitted GARCH(1,1), or null when EWMA was used. */
  garch: Garch11 | null;
  /** Why GARCH was asked for and EWMA used, or null. */
  fallback: string | null;
  model: VarianceModel;
  /** The returns the model saw. */
  observations: number;
  /** The variance of the next return, known at the last close. */
  next: number;
  /** Σ of the expected variance over days 1..k, for k = 1..horizon. */
  variance: Float64Array;
  coverage: ConeCoverage;
}

export function volatilityForecast({ close, horizon, model: requested }: VolatilityForecastInput): VolatilityForecast {
  const returns = logReturns(close);
  let garch: Garch11 | null = null;
  let fallback: string | null = null;
  if (requested === 'garch') {
    if (returns.length < GARCH_MIN) fallback = `GARCH needs at least ${GARCH_MIN} daily returns; ${returns.length} available, EWMA used`;
    else {
      try {
        garch = fitGarch11(returns);
      } catch (error) {
        fallback = `the GARCH fit failed (${(error as Error).message}); EWMA used`;
      }
    }
  }
  const model: VarianceModel = garch ?? ewmaModel();
  const filtered = varianceFilter(model, returns);
  const next = filtered[filtered.length - 1]!;
  const variance = cumulativeVariance(model, next, horizon);
  const coverage = coneCoverage(close, filtered, model, horizon, CALIBRATION_FROM, CALIBRATION_BANDS);
  return { garch, fallback, model, observations: returns.length, next, variance, coverage };
}
