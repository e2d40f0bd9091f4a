/**
 * @module kernels/confidence
 * A signal's `confidence`: the probability that the ledger records a win —
 * target1 reached before the stop while the lifecycle holds (kernels/outcome)
 * — given its score components and direction. A logistic regression fitted
 * by bench/calibration on the replayed real history (DESIGN §4; the method
 * and the out-of-sample record are in the README, "Calibration"):
 *
 * ```
 * confidence = 1 / (1 + e^−z),  z = intercept + Σ coefficient[c] × component[c] + short × [direction = short]
 * ```
 *
 * A missing component counts 0, as in the score. Fitted on the 204,098
 * entered trades detected 2005-01-03 .. 2016-12-30 (S&P 500 members of each
 * date that shared/data's daily_yf_dieperdev has, SPY benchmark; ridge
 * λ = 1 on the slopes); judged on the 180,221 detected 2017-01-03 ..
 * 2024-03-08: Brier 0.1857 against 0.1888 for the training base rate (25.6%)
 * predicted for all, skill +0.017 — a small edge, honestly reported. The
 * confidence it replaced (the covered weight share × agreement) predicted
 * 55–77% where 23–29% were won (skill −0.84).
 *
 * `test/real/jobs/calibration.test.ts` refits this table from the data.
 *
 * @example
 * calibratedConfidence({ patternQuality: 1, breakoutVolume: 1, rsRank: 1, trendTemplate: 1, proximity: 1, tightness: 1, regime: 1 }, 'long'); // => 0.44 (z = −0.2424)
 */
import type { Direction, ScoreComponent } from '../domain/signal';
import { sigmoid } from './stats/calibration';

/** The fitted table (bench/calibration, `ledgerLabel.logistic`), with what it was fitted on. */
export const CONFIDENCE_FIT = {
  method: 'logistic regression (Newton–Raphson, ridge λ = 1 on the slopes) of the ledger outcome win (1) vs loss or scratch (0) of entered trades',
  fittedOn: { from: '2005-01-03', to: '2016-12-30', trades: 204_098, baseRate: 0.2557 },
  data: 'shared/data daily_yf_dieperdev (split-adjusted daily bars to 2024-03-08), S&P 500 members of each date (fja05680/sp500) that the data has, SPY (daily_marketlab) as benchmark',
  intercept: -1.119817,
  coefficients: {
    patternQuality: -0.097418,
    breakoutVolume: 0.690832,
    rsRank: -0.005076,
    trendTemplate: -0.011702,
    proximity: -0.148469,
    tightness: 0.506401,
    regime: -0.05713,
  } satisfies Record<ScoreComponent, number>,
  short: -0.418196,
} as const;

/** The calibrated probability of a win (see the module comment), rounded to 2 decimals as `confidence` is published. */
export function calibratedConfidence(components: Readonly<Record<ScoreComponent, number | null>>, direction: Direction): number {
  let z = CONFIDENCE_FIT.intercept + (direction === 'short' ? CONFIDENCE_FIT.short : 0);
  for (const [name, coefficient] of Object.entries(CONFIDENCE_FIT.coefficients) as [ScoreComponent, number][]) {
    const v = components[name];
    if (v !== null && Number.isFinite(v)) z += coefficient * Math.min(1, Math.max(0, v));
  }
  return Math.round(100 * sigmoid(z)) / 100;
}
