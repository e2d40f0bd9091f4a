/**
 * @module kernels/scoring
 * A signal's `finalScore` (0–100), `confidence` (0–1) and score band (DESIGN
 * §4: elite ≥ 85, strong ≥ 70, watchlist ≥ 55, ignore below). The score is a
 * weighted sum of components in [0, 1]; the weights are this one table (also
 * printed in the README):
 *
 * | component | weight | 1.0 means |
 * |---|---|---|
 * | patternQuality | 0.25 | the detector's own quality (depth, tightness, symmetry, volume dry-up) is ideal |
 * | breakoutVolume | 0.15 | breakout bar volume ≥ 2.5× its 50-bar average (0 at ≤ 1×) |
 * | rsRank | 0.20 | RS rank 99 (0 at 1); shorts use 100 − rank |
 * | trendTemplate | 0.15 | all 8 Minervini criteria met (longs); shorts: the mirror share |
 * | proximity | 0.10 | price at the pivot; 0 when 5% or more away either side |
 * | tightness | 0.10 | Bollinger width at the bottom of its 6-month range |
 * | regime | 0.05 | market regime favours the direction (risk_on for longs) |
 *
 * finalScore = 100 × Σ weight × component; missing inputs count 0.
 * `confidence` is the calibrated probability of a win given the components
 * and the direction (kernels/confidence: a logistic fit on the replayed real
 * history 2005–2016, judged on 2017–2024). The weights above are the
 * designed ones, not fitted: on the held-out years the fit found breakout
 * volume and tightness informative and the others near zero or negative
 * (README, "Calibration").
 */
import { SCORE_COMPONENTS, type Direction, type ScoreBand, type ScoreComponent } from '../domain/signal';
import { calibratedConfidence } from './confidence';

export const SCORE_WEIGHTS: Readonly<Record<ScoreComponent, number>> = {
  patternQuality: 0.25,
  breakoutVolume: 0.15,
  rsRank: 0.2,
  trendTemplate: 0.15,
  proximity: 0.1,
  tightness: 0.1,
  regime: 0.05,
};

export type ScoreComponents = Record<ScoreComponent, number | null>;

/** The floor of each band, best first. */
export const BAND_FLOORS: readonly (readonly [ScoreBand, number])[] = [
  ['elite', 85],
  ['strong', 70],
  ['watchlist', 55],
  ['ignore', -Infinity],
];

export function scoreBand(finalScore: number): ScoreBand {
  for (const [band, floor] of BAND_FLOORS) if (finalScore >= floor) return band;
  return 'ignore';
}

const unit = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

/** Breakout volume ratio → component: linear from 1× (0) to 2.5× (1). */
export const volumeComponent = (ratio: number | null) => (ratio === null || !Number.isFinite(ratio) ? null : unit((ratio - 1) / 1.5));
/** Distance of the close from the pivot in percent → component: 1 at the pivot, 0 at 5% away. */
export const proximityComponent = (distancePct: number | null) => (distancePct === null || !Number.isFinite(distancePct) ? null : unit(1 - Math.abs(distancePct) / 5));
/** Bollinger width percentile (0–100) → component: tight = 1. */
export const tightnessComponent = (percentile: number | null) => (percentile === null || !Number.isFinite(percentile) ? null : unit(1 - percentile / 100));

export interface Score {
  finalScore: number;
  confidence: number;
  band: ScoreBand;
  components: ScoreComponents;
}

/** The score of `components` for a signal in `direction` (the direction enters `confidence` only). */
export function score(components: ScoreComponents, direction: Direction = 'long'): Score {
  let total = 0;
  for (const key of SCORE_COMPONENTS) {
    const value = components[key];
    if (value === null || !Number.isFinite(value)) continue;
    total += SCORE_WEIGHTS[key] * unit(value);
  }
  const finalScore = Math.round(1000 * total) / 10;
  return {
    finalScore,
    confidence: calibratedConfidence(components, direction),
    band: scoreBand(finalScore),
    components,
  };
}
