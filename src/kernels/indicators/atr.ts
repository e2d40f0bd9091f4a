/**
 * @module kernels/indicators/atr
 * Wilder's Average True Range (J. Welles Wilder Jr., "New Concepts in
 * Technical Trading Systems", 1978, chapter "The Volatility System"). The
 * true range spans the bar and any gap from the previous close; its average
 * uses Wilder's smoothing (an RMA, `α = 1 / period`):
 *
 * ```
 * TR_0   = H_0 − L_0                                    (no previous close yet)
 * TR_t   = max(H_t − L_t, |H_t − C_(t−1)|, |L_t − C_(t−1)|)
 * ATR_(n−1) = (TR_0 + … + TR_(n−1)) / n
 * ATR_t  = (ATR_(t−1) × (n − 1) + TR_t) / n
 * ```
 *
 * Starting with `H − L` on the first bar follows Wilder's worksheet as
 * StockCharts and Achelis ("Technical Analysis from A to Z", p. 70, the golden
 * 4-bar example) reproduce it, so the first ATR is at bar `period − 1`.
 *
 * Missing values: a bar with a non-finite high, low or close is skipped —
 * output `NaN`, ATR unchanged, and the next true range uses the last
 * complete bar's close (the ATR of the series with those bars removed).
 *
 * @example
 * const out = new Float64Array(2);
 * atr1d(Float64Array.of(11, 14), Float64Array.of(9, 12), Float64Array.of(10, 13), out, { period: 2 });
 * out[1]; // => 3 (TR 2, then max(2, |14 − 10|, |12 − 10|) = 4; mean 3)
 */

export interface AtrOptions {
  /** Wilder's smoothing length. Default 14. */
  period?: number;
}

function resolvePeriod(options: AtrOptions): number {
  const period = options.period ?? 14;
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`atr: period must be a positive integer, got ${period}`);
  }
  return period;
}

/**
 * Index of the first valid ATR: `period − 1`.
 * @throws {RangeError} when `period` is not a positive integer.
 * @example
 * atrLookback(); // => 13
 */
export function atrLookback(options: AtrOptions = {}): number {
  return resolvePeriod(options) - 1;
}

/** Where a streaming {@link atr1d} stopped: the next bar, the seed's progress, the ATR and the last complete bar's close. */
export interface AtrState {
  next: number;
  /** Complete bars seen while seeding (stops counting at `period`). */
  seen: number;
  /** Sum of the seed's true ranges. */
  sum: number;
  atr: number;
  prevClose: number;
}

/** The state of an ATR before its first bar. */
export const atrState = (): AtrState => ({ next: 0, seen: 0, sum: 0, atr: NaN, prevClose: NaN });

/**
 * Writes Wilder's ATR into `out`; allocates nothing. With `state`, it starts at
 * `state.next` and leaves the state at the input's end (appended bars then
 * continue the same smoothing, bit for bit).
 * @throws {RangeError} on a bad period, unequal input lengths, a short output or a state past the input.
 */
export function atr1d(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  out: Float64Array,
  options: AtrOptions = {},
  state?: AtrState,
): void {
  const period = resolvePeriod(options);
  const n = close.length;
  if (high.length !== n || low.length !== n) {
    throw new RangeError(`atr: high (${high.length}), low (${low.length}) and close (${n}) must have one value per bar`);
  }
  if (out.length < n) throw new RangeError(`atr: output holds ${out.length} values, input has ${n}`);
  const keep = period - 1;
  const inv = 1 / period;
  let i = state?.next ?? 0;
  if (i > n) throw new RangeError(`atr: state is at bar ${i}, input has ${n}`);
  let prevClose = state?.prevClose ?? NaN;
  let seen = state?.seen ?? 0;
  let sum = state?.sum ?? 0;
  let atr = state?.atr ?? NaN;
  // Seed: the plain mean of the first `period` true ranges.
  for (; i < n && seen < period; i++) {
    const h = high[i]!;
    const l = low[i]!;
    const c = close[i]!;
    out[i] = NaN;
    if (h - h !== 0 || l - l !== 0 || c - c !== 0) continue;
    sum += seen > 0 ? Math.max(h - l, Math.abs(h - prevClose), Math.abs(l - prevClose)) : h - l;
    prevClose = c;
    seen++;
    if (seen === period) out[i] = atr = sum * inv;
  }
  for (; i < n; i++) {
    const h = high[i]!;
    const l = low[i]!;
    const c = close[i]!;
    if (h - h !== 0 || l - l !== 0 || c - c !== 0) {
      out[i] = NaN;
      continue;
    }
    const tr = Math.max(h - l, Math.abs(h - prevClose), Math.abs(l - prevClose));
    atr = (atr * keep + tr) * inv;
    out[i] = atr;
    prevClose = c;
  }
  if (state) Object.assign(state, { next: n, seen, sum, atr, prevClose });
}
