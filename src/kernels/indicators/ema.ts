/**
 * @module kernels/indicators/ema
 * Exponential moving average with smoothing `α = 2 / (period + 1)`, seeded
 * with the simple average of the first `period` values:
 *
 * ```
 * EMA_(period−1) = (x_0 + … + x_(period−1)) / period
 * EMA_t          = α × x_t + (1 − α) × EMA_(t−1)
 * ```
 *
 * The SMA seed is the convention of StockCharts ("Moving Averages – Simple
 * and Exponential", ChartSchool) and TA-Lib; it makes the first value an
 * honest average instead of a copy of the first bar (Tulip and Achelis,
 * p. 209, seed with `x_0` and so differ for the first few dozen bars).
 *
 * Missing values: a non-finite input (`NaN`, ±Infinity) is skipped — its
 * output is `NaN`, the average carries over unchanged and the bar does not
 * count toward the seed. The result equals the EMA of the series with the
 * missing bars removed, written back at the remaining bars. This is also what
 * lets MACD run its signal EMA over a MACD line that starts with `NaN`s.
 *
 * Lookback: `period − 1` (on an input without missing values).
 *
 * @example
 * const out = new Float64Array(4);
 * ema1d(Float64Array.of(1, 2, 3, 6), out, { period: 3 }); // out => [NaN, NaN, 2, 4]
 */

export interface EmaOptions {
  /** Bars in the seed average; sets `α = 2 / (period + 1)`. A positive integer. */
  period: number;
}

function resolvePeriod(options: EmaOptions): number {
  const period = options.period;
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`ema: period must be a positive integer, got ${period}`);
  }
  return period;
}

/**
 * Index of the first valid EMA: `period − 1`.
 * @throws {RangeError} when `period` is not a positive integer.
 * @example
 * emaLookback({ period: 21 }); // => 20
 */
export function emaLookback(options: EmaOptions): number {
  return resolvePeriod(options) - 1;
}

/**
 * Writes the EMA of `values` into `out`. Reading `values[i]` happens before
 * writing `out[i]`, so `out` may be `values` itself. Allocates nothing.
 * @throws {RangeError} on a bad period or an output shorter than the input.
 */
export function ema1d(values: Float64Array, out: Float64Array, options: EmaOptions): void {
  const period = resolvePeriod(options);
  const n = values.length;
  if (out.length < n) throw new RangeError(`ema: output holds ${out.length} values, input has ${n}`);
  const alpha = 2 / (period + 1);
  let i = 0;
  // Seed: the mean of the first `period` finite values.
  let seen = 0;
  let sum = 0;
  for (; i < n && seen < period; i++) {
    const x = values[i]!;
    out[i] = NaN;
    if (x - x === 0) {
      sum += x;
      seen++;
    }
  }
  if (seen < period) return;
  let ema = sum / period;
  out[i - 1] = ema;
  for (; i < n; i++) {
    const x = values[i]!;
    if (x - x === 0) {
      ema += alpha * (x - ema);
      out[i] = ema;
    } else {
      out[i] = NaN;
    }
  }
}
