/**
 * @module kernels/indicators/adx
 * Wilder's Directional Movement System: +DI, −DI and the Average Directional
 * Index (J. Welles Wilder Jr., "New Concepts in Technical Trading Systems",
 * 1978, chapter "The Directional Movement Concept"). For bar `t` against
 * bar `t − 1`, with `n = period`:
 *
 * ```
 * up = H_t − H_(t−1)            down = L_(t−1) − L_t
 * +DM = up   if up > down and up > 0, else 0
 * −DM = down if down > up and down > 0, else 0
 * TR  = max(H_t − L_t, |H_t − C_(t−1)|, |L_t − C_(t−1)|)
 * TR_n, +DM_n, −DM_n: the sum of the first n values (bars 1..n), then
 *   X_n(t) = X_n(t−1) − X_n(t−1) / n + X(t)                        (Wilder's smoothing)
 * +DI = 100 × +DM_n / TR_n      −DI = 100 × −DM_n / TR_n
 * DX  = 100 × |+DI − −DI| / (+DI + −DI)
 * ADX: the mean of the first n DX values, then ADX_t = (ADX_(t−1) × (n − 1) + DX_t) / n
 * ```
 *
 * So +DI and −DI start at bar `n` and ADX at bar `2n − 1` (27 for 14, as in
 * Wilder's worksheet and TA-Lib's lookback). Tulip and Achelis seed with
 * `n − 1` movements and start a bar earlier. This kernel carries the smoothed
 * values as averages (`X_n / n`); the ratios are the same.
 *
 * Degenerate bars: when the smoothed true range is 0 both DIs are 0, and when
 * both DIs are 0 DX is 0 (no directional movement).
 *
 * Missing values: a bar with a non-finite high, low or close is skipped —
 * outputs `NaN`, state unchanged, and the next bar is compared with the last
 * complete bar (the system run on the series with those bars removed).
 *
 * @example
 * const len = bars.close.length;
 * const adx = new Float64Array(len), plusDi = new Float64Array(len), minusDi = new Float64Array(len);
 * adx1d(bars.high, bars.low, bars.close, adx, plusDi, minusDi);
 * [plusDi[13], plusDi[14], adx[26], adx[27]]; // => [NaN, (a number), NaN, (a number)]
 */

export interface AdxOptions {
  /** Wilder's smoothing length. Default 14. */
  period?: number;
}

function resolvePeriod(options: AdxOptions): number {
  const period = options.period ?? 14;
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`adx: period must be a positive integer, got ${period}`);
  }
  return period;
}

/**
 * Index of the first valid ADX: `2 × period − 1`.
 * @throws {RangeError} when `period` is not a positive integer.
 * @example
 * adxLookback(); // => 27
 */
export function adxLookback(options: AdxOptions = {}): number {
  return 2 * resolvePeriod(options) - 1;
}

/**
 * Index of the first valid +DI and −DI: `period`.
 * @throws {RangeError} when `period` is not a positive integer.
 * @example
 * diLookback(); // => 14
 */
export function diLookback(options: AdxOptions = {}): number {
  return resolvePeriod(options);
}

/**
 * Writes ADX, +DI and −DI into the caller's buffers; allocates nothing.
 * @throws {RangeError} on a bad period, unequal input lengths or short outputs.
 */
export function adx1d(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  outAdx: Float64Array,
  outPlusDi: Float64Array,
  outMinusDi: Float64Array,
  options: AdxOptions = {},
): void {
  const period = resolvePeriod(options);
  const n = close.length;
  if (high.length !== n || low.length !== n) {
    throw new RangeError(`adx: high (${high.length}), low (${low.length}) and close (${n}) must have one value per bar`);
  }
  if (outAdx.length < n || outPlusDi.length < n || outMinusDi.length < n) {
    throw new RangeError(`adx: every output must hold ${n} values`);
  }
  const keep = period - 1;
  const inv = 1 / period;
  let prevHigh = NaN;
  let prevLow = NaN;
  let prevClose = NaN;
  let bars = 0; // complete bars seen
  let tr = 0; // running sums during the seed, Wilder averages after
  let plusDm = 0;
  let minusDm = 0;
  let adx = 0; // sum of DX during its seed, Wilder average after
  for (let i = 0; i < n; i++) {
    const h = high[i]!;
    const l = low[i]!;
    const c = close[i]!;
    outAdx[i] = NaN;
    outPlusDi[i] = NaN;
    outMinusDi[i] = NaN;
    if (h - h !== 0 || l - l !== 0 || c - c !== 0) continue;
    bars++;
    if (bars === 1) {
      prevHigh = h;
      prevLow = l;
      prevClose = c;
      continue;
    }
    const up = h - prevHigh;
    const down = prevLow - l;
    const pdm = up > down && up > 0 ? up : 0;
    const mdm = down > up && down > 0 ? down : 0;
    const range = Math.max(h - l, Math.abs(h - prevClose), Math.abs(l - prevClose));
    prevHigh = h;
    prevLow = l;
    prevClose = c;
    const moves = bars - 1; // movements measured so far, this one included
    if (moves <= period) {
      tr += range;
      plusDm += pdm;
      minusDm += mdm;
      if (moves < period) continue;
      tr *= inv;
      plusDm *= inv;
      minusDm *= inv;
    } else {
      tr = (tr * keep + range) * inv;
      plusDm = (plusDm * keep + pdm) * inv;
      minusDm = (minusDm * keep + mdm) * inv;
    }
    const pdi = tr > 0 ? (100 * plusDm) / tr : 0;
    const mdi = tr > 0 ? (100 * minusDm) / tr : 0;
    outPlusDi[i] = pdi;
    outMinusDi[i] = mdi;
    const sum = pdi + mdi;
    const dx = sum > 0 ? (100 * Math.abs(pdi - mdi)) / sum : 0;
    const dxCount = moves - period + 1;
    if (dxCount < period) {
      adx += dx;
    } else if (dxCount === period) {
      adx = (adx + dx) * inv;
      outAdx[i] = adx;
    } else {
      adx = (adx * keep + dx) * inv;
      outAdx[i] = adx;
    }
  }
}
