/**
 * @module kernels/indicators/volume
 * Average volume and average dollar volume: simple means over the last
 * `period` bars (50 by default, the "50-day average volume" that breakout
 * volume is measured against, as in William O'Neil's "How to Make Money in
 * Stocks"; dollar volume is the liquidity screen of most scans).
 *
 * ```
 * avgVolume_t       = (V_(t−n+1) + … + V_t) / n
 * avgDollarVolume_t = (C_(t−n+1) × V_(t−n+1) + … + C_t × V_t) / n
 * ```
 *
 * Both are the SMA of {@link sma1d} (same running sum, same twin in the
 * tests); dollar volume forms `C × V` on the fly, without a temporary array.
 * Missing values: a bar with a non-finite volume (or close, for dollar
 * volume) makes every window containing it `NaN`.
 *
 * @example
 * const out = new Float64Array(2);
 * averageDollarVolume1d(Float64Array.of(10, 20), Float64Array.of(100, 300), out, { period: 2 });
 * out[1]; // => 3500 ((1,000 + 6,000) / 2)
 */
import { sma1d, type SmaState } from './sma';

export interface VolumeOptions {
  /** Bars in the average. Default 50. */
  period?: number;
}

function resolvePeriod(options: VolumeOptions): number {
  const period = options.period ?? 50;
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`volume: period must be a positive integer, got ${period}`);
  }
  return period;
}

/**
 * Index of the first valid average: `period − 1`.
 * @throws {RangeError} when `period` is not a positive integer.
 * @example
 * volumeLookback(); // => 49
 */
export function volumeLookback(options: VolumeOptions = {}): number {
  return resolvePeriod(options) - 1;
}

/**
 * Writes the average volume into `out`; allocates nothing. Streams like
 * {@link sma1d} with a `state`.
 * @throws {RangeError} on a bad period or an output shorter than the input.
 */
export function averageVolume1d(volume: Float64Array, out: Float64Array, options: VolumeOptions = {}, state?: SmaState): void {
  sma1d(volume, out, { period: resolvePeriod(options) }, state);
}

/**
 * Writes the average of close × volume into `out`; allocates nothing.
 * @throws {RangeError} on a bad period, unequal input lengths or a short output.
 */
export function averageDollarVolume1d(
  close: Float64Array,
  volume: Float64Array,
  out: Float64Array,
  options: VolumeOptions = {},
): void {
  const period = resolvePeriod(options);
  const n = close.length;
  if (volume.length !== n) throw new RangeError(`volume: close (${n}) and volume (${volume.length}) must have one value per bar`);
  if (out.length < n) throw new RangeError(`volume: output holds ${out.length} values, input has ${n}`);
  let sum = 0;
  let missing = 0;
  for (let i = 0; i < n; i++) {
    const x = close[i]! * volume[i]!;
    if (x - x === 0) sum += x;
    else missing++;
    if (i >= period) {
      const old = close[i - period]! * volume[i - period]!;
      if (old - old === 0) sum -= old;
      else missing--;
    }
    out[i] = i >= period - 1 && missing === 0 ? sum / period : NaN;
  }
}
