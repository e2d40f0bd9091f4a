/**
 * @module kernels/volatility
 * Daily volatility forecasts and the price cone they imply.
 *
 * Returns are daily log returns `r_t = ln(C_(t+1) / C_t)`, taken as mean zero
 * (at a daily horizon the mean is noise next to the variance). Both models
 * forecast tomorrow's variance `h_(t+1)` from today's:
 *
 * ```
 * EWMA (RiskMetrics, J.P. Morgan/Reuters, RiskMetrics Technical Document, 4th ed., 1996, §5.2):
 *   h_(t+1) = λ·h_t + (1 − λ)·r_t²,   λ = 0.94 for daily data
 * GARCH(1,1) (T. Bollerslev, J. Econometrics 31, 1986):
 *   h_(t+1) = ω + α·r_t² + β·h_t,     α, β ≥ 0, α + β < 1,  long-run variance V_L = ω / (1 − α − β)
 * ```
 *
 * EWMA is GARCH with ω = 0, α = 1 − λ, β = λ, so one filter serves both. The
 * filter starts from the mean square of the first `SEED_RETURNS` returns.
 *
 * GARCH is fitted by Gaussian quasi-maximum likelihood
 * `ℓ = −½ Σ (ln 2π + ln h_t + r_t² / h_t)` with variance targeting
 * (R. Engle and J. Mezrich, "GARCH for groups", Risk 9(8), 1996): ω is fixed
 * at `s²(1 − α − β)` for the sample mean square `s²`, and (α, β) maximise ℓ by
 * Nelder–Mead over an unconstrained reparametrisation
 * `α + β = 0.999·logistic(u)`, `α = (α + β)·logistic(v)`, started from the
 * best point of a small grid.
 *
 * Variance k days ahead (J. Hull, Options, Futures, and Other Derivatives,
 * "Using GARCH(1,1) to forecast future volatility"):
 *
 * ```
 * E[h_(T+k)] = V_L + (α + β)^(k−1) · (h_(T+1) − V_L)         (GARCH)
 * E[h_(T+k)] = h_(T+1)                                        (EWMA: no mean reversion)
 * V_k = Σ_(j=1..k) E[h_(T+j)]                                 variance of the k-day log return
 * ```
 *
 * The cone takes the k-day log return as normal with variance `V_k` and the
 * price as a martingale (no drift: E[S_k] = S_0), so its p-quantile is
 * `S_0 · exp(−V_k / 2 + Φ⁻¹(p) · √V_k)`; the median sits slightly below
 * today's price. Real returns have fatter tails than the normal: `coneCoverage`
 * measures how often realised k-day moves actually fell inside the bands.
 *
 * @example
 * const r = logReturns(closes);
 * const g = fitGarch11(r);
 * const next = varianceFilter(g, r).at(-1)!;          // tomorrow's variance
 * const cone = priceQuantiles(100, cumulativeVariance(g, next, 20).at(-1)!, [0.05, 0.5, 0.95]);
 */
import { nelderMead } from './optimize';
import { normalQuantile } from './options/normal';

export const RISKMETRICS_LAMBDA = 0.94;
/** Returns whose mean square seeds the filter. */
export const SEED_RETURNS = 20;
/** Least returns `fitGarch11` accepts. */
export const GARCH_MIN_RETURNS = 100;
const MAX_PERSISTENCE = 0.999;
const LN_2PI = Math.log(2 * Math.PI);

/** A variance recursion h_(t+1) = ω + α·r_t² + β·h_t. */
export interface VarianceModel {
  omega: number;
  alpha: number;
  beta: number;
}

export interface Garch11 extends VarianceModel {
  /** α + β: how much of a variance shock is left the next day. */
  persistence: number;
  /** ω / (1 − α − β). */
  longRunVariance: number;
  /** Days for a variance shock to halve: ln ½ / ln(α + β). */
  halfLifeDays: number;
  logLikelihood: number;
  observations: number;
}

/** The EWMA recursion with decay `lambda` as a variance model. */
export function ewmaModel(lambda = RISKMETRICS_LAMBDA): VarianceModel {
  if (!(lambda > 0 && lambda < 1)) throw new RangeError('ewma: need 0 < λ < 1');
  return { omega: 0, alpha: 1 - lambda, beta: lambda };
}

/** Daily log returns of a close series (length n − 1). */
export function logReturns(close: ArrayLike<number>): Float64Array {
  const out = new Float64Array(Math.max(0, close.length - 1));
  for (let i = 0; i < out.length; i++) out[i] = Math.log(close[i + 1]! / close[i]!);
  return out;
}

/** Mean of r² over the first `count` returns (all of them by default). */
export function meanSquare(returns: ArrayLike<number>, count = returns.length): number {
  const n = Math.min(count, returns.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += returns[i]! * returns[i]!;
  return n ? sum / n : NaN;
}

/**
 * One-step variance forecasts: element t is the variance of `returns[t]` known
 * before it (element 0 is the seed; the last, index n, is tomorrow's).
 */
export function varianceFilter(model: VarianceModel, returns: ArrayLike<number>, seed = meanSquare(returns, SEED_RETURNS)): Float64Array {
  const { omega, alpha, beta } = model;
  const h = new Float64Array(returns.length + 1);
  h[0] = seed;
  for (let t = 0; t < returns.length; t++) h[t + 1] = omega + alpha * returns[t]! * returns[t]! + beta * h[t]!;
  return h;
}

/** Gaussian log-likelihood of `returns` under `model` (see the module comment). */
export function garchLogLikelihood(model: VarianceModel, returns: ArrayLike<number>, seed = meanSquare(returns)): number {
  const { omega, alpha, beta } = model;
  let h = seed;
  let ll = 0;
  for (let t = 0; t < returns.length; t++) {
    const r2 = returns[t]! * returns[t]!;
    ll -= 0.5 * (LN_2PI + Math.log(h) + r2 / h);
    h = omega + alpha * r2 + beta * h;
  }
  return ll;
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));
const logit = (p: number) => Math.log(p / (1 - p));

/**
 * GARCH(1,1) by variance-targeted quasi-maximum likelihood (module comment).
 * @throws {RangeError} with fewer than `GARCH_MIN_RETURNS` returns or a sample without variance.
 */
export function fitGarch11(returns: ArrayLike<number>): Garch11 {
  if (returns.length < GARCH_MIN_RETURNS) throw new RangeError(`garch: need at least ${GARCH_MIN_RETURNS} returns`);
  const s2 = meanSquare(returns);
  if (!(s2 > 0) || !Number.isFinite(s2)) throw new RangeError('garch: the returns have no variance');
  const model = (persistence: number, alpha: number): VarianceModel => ({ omega: s2 * (1 - persistence), alpha, beta: persistence - alpha });
  const ll = (persistence: number, alpha: number) => garchLogLikelihood(model(persistence, alpha), returns, s2);
  let start = { persistence: 0.95, share: 0.1, ll: Number.NEGATIVE_INFINITY };
  for (const persistence of [0.8, 0.9, 0.95, 0.98, 0.99, 0.995])
    for (const share of [0.03, 0.06, 0.1, 0.15, 0.25]) {
      const value = ll(persistence, persistence * share);
      if (value > start.ll) start = { persistence, share, ll: value };
    }
  const unpack = ([u, v]: number[]) => {
    const persistence = MAX_PERSISTENCE * logistic(u!);
    return { persistence, alpha: persistence * logistic(v!) };
  };
  const best = nelderMead(
    (x) => {
      const { persistence, alpha } = unpack(x);
      return -ll(persistence, alpha);
    },
    [logit(start.persistence / MAX_PERSISTENCE), logit(start.share)],
    { step: 0.3, maxIterations: 400, tolerance: 1e-9 },
  );
  const { persistence, alpha } = unpack(best.x);
  const fitted = model(persistence, alpha);
  return {
    ...fitted,
    persistence,
    longRunVariance: s2,
    halfLifeDays: Math.log(0.5) / Math.log(persistence),
    logLikelihood: -best.f,
    observations: returns.length,
  };
}

/**
 * Cumulative variance of the 1..`horizon`-day log return (element k − 1 is V_k)
 * from tomorrow's variance `next` (module comment). A model without mean
 * reversion (α + β = 1, EWMA) keeps `next` every day.
 */
export function cumulativeVariance(model: VarianceModel, next: number, horizon: number): Float64Array {
  const out = new Float64Array(horizon);
  const persistence = model.alpha + model.beta;
  const longRun = persistence < 1 ? model.omega / (1 - persistence) : next;
  let daily = next;
  let sum = 0;
  for (let k = 0; k < horizon; k++) {
    sum += daily;
    out[k] = sum;
    daily = longRun + persistence * (daily - longRun);
  }
  return out;
}

/**
 * V_h, the variance of the `horizon`-day log return, in closed form (the last
 * element of `cumulativeVariance`, without the array):
 * `h·V_L + (h(T+1) − V_L)·(1 − φ^h)/(1 − φ)` with φ = α + β; `h·h(T+1)` when φ = 1.
 */
export function horizonVariance(model: VarianceModel, next: number, horizon: number): number {
  const persistence = model.alpha + model.beta;
  if (persistence >= 1) return horizon * next;
  const longRun = model.omega / (1 - persistence);
  return horizon * longRun + ((next - longRun) * (1 - persistence ** horizon)) / (1 - persistence);
}

/** Price quantiles `S_0 · exp(−V/2 + Φ⁻¹(p)·√V)` of a driftless lognormal with log variance `variance`. */
export function priceQuantiles(spot: number, variance: number, probabilities: readonly number[]): number[] {
  const sd = Math.sqrt(variance);
  return probabilities.map((p) => spot * Math.exp(-variance / 2 + normalQuantile(p) * sd));
}

export interface ConeCoverage {
  /** Forecast origins checked (overlapping windows: consecutive ones share horizon − 1 days). */
  windows: number;
  /** Share of realised horizon-day moves inside each band. */
  inside: { band: [number, number]; share: number | null }[];
}

/**
 * How often the realised `horizon`-day log move from each close, starting at
 * close `from`, fell inside the bands the forecast at that close gave. `nextVariance[t]`
 * is the variance of the return from close t to t + 1 as known at close t
 * (a `varianceFilter` output over `logReturns(close)`).
 */
export function coneCoverage(
  close: ArrayLike<number>,
  nextVariance: ArrayLike<number>,
  model: VarianceModel,
  horizon: number,
  from: number,
  bands: readonly [number, number][],
): ConeCoverage {
  const z = bands.map(([lo, hi]) => [normalQuantile(lo), normalQuantile(hi)] as const);
  const hits = new Array<number>(bands.length).fill(0);
  let windows = 0;
  for (let t = Math.max(0, from); t + horizon < close.length; t++) {
    const v = horizonVariance(model, nextVariance[t]!, horizon);
    const sd = Math.sqrt(v);
    const move = Math.log(close[t + horizon]! / close[t]!) + v / 2;
    windows++;
    z.forEach(([lo, hi], b) => {
      if (move >= lo * sd && move <= hi * sd) hits[b]!++;
    });
  }
  return { windows, inside: bands.map((band, b) => ({ band: [band[0], band[1]], share: windows ? hits[b]! / windows : null })) };
}
