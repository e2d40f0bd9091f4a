/**
 * @module kernels/stats/sample
 * Mean, sample standard deviation and a Student-t confidence interval for the
 * mean, over plain numbers (R-multiples, days held).
 *
 * ```
 * x̄  = Σ xᵢ / n
 * s   = √( Σ (xᵢ − x̄)² / (n − 1) )                     Bessel's correction; two passes
 * CI  = x̄ ± t_{1 − α/2, n − 1} · s / √n               Student, "The probable error of
 *                                                      a mean", Biometrika 6(1), 1908, 1–25
 * ```
 *
 * The interval is t-based at every n: t tends to z as n grows, so there is no
 * switch-over point to choose, and at the small n of a month's elite band the
 * normal's z would claim too much (t(0.975, 9) = 2.262 against z = 1.960).
 * It assumes independent trades with finite variance; R-multiples are skewed,
 * so read it as approximate below about 30 trades.
 *
 * Values must be finite: a `NaN` R-multiple is an upstream bug, not a missing
 * value to skip. Too few values give `NaN`, not an error (an empty month is
 * normal).
 *
 * @example
 * mean([1, 2, 3, 4, 5]); // => 3
 * sampleStdDev([1, 2, 3, 4, 5]); // => 1.5811… (√2.5)
 * meanInterval([1, 2, 3, 4, 5]); // => { mean: 3, lower: 1.0368…, upper: 4.9631…, … }
 */
import { studentTQuantile } from './distributions';

function checkFinite(values: ArrayLike<number>, who: string): void {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`${who}: value ${i} is not finite (${values[i]})`);
  }
}

/**
 * The arithmetic mean; `NaN` when empty.
 * @throws {RangeError} a non-finite value.
 */
export function mean(values: ArrayLike<number>): number {
  checkFinite(values, 'mean');
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return values.length === 0 ? NaN : sum / values.length;
}

/**
 * The sample standard deviation (n − 1 denominator); `NaN` below two values.
 * @throws {RangeError} a non-finite value.
 */
export function sampleStdDev(values: ArrayLike<number>): number {
  const n = values.length;
  if (n < 2) {
    checkFinite(values, 'sampleStdDev');
    return NaN;
  }
  const m = mean(values);
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (values[i]! - m) ** 2;
  return Math.sqrt(squares / (n - 1));
}

export interface MeanInterval {
  n: number;
  mean: number;
  sd: number;
  standardError: number;
  /** Degrees of freedom of the t quantile, n − 1. */
  df: number;
  confidence: number;
  halfWidth: number;
  lower: number;
  upper: number;
}

/**
 * Two-sided Student-t confidence interval for the mean at `confidence`
 * (default 0.95). Below two values the bounds are `NaN`.
 * @throws {RangeError} a non-finite value, or confidence outside (0, 1).
 */
export function meanInterval(values: ArrayLike<number>, confidence = 0.95): MeanInterval {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`meanInterval: confidence must be in (0, 1), got ${confidence}`);
  const n = values.length;
  const m = mean(values);
  const sd = sampleStdDev(values);
  const standardError = sd / Math.sqrt(n);
  const halfWidth = n < 2 ? NaN : studentTQuantile(0.5 + confidence / 2, n - 1) * standardError;
  return { n, mean: m, sd, standardError, df: n - 1, confidence, halfWidth, lower: m - halfWidth, upper: m + halfWidth };
}
