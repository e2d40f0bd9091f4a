/**
 * @module kernels/indicators/high-low
 * How far the close is from its 52-week (252-bar) high and low, in percent —
 * the two distance tests of Mark Minervini's trend template ("Trade Like a
 * Stock Market Wizard", 2013: within 25% of the 52-week high, at least 30%
 * above the 52-week low). The high and low are the highest high and
 * lowest low of the window, current bar included (as `high252`/`low252`).
 *
 * ```
 * fromHigh_t = 100 × (C_t − maxHigh_t) / maxHigh_t     (≤ 0: percent below the high)
 * fromLow_t  = 100 × (C_t − minLow_t) / minLow_t       (≥ 0: percent above the low)
 * ```
 *
 * Missing values: a window containing a non-finite high (low) is `NaN`, and
 * so is a bar with a non-finite close.
 *
 * @example
 * const fromHigh = new Float64Array(2), fromLow = new Float64Array(2);
 * highLowDistance1d(Float64Array.of(100, 90), Float64Array.of(80, 75), Float64Array.of(95, 90), fromHigh, fromLow, { period: 2 });
 * fromHigh[1]; // => -10 (90 is 10% under 100)
 * fromLow[1]; // => 20 (90 is 20% over 75)
 */
import { rollingMax1d, rollingMin1d } from './rolling';

export interface HighLowOptions {
  /** Bars in the window, the current one included. Default 252 (52 weeks of daily bars). */
  period?: number;
}

function resolvePeriod(options: HighLowOptions): number {
  const period = options.period ?? 252;
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`highLow: period must be a positive integer, got ${period}`);
  }
  return period;
}

/**
 * Index of the first valid distance: `period − 1`.
 * @throws {RangeError} when `period` is not a positive integer.
 * @example
 * highLowLookback(); // => 251
 */
export function highLowLookback(options: HighLowOptions = {}): number {
  return resolvePeriod(options) - 1;
}

/**
 * Writes the close's percent distance from the window's high and low into the
 * two outputs (the rolling extremes are built in place; allocates nothing
 * when given a `scratch` as in {@link rollingMax1d}).
 * @throws {RangeError} on a bad period, unequal input lengths, or short outputs or scratch.
 */
export function highLowDistance1d(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  outFromHigh: Float64Array,
  outFromLow: Float64Array,
  options: HighLowOptions = {},
  scratch?: Int32Array,
): void {
  const period = resolvePeriod(options);
  const n = close.length;
  if (high.length !== n || low.length !== n) {
    throw new RangeError(`highLow: high (${high.length}), low (${low.length}) and close (${n}) must have one value per bar`);
  }
  if (outFromHigh.length < n || outFromLow.length < n) throw new RangeError(`highLow: every output must hold ${n} values`);
  const deque = scratch ?? new Int32Array(n);
  rollingMax1d(high, outFromHigh, { period }, deque);
  rollingMin1d(low, outFromLow, { period }, deque);
  for (let i = 0; i < n; i++) {
    const c = close[i]!;
    const top = outFromHigh[i]!;
    const bottom = outFromLow[i]!;
    const ok = c - c === 0;
    outFromHigh[i] = ok ? (100 * (c - top)) / top : NaN;
    outFromLow[i] = ok ? (100 * (c - bottom)) / bottom : NaN;
  }
}
