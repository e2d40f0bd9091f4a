/**
 * @module kernels/indicators/set
 * The indicator series a scan computes once per symbol and timeframe and hands
 * to every pattern detector and to scoring. Every array has one value per bar,
 * aligned with the bars, `NaN` before the indicator's lookback. A value at bar
 * `i` uses bars `0..i` only (no look-ahead).
 */
export interface IndicatorSet {
  sma10: Float64Array;
  sma20: Float64Array;
  sma50: Float64Array;
  sma150: Float64Array;
  sma200: Float64Array;
  ema21: Float64Array;
  /** Wilder's RSI, 14 bars. */
  rsi14: Float64Array;
  /** Wilder's average true range, 14 bars. */
  atr14: Float64Array;
  /** Wilder's ADX and directional indicators, 14 bars. */
  adx14: Float64Array;
  plusDi14: Float64Array;
  minusDi14: Float64Array;
  /** Bollinger band width (upper − lower) / middle, 20 bars, 2σ. */
  bbWidth20: Float64Array;
  /** Percentile rank (0–100) of bbWidth20 among its last 126 values. */
  bbWidthPercentile: Float64Array;
  /** Simple average of volume over 50 bars. */
  avgVolume50: Float64Array;
  /** Simple average of close × volume over 50 bars. */
  avgDollarVolume50: Float64Array;
  macd: Float64Array;
  macdSignal: Float64Array;
  macdHistogram: Float64Array;
  /** Highest high and lowest low of the last 252 bars (52 weeks on daily bars), current bar included. */
  high252: Float64Array;
  low252: Float64Array;
  /** Highest high / lowest low of the previous 55 and 20 bars, current bar excluded (Donchian channels as the Turtles used them). */
  donchianHigh55: Float64Array;
  donchianLow55: Float64Array;
  donchianHigh20: Float64Array;
  donchianLow20: Float64Array;
}
