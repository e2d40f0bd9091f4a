/**
 * @module kernels/backtest/sharpe
 * The Sharpe ratio of a return series and how far to trust it: the
 * probabilistic Sharpe ratio (Bailey & López de Prado, "The Sharpe Ratio
 * Efficient Frontier", Journal of Risk 15(2), 2012, 3–44) and the deflated
 * Sharpe ratio (Bailey & López de Prado, "The Deflated Sharpe Ratio:
 * Correcting for Selection Bias, Backtest Overfitting and Non-Normality",
 * Journal of Portfolio Management 40(5), 2014, 94–107).
 *
 * ```
 * SR        = mean(r) / s(r)                         per period, s with n − 1
 * γ₃, γ₄    = m₃ / m₂^(3/2), m₄ / m₂²                 skewness and (non-excess) kurtosis,
 *                                                     population moments mₖ = Σ(r − r̄)ᵏ / n
 * PSR(SR*)  = Φ( (SR − SR*) √(n − 1) / √(1 − γ₃·SR + (γ₄ − 1)/4 · SR²) )
 * SR₀       = √V · ( (1 − γ)·Φ⁻¹(1 − 1/N) + γ·Φ⁻¹(1 − 1/(N·e)) )   expected maximum SR of N
 *                                                     trials with no skill; V = variance of the
 *                                                     trials' SRs, γ = 0.5772… (Euler–Mascheroni)
 * DSR       = PSR(SR₀)
 * ```
 *
 * Everything is per period (daily here); annualise a Sharpe ratio by √252
 * only for display. With one trial SR₀ = 0 and DSR = PSR(0). The paper's
 * worked example (annualised SR 2.5 over T = 1,250 days, N = 100 trials of
 * annualised variance ½, γ₃ = −3, γ₄ = 10) gives SR₀ ≈ 0.1132 per day and
 * DSR ≈ 0.9004; the tests hold these functions to it.
 *
 * @example
 * deflatedSharpe({ sharpe: 2.5 / Math.sqrt(250), observations: 1250, skewness: -3, kurtosis: 10, trials: 100, trialVariance: 0.5 / 250 });
 * // => { expectedMaxSharpe: 0.11317…, value: 0.90039… }
 */
import { normalCdf, normalQuantile } from '../options/normal';

/** The Euler–Mascheroni constant γ. */
export const EULER_GAMMA = 0.5772156649015329;

export interface Moments {
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1). */
  sd: number;
  /** Population skewness m₃ / m₂^(3/2); NaN without dispersion. */
  skewness: number;
  /** Population kurtosis m₄ / m₂² (3 for a normal); NaN without dispersion. */
  kurtosis: number;
}

/** Mean, sample standard deviation, skewness and kurtosis of `values` (two passes). */
export function moments(values: ArrayLike<number>): Moments {
  const n = values.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  const mean = n ? sum / n : NaN;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i]! - mean;
    const d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
    m4 += d2 * d2;
  }
  const sd = n > 1 ? Math.sqrt(m2 / (n - 1)) : NaN;
  m2 /= n;
  m3 /= n;
  m4 /= n;
  const dispersed = n > 1 && m2 > 0;
  return { n, mean, sd, skewness: dispersed ? m3 / m2 ** 1.5 : NaN, kurtosis: dispersed ? m4 / (m2 * m2) : NaN };
}

/** Per-period Sharpe ratio mean / sd (zero risk-free rate); NaN below two values or without dispersion. */
export function sharpeRatio(returns: ArrayLike<number>): number {
  const { mean, sd } = moments(returns);
  return sd > 0 ? mean / sd : NaN;
}

export interface SharpeSample {
  /** Per-period Sharpe ratio. */
  sharpe: number;
  observations: number;
  skewness: number;
  kurtosis: number;
}

/**
 * PSR: the probability that the true per-period Sharpe ratio exceeds
 * `benchmark` (default 0), given the estimate, the sample length and the
 * returns' skewness and kurtosis. NaN when an input is not finite, with
 * fewer than two observations, or when the variance term is not positive.
 */
export function probabilisticSharpe(sample: SharpeSample, benchmark = 0): number {
  const { sharpe, observations, skewness, kurtosis } = sample;
  if (![sharpe, skewness, kurtosis, benchmark].every(Number.isFinite) || observations < 2) return NaN;
  const variance = 1 - skewness * sharpe + ((kurtosis - 1) / 4) * sharpe * sharpe;
  if (!(variance > 0)) return NaN;
  return normalCdf(((sharpe - benchmark) * Math.sqrt(observations - 1)) / Math.sqrt(variance));
}

/**
 * SR₀: the expected maximum per-period Sharpe ratio of `trials` independent
 * trials without skill whose Sharpe ratios have variance `trialVariance`
 * (2014, eq. for E[max SR]); 0 for a single trial.
 * @throws {RangeError} trials not a positive integer, or a negative or non-finite variance.
 */
export function expectedMaxSharpe(trials: number, trialVariance: number): number {
  if (!Number.isInteger(trials) || trials < 1) throw new RangeError(`expectedMaxSharpe: trials must be a positive integer, got ${trials}`);
  if (!Number.isFinite(trialVariance) || trialVariance < 0) throw new RangeError(`expectedMaxSharpe: trialVariance must be finite and ≥ 0, got ${trialVariance}`);
  if (trials === 1) return 0;
  return Math.sqrt(trialVariance) * ((1 - EULER_GAMMA) * normalQuantile(1 - 1 / trials) + EULER_GAMMA * normalQuantile(1 - 1 / (trials * Math.E)));
}

export interface DeflatedSharpe {
  trials: number;
  trialVariance: number;
  /** SR₀, per period. */
  expectedMaxSharpe: number;
  /** PSR(SR₀). */
  value: number;
}

/** DSR = PSR(SR₀) for a sample selected as the best of `trials` whose Sharpe ratios vary by `trialVariance`. */
export function deflatedSharpe(sample: SharpeSample & { trials: number; trialVariance: number }): DeflatedSharpe {
  const sr0 = expectedMaxSharpe(sample.trials, sample.trialVariance);
  return { trials: sample.trials, trialVariance: sample.trialVariance, expectedMaxSharpe: sr0, value: probabilisticSharpe(sample, sr0) };
}
