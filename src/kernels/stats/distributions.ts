/**
 * @module kernels/stats/distributions
 * The quantiles the scorecard's intervals need, standard normal and Student's t.
 *
 * ```
 * Φ⁻¹(p)        kernels/options/normal (Acklam's approximation refined by a Halley
 *               step on Cody's Φ), with (0, 1) enforced
 * P(T > t | ν)  = ½ I_{ν/(ν+t²)}(ν/2, ½), t ≥ 0; P(0 < T < t | ν) = ½ I_{t²/(ν+t²)}(½, ν/2)
 *               (Numerical Recipes in C, 2nd ed., §6.4, "Student's distribution")
 * I_x(a, b)     regularized incomplete beta by its continued fraction, modified
 *               Lentz (same §6.4), with ln Γ by Lanczos (1964), g = 7 and Godfrey's
 *               nine coefficients (|relative error| < 1e-15)
 * t_p(ν)        ν < 10⁴: the t where the tail (or, near the median, the central
 *               probability) equals its target, by bisection to the last bit;
 *               ν ≥ 10⁴: z + g₁/ν + g₂/ν² + g₃/ν³ + g₄/ν⁴ (Abramowitz & Stegun 26.7.5),
 *               where the incomplete beta loses digits and the series has none left to lose
 * ```
 *
 * Held in tests to the NIST/SEMATECH e-Handbook tables (§1.3.6.7.1 normal,
 * §1.3.6.7.2 Student's t) and, to more digits, to SciPy's `norm.ppf`/`t.ppf`.
 *
 * @example
 * normalQuantile(0.975); // => 1.959963984540054
 * studentTQuantile(0.975, 10); // => 2.228138851986… (NIST table: 2.228)
 */

import { normalQuantile as phiInverse } from '../options/normal';

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
];
const EPS = 1e-16;
const TINY = 1e-300;
const MAX_ITERATIONS = 10_000;

/** ln Γ(x) for x > 0 (Lanczos; reflection below ½). */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The continued fraction of I_x(a, b) (NR `betacf`), converging fast for x < (a+1)/(a+b+2). */
function betaFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return h;
}

/** I_x(a, b), the regularized incomplete beta function, for 0 ≤ x ≤ 1 and a, b > 0. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** P(T > t) for Student's t with finite `df` > 0 degrees of freedom. */
export function studentTUpperTail(t: number, df: number): number {
  const half = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? half : 1 - half;
}

/** P(0 < T < t) for t ≥ 0: accurate where the tail is close to ½. */
function studentTCentral(t: number, df: number): number {
  return 0.5 * regularizedBeta((t * t) / (df + t * t), 0.5, df / 2);
}

function checkProbability(p: number, who: string): void {
  if (!(p > 0 && p < 1)) throw new RangeError(`${who}: p must be in (0, 1), got ${p}`);
}

/** Σ cᵢ xⁱ by Horner's rule (coefficients lowest order first): the A&S 26.7.5 terms of `studentTQuantile`. */
function poly(c: readonly number[], x: number): number {
  let sum = 0;
  for (let i = c.length - 1; i >= 0; i--) sum = sum * x + c[i]!;
  return sum;
}

/**
 * Φ⁻¹(p), the standard normal quantile: the options kernel's (Acklam plus one
 * Halley step on Cody's Φ, accurate to about 1e−15 relative), refusing
 * probabilities outside (0, 1) instead of answering ±∞ or NaN.
 * @throws {RangeError} p outside (0, 1).
 * @example normalQuantile(0.975); // => 1.959963984540054
 */
export function normalQuantile(p: number): number {
  checkProbability(p, 'normalQuantile');
  return phiInverse(p);
}

/** The x ≥ 0 where `beyond` turns true: double an upper bracket, then bisect until the midpoint no longer moves. */
function firstBeyond(beyond: (x: number) => boolean): number {
  let lo = 0;
  let hi = 1;
  while (!beyond(hi)) {
    lo = hi;
    hi *= 2;
    if (hi === Infinity) return Infinity;
  }
  for (;;) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) return mid;
    if (beyond(mid)) hi = mid;
    else lo = mid;
  }
}

/**
 * The p-quantile of Student's t with `df` degrees of freedom (any real df > 0;
 * `Infinity` gives the normal).
 * @throws {RangeError} p outside (0, 1), or df not positive.
 * @example studentTQuantile(0.975, 10); // => 2.228138851986… (NIST table: 2.228)
 */
export function studentTQuantile(p: number, df: number): number {
  checkProbability(p, 'studentTQuantile');
  if (!(df > 0)) throw new RangeError(`studentTQuantile: df must be positive, got ${df}`);
  if (df >= 1e4) {
    const z = normalQuantile(p);
    const z2 = z * z;
    const g1 = (z * (z2 + 1)) / 4;
    const g2 = (z * poly([3, 16, 5], z2)) / 96;
    const g3 = (z * poly([-15, 17, 19, 3], z2)) / 384;
    const g4 = (z * poly([-945, -1920, 1482, 776, 79], z2)) / 92160;
    return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
  }
  if (p === 0.5) return 0;
  // 1 − p (p ≥ ½) and ½ − alpha (alpha ≥ ¼) are exact in floating point (Sterbenz's
  // lemma), so each target is the probability asked for, not a rounded one.
  const upper = p > 0.5;
  const alpha = upper ? 1 - p : p; // the tail beyond the quantile
  const t =
    alpha < 0.25
      ? firstBeyond((x) => studentTUpperTail(x, df) < alpha)
      : firstBeyond((x) => studentTCentral(x, df) > 0.5 - alpha);
  return upper ? t : -t;
}

/** z for a two-sided 95% interval: Φ⁻¹(0.975) = 1.95996398454005423… to 16 significant digits. */
export const Z_95 = 1.959963984540054;

/**
 * The z of a two-sided interval at `confidence`: Φ⁻¹(½ + confidence/2). 95%
 * returns the constant {@link Z_95}, so the default reproduces other tools digit
 * for digit whatever quantile sits behind it (`normalQuantile(0.975)` gives the
 * same double today).
 * @throws {RangeError} confidence outside (0, 1).
 * @example zForConfidence(0.95); // => 1.959963984540054
 * @example zForConfidence(0.99); // => 2.5758293035489…
 */
export function zForConfidence(confidence = 0.95): number {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`zForConfidence: confidence must be in (0, 1), got ${confidence}`);
  return confidence === 0.95 ? Z_95 : normalQuantile(0.5 + confidence / 2);
}
