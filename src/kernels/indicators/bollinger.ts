/**
 * @module kernels/indicators/bollinger
 * Bollinger band width, and the rolling percentile rank used to read it.
 *
 * Bands as John Bollinger defines them ("Bollinger on Bollinger Bands", 2001;
 * "BandWidth" is his term): the middle band is the `period`-bar
 * SMA, the outer bands sit `k` standard deviations away, and the deviation is
 * the population one (divide by `period`, not `period − 1`) — Bollinger's
 * stated choice, and the one Achelis p. 73 uses (its 5-bar example is a
 * golden test):
 *
 * ```
 * middle = SMA_n(C)      σ = sqrt(Σ (C − middle)² / n)
 * width  = (upper − lower) / middle = 2kσ / middle
 * ```
 *
 * A narrow width is a "squeeze". How narrow is read against the width's own
 * history with {@link percentileRank1d}: the share of the previous
 * `period − 1` values strictly below the current one,
 *
 * ```
 * rank_t = 100 × #{ j in [t − n + 1, t − 1] : x_j < x_t } / (n − 1)
 * ```
 *
 * i.e. `scipy.stats.percentileofscore(previous, x_t, kind='strict')`: 0 when
 * the current value is the lowest of the window (ties count as not below, so
 * a value equal to the window's low still ranks 0), 100 when it is the highest.
 *
 * Missing values: both kernels count bars, so an output is `NaN` while a
 * non-finite value is in its window.
 *
 * Cost: the width's variance is updated in O(1) per bar with the sliding form
 * of Welford's update, and rebuilt exactly with two passes whenever a window
 * becomes complete again and every `period` bars (a running M2 otherwise
 * keeps the rounding of a long-gone price level: on a million-bar random walk
 * that drifted to 2.5e-6 relative error). The rank is O(N × period).
 *
 * @example
 * const out = new Float64Array(2);
 * bollingerWidth1d(Float64Array.of(9, 11), out, { period: 2 }); // σ = 1, middle = 10
 * out[1]; // => 0.4
 */

export interface BollingerOptions {
  /** Bars in the middle band's SMA and in σ. Default 20. */
  period?: number;
  /** Band distance in standard deviations. Default 2. */
  multiplier?: number;
}

export interface PercentileRankOptions {
  /** Values in the window, the current one included; at least 2. Default 126 (half a year of daily bars). */
  period?: number;
}

function resolveBollinger(options: BollingerOptions) {
  const period = options.period ?? 20;
  const multiplier = options.multiplier ?? 2;
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`bollinger: period must be a positive integer, got ${period}`);
  }
  if (!(multiplier > 0 && Number.isFinite(multiplier))) {
    throw new RangeError(`bollinger: multiplier must be a finite positive number, got ${multiplier}`);
  }
  return { period, multiplier };
}

function resolveRankPeriod(options: PercentileRankOptions): number {
  const period = options.period ?? 126;
  if (!Number.isInteger(period) || period < 2) {
    throw new RangeError(`percentileRank: period must be an integer of at least 2, got ${period}`);
  }
  return period;
}

/**
 * Index of the first valid band width: `period − 1`.
 * @throws {RangeError} on a bad period or multiplier.
 * @example
 * bollingerLookback(); // => 19
 */
export function bollingerLookback(options: BollingerOptions = {}): number {
  return resolveBollinger(options).period - 1;
}

/**
 * Index of the first valid percentile rank of a series with no missing values: `period − 1`.
 * Over an indicator, add that indicator's lookback (bbWidth20 → 19 + 125 = 144).
 * @throws {RangeError} when `period` is not an integer ≥ 2.
 * @example
 * percentileRankLookback(); // => 125
 */
export function percentileRankLookback(options: PercentileRankOptions = {}): number {
  return resolveRankPeriod(options) - 1;
}

/** Where a streaming {@link bollingerWidth1d} stopped: the next bar, missing values in the window, the rebuild counter, mean and M2. */
export interface BollingerState {
  next: number;
  missing: number;
  slides: number;
  mean: number;
  m2: number;
}

/** The state of a band width before its first bar (`slides` = period forces the first exact build). */
export const bollingerState = (options: BollingerOptions = {}): BollingerState => ({ next: 0, missing: 0, slides: resolveBollinger(options).period, mean: 0, m2: 0 });

/**
 * Writes Bollinger band width `(upper − lower) / middle` into `out`; allocates nothing.
 * A middle band of 0 gives ±Infinity or `NaN` (IEEE division). With `state`,
 * it starts at `state.next` and leaves the state at the input's end.
 * @throws {RangeError} on bad options, an output shorter than the input or a state past the input.
 */
export function bollingerWidth1d(values: Float64Array, out: Float64Array, options: BollingerOptions = {}, state?: BollingerState): void {
  const { period, multiplier } = resolveBollinger(options);
  const n = values.length;
  if (out.length < n) throw new RangeError(`bollinger: output holds ${out.length} values, input has ${n}`);
  const from = state?.next ?? 0;
  if (from > n) throw new RangeError(`bollinger: state is at bar ${from}, input has ${n}`);
  const spread = 2 * multiplier;
  let missing = state?.missing ?? 0;
  let slides = state?.slides ?? period; // sliding updates since the last exact rebuild; `period` forces one
  let mean = state?.mean ?? 0;
  let m2 = state?.m2 ?? 0;
  for (let i = from; i < n; i++) {
    const x = values[i]!;
    if (x - x !== 0) missing++;
    if (i >= period) {
      const old = values[i - period]!;
      if (old - old !== 0) missing--;
    }
    if (i < period - 1 || missing > 0) {
      out[i] = NaN;
      slides = period;
      continue;
    }
    if (slides === period) {
      // Exact two-pass rebuild: after a gap, and every `period` bars so rounding cannot drift.
      mean = 0;
      for (let j = i - period + 1; j <= i; j++) mean += values[j]!;
      mean /= period;
      m2 = 0;
      for (let j = i - period + 1; j <= i; j++) m2 += (values[j]! - mean) * (values[j]! - mean);
      slides = 0;
    } else {
      slides++;
      // Replace `old` with `x` in a full window (Welford's update, sliding form).
      const old = values[i - period]!;
      const delta = x - old;
      const nextMean = mean + delta / period;
      m2 += delta * (x - nextMean + old - mean);
      mean = nextMean;
    }
    const variance = m2 > 0 ? m2 / period : 0;
    out[i] = (spread * Math.sqrt(variance)) / mean;
  }
  if (state) Object.assign(state, { next: n, missing, slides, mean, m2 });
}

/**
 * Writes the rolling percentile rank (0–100) of each value among the previous
 * `period − 1` into `out`. O(N × period); allocates nothing. With `from`, only
 * outputs `from..` are written (the earlier values are read, never changed).
 * @throws {RangeError} on a bad period, an output shorter than the input or `from` past the input.
 */
export function percentileRank1d(values: Float64Array, out: Float64Array, options: PercentileRankOptions = {}, from = 0): void {
  const period = resolveRankPeriod(options);
  const n = values.length;
  if (out.length < n) throw new RangeError(`percentileRank: output holds ${out.length} values, input has ${n}`);
  if (!Number.isInteger(from) || from < 0 || from > n) throw new RangeError(`percentileRank: from must be a bar index in 0..${n}, got ${from}`);
  const scale = 100 / (period - 1);
  // Only a missing value still inside the window matters; an older one reads as none.
  let lastMissing = -1 - period;
  for (let j = from - 1; j >= 0 && j > from - 1 - period; j--) {
    const x = values[j]!;
    if (x - x !== 0) {
      lastMissing = j;
      break;
    }
  }
  for (let i = from; i < n; i++) {
    const x = values[i]!;
    if (x - x !== 0) lastMissing = i;
    if (i < period - 1 || i - lastMissing < period) {
      out[i] = NaN;
      continue;
    }
    // Adding the comparison as 0/1 rather than branching on it: the outcome is unpredictable.
    let below = 0;
    for (let j = i - period + 1; j < i; j++) below += +(values[j]! < x);
    out[i] = below * scale;
  }
}
