/**
 * @module kernels/options/touch
 * Probabilities for a price that follows geometric Brownian motion
 * `dS = μ S dt + σ S dW`: of touching a barrier before `T`, and of finishing
 * above or below a level at `T`. With `ν = μ − σ²/2` the log-price
 * `X_t = ln(S_t/S_0) = ν t + σ W_t` is a Brownian motion with drift, and for
 * `b = ln(H/S_0)` the reflection principle gives (S. E. Shreve, "Stochastic
 * Calculus for Finance II", 2004, §7.2.1, Corollary 7.2.2)
 *
 * ```
 * P(max X ≥ b) = N((−b + νT)/(σ√T)) + e^(2νb/σ²) N((−b − νT)/(σ√T))    (b > 0, an upper barrier)
 * P(min X ≤ b) = N(( b − νT)/(σ√T)) + e^(2νb/σ²) N(( b + νT)/(σ√T))    (b < 0, a lower barrier)
 * P(S_T > L)   = N((ln(S_0/L) + νT)/(σ√T))
 * ```
 *
 * Monitoring is continuous, so a daily-close rule touches a little less
 * often. `drift` is `μ`, the expected return of the price: `r − q` for the
 * risk-neutral measure, an estimate for a real-world forecast. With `ν = 0`
 * the touch probability is twice the chance of finishing beyond the barrier.
 * The term `e^(2νb/σ²) N(·)` is summed in logarithms, so it neither
 * overflows nor gives `∞ · 0` at tiny vols.
 *
 * With no volatility (`σ√T = 0`, or `σ²` below the smallest double) the path is `S_0 e^(νt)`: it touches if it
 * reaches the barrier by `T`. A barrier at or beyond the spot is touched already.
 *
 * @example
 * // ν = 0: P(touch 110 within a year at σ = 20%) = 2 N(−ln(1.1)/0.2)
 * touchProbability(100, 110, 1, 0.2, 0.02); // => 0.6336819546383452
 */
import { normalCdf } from './normal';

const LN_SQRT_2PI = 0.9189385332046728;

/** ln N(z), also where N(z) underflows (the asymptotic series of Abramowitz & Stegun 26.2.12). */
function logNormalCdf(z: number): number {
  if (z > -37) return Math.log(normalCdf(z));
  const w = 1 / (z * z);
  return -0.5 * z * z - LN_SQRT_2PI - Math.log(-z) + Math.log(1 - w * (1 - 3 * w * (1 - 5 * w)));
}

function check(spot: number, level: number, years: number, vol: number, drift: number): void {
  let bad = '';
  if (!(spot > 0 && spot < Infinity)) bad = `spot must be positive and finite, got ${spot}`;
  else if (!(level > 0 && level < Infinity)) bad = `barrier or level must be positive and finite, got ${level}`;
  else if (!(years >= 0 && years < Infinity)) bad = `years must be non-negative and finite, got ${years}`;
  else if (!(vol >= 0 && vol < Infinity)) bad = `vol must be non-negative and finite, got ${vol}`;
  else if (!Number.isFinite(drift)) bad = `drift must be finite, got ${drift}`;
  if (bad !== '') throw new RangeError(`touch: ${bad}`);
}

/**
 * Probability that the price touches `barrier` at some time in `[0, years]`:
 * an upper barrier when it is above `spot`, a lower one when below, 1 when equal.
 * @param vol annualised volatility σ
 * @param drift annual expected return μ of the price (default 0); the log-price drifts at μ − σ²/2
 * @throws {RangeError} on a non-positive spot or barrier, negative years or vol, or a non-finite argument.
 * @example
 * touchProbability(100, 90, 0.25, 0.3); // => 0.5079311768255559 (a barrier 10% down within a quarter, μ = 0)
 */
export function touchProbability(spot: number, barrier: number, years: number, vol: number, drift = 0): number {
  check(spot, barrier, years, vol, drift);
  const b = Math.log(barrier / spot);
  if (b === 0) return 1;
  const nu = drift - 0.5 * vol * vol;
  const s = vol * Math.sqrt(years);
  const sign = b > 0 ? 1 : -1; // reflect a lower barrier into an upper one: −X has drift −ν
  const up = sign * b;
  const nuUp = sign * nu;
  if (!(s > 0) || vol * vol === 0) return nuUp * years >= up ? 1 : 0;
  const direct = normalCdf((nuUp * years - up) / s);
  const reflected = Math.exp((2 * nuUp * up) / (vol * vol) + logNormalCdf((-up - nuUp * years) / s));
  const p = direct + reflected;
  return p < 1 ? p : 1;
}

/**
 * Probability that the price finishes above `level` at `years`: `N(d)`,
 * `d = (ln(S/L) + (μ − σ²/2)T) / (σ√T)` (N(d2) of Black–Scholes when μ = r − q).
 * At no volatility, 1 if `S e^(νT) > L` else 0.
 * @throws {RangeError} as {@link touchProbability}.
 * @example
 * finishAboveProbability(100, 100, 1, 0.2, 0.02); // => 0.5
 */
export function finishAboveProbability(spot: number, level: number, years: number, vol: number, drift = 0): number {
  check(spot, level, years, vol, drift);
  const m = Math.log(spot / level) + (drift - 0.5 * vol * vol) * years;
  const s = vol * Math.sqrt(years);
  if (!(s > 0)) return m > 0 ? 1 : 0;
  return normalCdf(m / s);
}

/**
 * Probability that the price finishes below `level` at `years`: `N(−d)`
 * (computed directly, so a small probability keeps its digits).
 * At no volatility, 1 if `S e^(νT) < L` else 0.
 * @throws {RangeError} as {@link touchProbability}.
 */
export function finishBelowProbability(spot: number, level: number, years: number, vol: number, drift = 0): number {
  check(spot, level, years, vol, drift);
  const m = Math.log(spot / level) + (drift - 0.5 * vol * vol) * years;
  const s = vol * Math.sqrt(years);
  if (!(s > 0)) return m < 0 ? 1 : 0;
  return normalCdf(-m / s);
}
