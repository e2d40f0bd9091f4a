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
 * Streaming: pass a {@link SmaState} and call again after bars were appended
 * to `values`; the call writes only the new outputs and leaves the state where
 * it stopped. The running sum is carried, not rebuilt, so a series computed in
 * pieces is bit for bit the series computed at once
 * (`test/kernels/indicators/streaming.test.ts`).
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

/** Where a streaming {@link sma1d} stopped: the next bar to compute, the window's running sum and its missing values. */
export interface SmaState {
  next: number;
  sum: number;
  missing: number;
}

/** The state of an SMA before its first bar. */
export const smaState = (): SmaState => ({ next: 0, sum: 0, missing: 0 });

/**
 * Writes the SMA of `values` into `out` (`NaN` before {@link smaLookback} and
 * while a missing value is in the window). Allocates nothing. With `state`, it
 * starts at `state.next` and leaves the state at `values.length`.
 * @throws {RangeError} on a bad period, an output shorter than the input, or a state past the input.
 */
export function sma1d(values: Float64Array, out: Float64Array, options: SmaOptions, state?: SmaState): void {
  const period = resolvePeriod(options);
  const n = values.length;
  if (out.length < n) throw new RangeError(`sma: output holds ${out.length} values, input has ${n}`);
  const from = state?.next ?? 0;
  if (from > n) throw new RangeError(`sma: state is at bar ${from}, input has ${n}`);
  let sum = state?.sum ?? 0;
  let missing = state?.missing ?? 0; // non-finite values inside the window
  for (let i = from; i < n; i++) {
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
  if (state) {
    state.next = n;
    state.sum = sum;
    state.missing = missing;
  }
}
