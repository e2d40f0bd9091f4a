/**
 * @module kernels/indicators
 * One indicator a file, one shape for all (after Tulip Indicators): a kernel
 * `name1d(inputs…, outputs…, options)` writes into caller-provided
 * `Float64Array`s (`NaN` before its lookback), allocates nothing per bar, and
 * rejects bad options with a `RangeError` before touching any output; a
 * companion `nameLookback(options)` gives the index of its first valid value.
 * Every kernel is held to a naive twin in `test/kernels/indicators/`.
 *
 * Missing values (non-finite inputs) follow two rules: moving windows (SMA,
 * Bollinger, rolling extremes, percentile rank, volume averages) count bars
 * and give `NaN` while a missing value is inside the window; recursive
 * smoothers (EMA, MACD, RSI, ATR, ADX) skip the bar and carry their state.
 *
 * {@link computeIndicators} fills the whole {@link IndicatorSet}; a scan reads
 * its {@link ScanIndicatorSet} part, which `scan-set.ts` keeps incrementally
 * (every kernel it uses takes a streaming state or a start bar).
 *
 * @example
 * const ind = computeIndicators(bars);
 * ind.sma200[bars.close.length - 1]; // => the latest 200-bar SMA (NaN with under 200 bars)
 */
import { adx1d } from './adx';
import { atr1d } from './atr';
import { bollingerWidth1d, percentileRank1d } from './bollinger';
import { ema1d } from './ema';
import { macd1d } from './macd';
import { rollingMax1d, rollingMin1d } from './rolling';
import { rsi1d } from './rsi';
import type { Ohlcv } from '../ohlcv';
import type { IndicatorSet } from './set';
import { sma1d } from './sma';
import { averageDollarVolume1d, averageVolume1d } from './volume';

export type { Ohlcv } from '../ohlcv';
export type { IndicatorSet } from './set';
export * from './adx';
export * from './atr';
export * from './bollinger';
export * from './ema';
export * from './high-low';
export * from './macd';
export * from './relative-strength';
export * from './rolling';
export * from './rsi';
export * from './scan-set';
export * from './sma';
export * from './volume';

/** The members of {@link IndicatorSet}, in the order their arrays sit in the shared buffer. */
export const INDICATOR_NAMES = [
  'sma10',
  'sma20',
  'sma50',
  'sma150',
  'sma200',
  'ema21',
  'rsi14',
  'atr14',
  'adx14',
  'plusDi14',
  'minusDi14',
  'bbWidth20',
  'bbWidthPercentile',
  'avgVolume50',
  'avgDollarVolume50',
  'macd',
  'macdSignal',
  'macdHistogram',
  'high252',
  'low252',
  'donchianHigh55',
  'donchianLow55',
  'donchianHigh20',
  'donchianLow20',
] as const satisfies readonly (keyof IndicatorSet)[];

/** Fails to compile when IndicatorSet gains a member that INDICATOR_NAMES lacks. */
type Unlisted = Exclude<keyof IndicatorSet, (typeof INDICATOR_NAMES)[number]>;
const everyMemberListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyMemberListed;

/**
 * Computes every member of {@link IndicatorSet} over `bars`. The arrays are
 * views into one allocation of `24 × bars` doubles, plus one `Int32Array`
 * scratch for the rolling extremes. A value at bar `i` reads bars `0..i` only.
 * @throws {RangeError} when the OHLCV columns differ in length.
 * @example
 * const ind = computeIndicators(bars);
 * ind.donchianHigh55[i]; // => the highest high of bars i − 55 .. i − 1
 */
export function computeIndicators(bars: Ohlcv): IndicatorSet {
  const { high, low, close, volume } = bars;
  const n = close.length;
  if (high.length !== n || low.length !== n || volume.length !== n) {
    throw new RangeError(
      `computeIndicators: high (${high.length}), low (${low.length}), close (${n}) and volume (${volume.length}) must have one value per bar`,
    );
  }
  const block = new Float64Array(INDICATOR_NAMES.length * n);
  const set = {} as IndicatorSet;
  INDICATOR_NAMES.forEach((name, k) => {
    set[name] = block.subarray(k * n, (k + 1) * n);
  });
  const scratch = new Int32Array(n);

  sma1d(close, set.sma10, { period: 10 });
  sma1d(close, set.sma20, { period: 20 });
  sma1d(close, set.sma50, { period: 50 });
  sma1d(close, set.sma150, { period: 150 });
  sma1d(close, set.sma200, { period: 200 });
  ema1d(close, set.ema21, { period: 21 });
  rsi1d(close, set.rsi14, { period: 14 });
  atr1d(high, low, close, set.atr14, { period: 14 });
  adx1d(high, low, close, set.adx14, set.plusDi14, set.minusDi14, { period: 14 });
  bollingerWidth1d(close, set.bbWidth20, { period: 20, multiplier: 2 });
  percentileRank1d(set.bbWidth20, set.bbWidthPercentile, { period: 126 });
  averageVolume1d(volume, set.avgVolume50, { period: 50 });
  averageDollarVolume1d(close, volume, set.avgDollarVolume50, { period: 50 });
  macd1d(close, set.macd, set.macdSignal, set.macdHistogram, { fast: 12, slow: 26, signal: 9 });
  rollingMax1d(high, set.high252, { period: 252 }, scratch);
  rollingMin1d(low, set.low252, { period: 252 }, scratch);
  rollingMax1d(high, set.donchianHigh55, { period: 55, excludeCurrent: true }, scratch);
  rollingMin1d(low, set.donchianLow55, { period: 55, excludeCurrent: true }, scratch);
  rollingMax1d(high, set.donchianHigh20, { period: 20, excludeCurrent: true }, scratch);
  rollingMin1d(low, set.donchianLow20, { period: 20, excludeCurrent: true }, scratch);
  return set;
}
