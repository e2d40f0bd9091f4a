/**
 * @module kernels/indicators/rsi
 * Wilder's Relative Strength Index (J. Welles Wilder Jr., "New Concepts in
 * Technical Trading Systems", 1978, chapter "Relative Strength Index").
 * With `d_t = C_t − C_(t−1)`, `gain = max(d, 0)`, `loss = max(−d, 0)` and
 * `n = period`:
 *
 * ```
 * avgGain_n = (gain_1 + … + gain_n) / n            (likewise avgLoss)
 * avgGain_t = (avgGain_(t−1) × (n − 1) + gain_t) / n
 * RSI_t     = 100 − 100 / (1 + avgGain_t / avgLoss_t) = 100 × avgGain / (avgGain + avgLoss)
 * ```
 *
 * The first value needs `n` changes, so it is at bar `n`. When both averages
 * are zero (a flat series) Wilder's ratio is 0/0; this kernel returns 50, the
 * neutral midpoint, so the output always lies in [0, 100].
 *
 * Missing values: a bar whose close is not finite is skipped — output `NaN`,
 * averages unchanged, and the next change is taken from the last finite
 * close (the RSI of the series with those bars removed).
 *
 * Golden values: Achelis, "Technical Analysis from A to Z", p. 299 (5-bar RSI).
 *
 * @example
 * // Achelis p. 299: changes +1.625, −0.75, +1.0625, +0.1875, −0.125 -> 2.875 up, 0.875 down
 * const out = new Float64Array(6);
 * rsi1d(Float64Array.of(37.875, 39.5, 38.75, 39.8125, 40, 39.875), out, { period: 5 });
 * out[5]; // => 76.66666666666667
 */

export interface RsiOptions {
  /** Wilder's smoothing length. Default 14. */
  period?: number;
}

function resolvePeriod(options: RsiOptions): number {
  const period = options.period ?? 14;
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`rsi: period must be a positive integer, got ${period}`);
  }
  return period;
}

/**
 * Index of the first valid RSI: `period` (one bar to start the changes).
 * @throws {RangeError} when `period` is not a positive integer.
 * @example
 * rsiLookback(); // => 14
 */
export function rsiLookback(options: RsiOptions = {}): number {
  return resolvePeriod(options);
}

/**
 * Writes Wilder's RSI of `close` into `out`; allocates nothing.
 * @throws {RangeError} on a bad period or an output shorter than the input.
 */
export function rsi1d(close: Float64Array, out: Float64Array, options: RsiOptions = {}): void {
  const period = resolvePeriod(options);
  const n = close.length;
  if (out.length < n) throw new RangeError(`rsi: output holds ${out.length} values, input has ${n}`);
  const keep = period - 1;
  const inv = 1 / period;
  let i = 0;
  let prev = NaN;
  // The first finite close starts the changes.
  for (; i < n; i++) {
    prev = close[i]!;
    out[i] = NaN;
    if (prev - prev === 0) break;
  }
  i++;
  // Seed: the plain averages of the first `period` changes.
  let up = 0;
  let down = 0;
  let changes = 0;
  for (; i < n && changes < period; i++) {
    const c = close[i]!;
    out[i] = NaN;
    if (c - c !== 0) continue;
    const d = c - prev;
    prev = c;
    if (d > 0) up += d;
    else down -= d;
    changes++;
  }
  if (changes < period) return;
  up *= inv;
  down *= inv;
  out[i - 1] = up + down > 0 ? (100 * up) / (up + down) : 50;
  // Wilder's smoothing.
  for (; i < n; i++) {
    const c = close[i]!;
    if (c - c !== 0) {
      out[i] = NaN;
      continue;
    }
    const d = c - prev;
    prev = c;
    // gain = (|d| + d) / 2 and loss = (|d| − d) / 2, both exact: branch-free, since the sign of d is a coin flip.
    const size = Math.abs(d);
    up = (up * keep + (size + d) * 0.5) * inv;
    down = (down * keep + (size - d) * 0.5) * inv;
    const total = up + down;
    out[i] = total > 0 ? (100 * up) / total : 50;
  }
}
