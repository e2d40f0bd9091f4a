/**
 * @module kernels/stats/proportion
 * The Wilson score interval for a proportion (a hit rate): the set of p for
 * which the observed share is within z standard errors, solved for p
 * (Wilson, "Probable inference, the law of succession, and statistical
 * inference", JASA 22(158), 1927, 209–212):
 *
 * ```
 * p̂ = x / n
 * centre    = (p̂ + z²/2n) / (1 + z²/n)
 * halfWidth = z / (1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²)
 * ```
 *
 * Unlike p̂ ± z√(p̂(1 − p̂)/n) it stays inside [0, 1] and keeps close to its
 * nominal coverage at small n and extreme p (Newcombe, "Two-sided confidence
 * intervals for the single proportion: comparison of seven methods", Statistics
 * in Medicine 17, 1998, 857–872, method 3; his worked examples are our tests).
 *
 * @example
 * wilsonInterval(81, 263); // => { estimate: 0.30798…, lower: 0.25529…, upper: 0.36621…, … }
 */
import { zForConfidence } from './distributions';

export interface ProportionInterval {
  successes: number;
  trials: number;
  confidence: number;
  /** x / n; `NaN` with no trials. */
  estimate: number;
  lower: number;
  upper: number;
}

/**
 * Wilson score interval for `successes` out of `trials` at two-sided
 * `confidence` (default 0.95, z = 1.959963984540054). No trials give the whole
 * of [0, 1], the limit of the formula as n → 0.
 * @throws {RangeError} counts that are not integers with 0 ≤ successes ≤ trials, or confidence outside (0, 1).
 */
export function wilsonInterval(successes: number, trials: number, confidence = 0.95): ProportionInterval {
  if (!Number.isInteger(trials) || trials < 0 || !Number.isInteger(successes) || successes < 0 || successes > trials) {
    throw new RangeError(`wilsonInterval: need integers 0 ≤ successes ≤ trials, got ${successes} of ${trials}`);
  }
  if (trials === 0) return { successes, trials, confidence, estimate: NaN, lower: 0, upper: 1 };
  const p = successes / trials;
  return { successes, trials, confidence, estimate: p, ...wilsonBounds(p, trials, zForConfidence(confidence)) };
}

/**
 * The Wilson bounds of a rate `p` over `n` trials at quantile `z`; `n` need
 * not be whole (kernels/stats/clustered passes an effective sample size).
 */
export function wilsonBounds(p: number, n: number, z: number): { lower: number; upper: number } {
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At p = 0 or p = 1 one end is exactly 0 or 1; rounding would leave ±1e-17.
  return { lower: p === 0 ? 0 : Math.max(0, centre - halfWidth), upper: p === 1 ? 1 : Math.min(1, centre + halfWidth) };
}

/** Whether two intervals share any point. */
export function intervalsOverlap(a: { lower: number; upper: number }, b: { lower: number; upper: number }): boolean {
  return a.lower <= b.upper && b.lower <= a.upper;
}
