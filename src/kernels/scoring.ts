/**
 * @module kernels/scoring
 * A signal's `finalScore` (0–100), `confidence` (0–1) and score band (DESIGN
 * §4: elite ≥ 85, strong ≥ 70, watchlist ≥ 55, ignore below). The score is
 * fitted, not designed: a monotone mapping of what the replayed real history
 * 2005–2016 says a setup like this one earns (the table is
 * `kernels/score-table`, written by `bench/calibration --fit-score`; the
 * method and the out-of-sample record 2017–2024 are in docs/calibration.md).
 *
 * Features x: those the table names (`ScoreTable.features`, a subset of
 * `FEATURE_NAMES`: the seven score components in [0, 1] (a missing one counts
 * 0), 1 for a short, one indicator per pattern type (flat_base is the
 * reference), short × each component). From them, fitted on the training trades:
 *
 * ```
 * P(win)   = σ(w₀ + w·x)      logistic, ridge λ = 1 (the published `confidence`)
 * P(loss)  = σ(l₀ + l·x)      logistic, ridge λ = 1
 * R_scr(x) = s₀ + s·x         ridge regression (λ = 1) of R over the scratched trades
 * E[R]     = P(win)·R̄_win(cell) + P(loss)·R̄_loss(cell) + (1 − P(win) − P(loss))·R_scr(x)
 * e, w     = F_E(E[R]), F_W(P(win))     F: training CDFs (101 percentile knots, linear between)
 * u        = rank rule of the table: min(e, w) | (e + w)/2 | e (`expectedR`) | w (`pWin`)
 * finalScore = g(F_U(u))      g piecewise linear through (0, 0), (s₁, 55), (s₂, 70), (s₃, 85), (1, 100)
 * ```
 *
 * with (s₁, s₂, s₃) the table's `bandShares`: the band floors sit at those
 * training percentiles of u. `confidence` is P(win) rounded to 2 decimals: the
 * calibrated probability that the ledger records a win (target1 before the
 * stop while the lifecycle holds, kernels/outcome).
 *
 * R̄_win and R̄_loss are the training mean R of wins and losses of the
 * (pattern, direction) cell. The table in the code ranks by the lower of the
 * two percentiles (`min`) with the floors at the training 65th, 90th and 98th
 * percentiles of u: a setup is elite only when the lower of its two
 * percentiles is in the training top 2% of u (both at least 0.925 in this
 * table), strong in the top 10%, watchlist in the top 35%; a high E[R] with a
 * low P(win) (or the reverse) scores low, and a pattern or direction that
 * earned nothing in training scores low whatever its components. bench/score-select chose
 * another form on 2005–2012 → 2013–2016; it did worse on 2017–2024 and was not
 * adopted (docs/calibration.md).
 */
import { PATTERN_TYPES, SCORE_COMPONENTS, type Direction, type PatternType, type ScoreBand, type ScoreComponent } from '../domain/signal';
import { SCORE_TABLE } from './score-table';
import { sigmoid } from './stats/calibration';

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

/**
 * Every feature the model may read, by name: the seven components, `short`,
 * one indicator per pattern type (flat_base is the reference) and the
 * direction × component terms `short×<component>`. A table names the ones it
 * was fitted on (`ScoreTable.features`).
 */
export const FEATURE_NAMES: readonly string[] = [...SCORE_COMPONENTS, 'short', ...PATTERN_TYPES.slice(1).map((p) => `pattern:${p}`), ...SCORE_COMPONENTS.map((c) => `short×${c}`)];

type Components = Readonly<Record<ScoreComponent, number | null>> | readonly number[];

/** The value of every feature of FEATURE_NAMES for a setup, in that order (components clipped to [0, 1], a missing one 0). */
export function allFeatures(components: Components, direction: Direction, patternType: PatternType): number[] {
  const values = Array.isArray(components) ? components : SCORE_COMPONENTS.map((c) => (components as Record<ScoreComponent, number | null>)[c]);
  const c = SCORE_COMPONENTS.map((_, j) => {
    const v = values[j];
    return v === null || v === undefined || !Number.isFinite(v) ? 0 : unit(v);
  });
  const short = direction === 'short' ? 1 : 0;
  return [...c, short, ...PATTERN_TYPES.slice(1).map((p) => (p === patternType ? 1 : 0)), ...c.map((v) => short * v)];
}

/** The feature vector of a setup: the features `names` (default: the fitted table's), in that order. */
export function scoreFeatures(components: Components, direction: Direction, patternType: PatternType, names: readonly string[] = SCORE_TABLE.features): number[] {
  const all = allFeatures(components, direction, patternType);
  return names.map((n) => {
    const k = FEATURE_NAMES.indexOf(n);
    if (k < 0) throw new RangeError(`scoreFeatures: no feature ${n}`);
    return all[k]!;
  });
}

/** The features of the fitted table, in the order of its coefficients. */
export const SCORE_FEATURES: readonly string[] = SCORE_TABLE.features;

/** A linear predictor: intercept + coefficients · x. */
export interface LinearFit {
  intercept: number;
  coefficients: readonly number[];
}

/** The fitted parts of the score model that predict a setup's outcome. */
export interface OutcomeModel {
  features: readonly string[];
  win: LinearFit;
  loss: LinearFit;
  scratchR: LinearFit;
  winR: Readonly<Record<string, number>>;
  winRAll: number;
  lossR: Readonly<Record<string, number>>;
  lossRAll: number;
}

/** The whole fitted table (kernels/score-table): the outcome model, what it was fitted on, and the training percentile knots. */
export interface ScoreTable extends OutcomeModel {
  fittedOn: { from: string; to: string; trades: number; winRate: number; lossRate: number; scratchRate: number };
  expectedRKnots: readonly number[];
  winKnots: readonly number[];
  rankKnots: readonly number[];
  /** How E[R] and P(win) make the rank u (module comment). */
  rank: RankRule;
  /** The training shares of u below the watchlist, strong and elite floors (g's knots). */
  bandShares: readonly number[];
}

/** The rank rules: the lower or the mean of the two training percentiles, or one of them alone. */
export const RANK_RULES = ['min', 'mean', 'expectedR', 'pWin'] as const;
export type RankRule = (typeof RANK_RULES)[number];

const linear = (fit: LinearFit, x: readonly number[]) => {
  let z = fit.intercept;
  for (let j = 0; j < x.length; j++) z += fit.coefficients[j]! * x[j]!;
  return z;
};

/**
 * The empirical CDF of a training distribution given by its percentile knots
 * (`knots[k]` = the k-th of `knots.length − 1` quantiles), linear between knots.
 */
export function cdfAt(knots: readonly number[], x: number): number {
  const m = knots.length - 1;
  if (!(x >= knots[0]!)) return 0;
  if (x >= knots[m]!) return 1;
  let lo = 0;
  let hi = m;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (knots[mid]! <= x) lo = mid;
    else hi = mid;
  }
  const span = knots[hi]! - knots[lo]!;
  return (lo + (span > 0 ? (x - knots[lo]!) / span : 0)) / m;
}

/** g: a training-rank share in [0, 1] → finalScore, linear through (0, 0), (shares[0], 55), (shares[1], 70), (shares[2], 85), (1, 100). */
export function rankToScore(share: number, shares: readonly number[] = SCORE_TABLE.bandShares): number {
  const knots: readonly (readonly [number, number])[] = [[0, 0], ...shares.map((x, k) => [x, BAND_FLOORS[2 - k]![1]] as const), [1, 100]];
  for (let k = 1; k < knots.length; k++) {
    const [x0, y0] = knots[k - 1]!;
    const [x1, y1] = knots[k]!;
    if (share <= x1) return y0 + ((Math.max(share, x0) - x0) / (x1 - x0)) * (y1 - y0);
  }
  return 100;
}

/** The rank u from the training percentiles `e` of E[R] and `w` of P(win) under `rule`. */
export const rankOf = (rule: RankRule, e: number, w: number) => (rule === 'min' ? Math.min(e, w) : rule === 'mean' ? (e + w) / 2 : rule === 'expectedR' ? e : w);

/** The rank u, its training share and finalScore (one decimal) of a setup with P(win) `pWin` and E[R] `expectedR` under `table`. */
export function finalScoreOf(table: Pick<ScoreTable, 'expectedRKnots' | 'winKnots' | 'rankKnots' | 'rank' | 'bandShares'>, pWin: number, expectedR: number) {
  const rank = rankOf(table.rank, cdfAt(table.expectedRKnots, expectedR), cdfAt(table.winKnots, pWin));
  const share = cdfAt(table.rankKnots, rank);
  return { rank, share, finalScore: Math.round(10 * rankToScore(share, table.bandShares)) / 10 };
}

/** P(win), P(loss) and E[R] of a setup under `model` (see the module comment). */
export function expectedOutcome(model: OutcomeModel, components: Components, direction: Direction, patternType: PatternType) {
  const x = scoreFeatures(components, direction, patternType, model.features);
  const pWin = sigmoid(linear(model.win, x));
  const pLoss = sigmoid(linear(model.loss, x));
  const cell = `${patternType} ${direction}`;
  const winR = model.winR[cell] ?? model.winRAll;
  const lossR = model.lossR[cell] ?? model.lossRAll;
  const expectedR = pWin * winR + pLoss * lossR + Math.max(0, 1 - pWin - pLoss) * linear(model.scratchR, x);
  return { pWin, pLoss, expectedR };
}

/** Every quantity of the fitted model for one setup (see the module comment). */
export function scoreModel(components: Components, direction: Direction, patternType: PatternType, table: ScoreTable = SCORE_TABLE) {
  const { pWin, pLoss, expectedR } = expectedOutcome(table, components, direction, patternType);
  return { pWin, pLoss, expectedR, ...finalScoreOf(table, pWin, expectedR) };
}

export interface Score {
  finalScore: number;
  confidence: number;
  band: ScoreBand;
  components: ScoreComponents;
}

/** The score of a `patternType` setup in `direction` with `components` (see the module comment). */
export function score(components: ScoreComponents, direction: Direction, patternType: PatternType): Score {
  const m = scoreModel(components, direction, patternType);
  return {
    finalScore: m.finalScore,
    // `confidence` is P(win), rounded as published.
    confidence: Math.round(100 * m.pWin) / 100,
    band: scoreBand(m.finalScore),
    components,
  };
}
