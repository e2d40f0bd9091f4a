/**
 * @module kernels/indicators/relative-strength
 * The relative-strength (RS) line of an asset against a benchmark, and the
 * flag for the line making a new high — the "RS line at a new high" that
 * William O'Neil's IBD charts mark, often ahead of price ("How to Make Money
 * in Stocks", 4th ed., 2009). Both inputs are closes aligned by date.
 *
 * ```
 * RS_t      = 100 × A_t / B_t
 * newHigh_t = 1 if RS_t ≥ max(RS_(t−n+1), …, RS_t) else 0      (a tie with the window's high counts)
 * ```
 *
 * Missing values: a non-finite asset close or a non-finite or non-positive
 * benchmark close gives a `NaN` RS; a new-high window containing one is `NaN`.
 *
 * @example
 * const rs = new Float64Array(3);
 * relativeStrength1d(Float64Array.of(10, 11, 12), Float64Array.of(100, 100, 96), rs); // rs => [10, 11, 12.5]
 */
import { rollingMax1d } from './rolling';

export interface RelativeStrengthNewHighOptions {
  /** Bars in the high's window, the current one included. Default 252 (52 weeks of daily bars). */
  period?: number;
}

function resolvePeriod(options: RelativeStrengthNewHighOptions): number {
  const period = options.period ?? 252;
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`relativeStrength: period must be a positive integer, got ${period}`);
  }
  return period;
}

/**
 * Index of the first RS value: 0 (it needs no history).
 * @example
 * relativeStrengthLookback(); // => 0
 */
export function relativeStrengthLookback(): number {
  return 0;
}

/**
 * Index of the first new-high flag: `period − 1`.
 * @throws {RangeError} when `period` is not a positive integer.
 * @example
 * relativeStrengthNewHighLookback({ period: 63 }); // => 62
 */
export function relativeStrengthNewHighLookback(options: RelativeStrengthNewHighOptions = {}): number {
  return resolvePeriod(options) - 1;
}

/**
 * Writes the RS line `100 × asset / benchmark` into `out`; allocates nothing.
 * @throws {RangeError} on unequal input lengths or a short output.
 */
export function relativeStrength1d(asset: Float64Array, benchmark: Float64Array, out: Float64Array): void {
  const n = asset.length;
  if (benchmark.length !== n) {
    throw new RangeError(`relativeStrength: asset has ${n} bars, benchmark ${benchmark.length}; align them first`);
  }
  if (out.length < n) throw new RangeError(`relativeStrength: output holds ${out.length} values, input has ${n}`);
  for (let i = 0; i < n; i++) {
    const a = asset[i]!;
    const b = benchmark[i]!;
    out[i] = a - a === 0 && b > 0 && b - b === 0 ? (100 * a) / b : NaN;
  }
}

/**
 * Writes 1 where the RS line is at its `period`-bar high, else 0, into `out`
 * (which must not be `rs`). `scratch` as in {@link rollingMax1d}.
 * @throws {RangeError} on a bad period or short output or scratch.
 */
export function relativeStrengthNewHigh1d(
  rs: Float64Array,
  out: Float64Array,
  options: RelativeStrengthNewHighOptions = {},
  scratch?: Int32Array,
): void {
  const period = resolvePeriod(options);
  rollingMax1d(rs, out, { period }, scratch);
  for (let i = 0; i < rs.length; i++) {
    const high = out[i]!;
    if (high === high) out[i] = rs[i]! >= high ? 1 : 0;
  }
}
