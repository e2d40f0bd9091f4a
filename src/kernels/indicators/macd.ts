/**
 * @module kernels/indicators/macd
 * Moving Average Convergence/Divergence (Gerald Appel, "Technical Analysis:
 * Power Tools for Active Investors", 2005; the 12/26/9 defaults are his):
 *
 * ```
 * MACD      = EMA_fast(C) − EMA_slow(C)
 * signal    = EMA_signal(MACD)
 * histogram = MACD − signal
 * ```
 *
 * Every EMA is {@link ema1d}: `α = 2 / (period + 1)`, seeded with the SMA of
 * its first `period` values. The signal EMA skips the MACD line's leading
 * `NaN`s, so it seeds on the first `signal` MACD values: the MACD line starts
 * at `slow − 1` (25) and the signal and histogram at `slow + signal − 2` (33,
 * TA-Lib's lookback). Tulip and Achelis (p. 202) seed every EMA with its first
 * value instead, which changes the early values.
 *
 * Missing values: a non-finite close is skipped by every EMA (see
 * {@link ema1d}); its outputs are `NaN`.
 *
 * @example
 * const len = close.length;
 * const line = new Float64Array(len), signal = new Float64Array(len), histogram = new Float64Array(len);
 * macd1d(close, line, signal, histogram); // 12/26/9
 * [line[24], line[25], signal[32], signal[33]]; // => [NaN, (a number), NaN, (a number)]
 */
import { ema1d } from './ema';

export interface MacdOptions {
  /** Fast EMA period. Default 12. */
  fast?: number;
  /** Slow EMA period, greater than `fast`. Default 26. */
  slow?: number;
  /** Signal EMA period. Default 9. */
  signal?: number;
}

function resolve(options: MacdOptions) {
  const fast = options.fast ?? 12;
  const slow = options.slow ?? 26;
  const signal = options.signal ?? 9;
  for (const [name, value] of [['fast', fast], ['slow', slow], ['signal', signal]] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`macd: ${name} must be a positive integer, got ${value}`);
    }
  }
  if (fast >= slow) throw new RangeError(`macd: fast (${fast}) must be less than slow (${slow})`);
  return { fast, slow, signal };
}

/**
 * Index of the first valid MACD line value: `slow − 1`.
 * @throws {RangeError} on bad periods or fast ≥ slow.
 * @example
 * macdLineLookback(); // => 25
 */
export function macdLineLookback(options: MacdOptions = {}): number {
  return resolve(options).slow - 1;
}

/**
 * Index of the first valid signal and histogram value: `slow + signal − 2`.
 * @throws {RangeError} on bad periods or fast ≥ slow.
 * @example
 * macdLookback(); // => 33
 */
export function macdLookback(options: MacdOptions = {}): number {
  const { slow, signal } = resolve(options);
  return slow + signal - 2;
}

/**
 * Writes the MACD line, its signal and the histogram into three distinct
 * buffers (the histogram buffer holds the slow EMA along the way); allocates nothing.
 * @throws {RangeError} on bad options or outputs shorter than the input.
 */
export function macd1d(
  close: Float64Array,
  outMacd: Float64Array,
  outSignal: Float64Array,
  outHistogram: Float64Array,
  options: MacdOptions = {},
): void {
  const { fast, slow, signal } = resolve(options);
  const n = close.length;
  if (outMacd.length < n || outSignal.length < n || outHistogram.length < n) {
    throw new RangeError(`macd: every output must hold ${n} values`);
  }
  ema1d(close, outMacd, { period: fast });
  ema1d(close, outHistogram, { period: slow });
  for (let i = 0; i < n; i++) outMacd[i] = outMacd[i]! - outHistogram[i]!;
  ema1d(outMacd, outSignal, { period: signal });
  for (let i = 0; i < n; i++) outHistogram[i] = outMacd[i]! - outSignal[i]!;
}
