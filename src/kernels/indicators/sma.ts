/**
 * @module kernels/indicators/sma
 * Simple moving average: the arithmetic mean of the last `period` values,
 * current bar included.
 *
 * ```
 * SMA_t = (x_(t−period+1) + … + x_t) / period
 * ```
 *
 * Definition: Achelis, "Technical Analysis from A to Z" (2nd ed., 2000),
 * "Moving Averages", p. 207 (its worked 5-bar example is a golden test).
 * Runs in O(N) with a running sum; `test/kernels/indicators/sma.test.ts`
 * holds it to a twin that sums every window from scratch.
 *
 * Missing values: `NaN` and ±Infinity count as missing. A window counts bars,
 * not valid values, so the output is `NaN` while a missing value is inside
 * the window and recovers once it has left
 * (vectorbt's `rolling_mean_1d_nb` with `minp = window`; pandas' `rolling(n).mean()`).
 *
 * Lookback: the first value is at index `period − 1`.
 *
 * @example
 * const out = new Float64Array(4);
 * sma1d(Float64Array.of(1, 2, 3, 4), out, { period: 2 }); // out => [NaN, 1.5, 2.5, 3.5]
 */

export interface SmaOptions {
  /** Bars in the window, a positive integer. */
  period: number;
}

function resolvePeriod(options: SmaOptions): number {
  const period = options.period;
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`sma: period must be a positive integer, got ${period}`);
  }
  return period;
}

/**
 * Index of the first valid SMA: `period − 1`.
 * @throws {RangeError} when `period` is not a positive integer.
 * @example
 * smaLookback({ period: 200 }); // => 199
 */
export function smaLookback(options: SmaOptions): number {
  return resolvePeriod(options) - 1;
}

/**
 * Writes the SMA of `values` into `out` (`NaN` before {@link smaLookback} and
 * while a missing value is in the window). Allocates nothing.
 * @throws {RangeError} on a bad period or an output shorter than the input.
 */
export function sma1d(values: Float64Array, out: Float64Array, options: SmaOptions): void {
  const period = resolvePeriod(options);
  const n = values.length;
  if (out.length < n) throw new RangeError(`sma: output holds ${out.length} values, input has ${n}`);
  let sum = 0;
  let missing = 0; // non-finite values inside the window
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if (x - x === 0) sum += x;
    else missing++;
    if (i >= period) {
      const old = values[i - period]!;
      if (old - old === 0) sum -= old;
      else missing--;
    }
    out[i] = i >= period - 1 && missing === 0 ? sum / period : NaN;
  }
}
