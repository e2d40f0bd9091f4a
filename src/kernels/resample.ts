/**
 * @module kernels/resample
 * Moving bars between timeframes and series: bars rolled up into longer bars
 * (minutes into hours and sessions, days into weeks), and a second series'
 * closes onto the first series' bar times.
 *
 * A roll-up follows the rule every vendor states for its aggregates (Alpaca,
 * "Historical bars"; Polygon, "Aggregates"; StockCharts, "Weekly bars"): the
 * longer bar opens at its first bar's open, closes at its last bar's close,
 * takes the highest high, the lowest low and the summed volume, and is stamped
 * with the start of its window. Which window a bar falls in is the caller's
 * (`bucketOf`): the NYSE session's hours are providers/session-buckets'.
 *
 * Weekly bars follow the usual charting convention (StockCharts, "Weekly
 * bars"): a week runs Monday to Sunday UTC; its bar opens at the first daily
 * bar's open, closes at the last one's close, and takes the highest high, the
 * lowest low and the summed volume. Each weekly bar is stamped with the Monday
 * 00:00 UTC that starts its week, so its spacing is exactly 7 days and
 * `completedHigherBars` (kernels/confluence) counts a week as complete only
 * once the next week has begun: conservative, never a look-ahead.
 */
import { newOhlcv, ohlcvFrom, type Ohlcv } from './ohlcv';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** 1970-01-01 was a Thursday: the Monday before it is 3 days earlier. */
const MONDAY_OFFSET_MS = 3 * DAY_MS;

/** Monday 00:00 UTC of the week holding `ts`. */
export function weekStart(ts: number): number {
  return Math.floor((ts + MONDAY_OFFSET_MS) / WEEK_MS) * WEEK_MS - MONDAY_OFFSET_MS;
}

/**
 * Bars (oldest first) rolled up into the windows `bucketOf` assigns: bar `i`
 * joins the window starting at `bucketOf[i]` (epoch ms), or is left out when
 * that is `NaN` (outside every window: extended hours, a holiday). Bars of one
 * window are consecutive; the window starts never decrease.
 *
 * Lookback: none; O(n). Reference twin: `rollUpReference` in
 * test/kernels/resample.test.ts.
 *
 * @throws {RangeError} when the lengths differ or a window starts before the one before it
 * @example
 * // 09:30, 09:31, 10:30 minutes into session hours starting 09:30 and 10:30:
 * rollUpBars(minutes, Float64Array.of(h930, h930, h1030)).ts; // => [h930, h1030]
 */
export function rollUpBars(bars: Ohlcv, bucketOf: Float64Array): Ohlcv {
  const n = bars.ts.length;
  if (bucketOf.length !== n) throw new RangeError(`rollUpBars: ${bucketOf.length} windows for ${n} bars`);
  const cols = newOhlcv(n);
  let w = -1;
  for (let i = 0; i < n; i++) {
    const start = bucketOf[i]!;
    if (Number.isNaN(start)) continue;
    if (w < 0 || cols.ts[w] !== start) {
      if (w >= 0 && start < cols.ts[w]!) throw new RangeError(`rollUpBars: bar ${i} falls in a window (${start}) before the previous one (${cols.ts[w]})`);
      w++;
      cols.ts[w] = start;
      cols.open[w] = bars.open[i]!;
      cols.high[w] = bars.high[i]!;
      cols.low[w] = bars.low[i]!;
      cols.volume[w] = 0;
    } else {
      if (bars.high[i]! > cols.high[w]!) cols.high[w] = bars.high[i]!;
      if (bars.low[i]! < cols.low[w]!) cols.low[w] = bars.low[i]!;
    }
    cols.close[w] = bars.close[i]!;
    cols.volume[w]! += bars.volume[i]!;
  }
  const m = w + 1;
  return ohlcvFrom((name) => cols[name].slice(0, m));
}

/**
 * Weekly bars from daily bars (oldest first), stamped with each week's Monday.
 * @example
 * weeklyBars(daily).ts[0]; // => Date.UTC(2024, 0, 1) for bars from Tue 2024-01-02
 */
export function weeklyBars(daily: Ohlcv): Ohlcv {
  return rollUpBars(daily, daily.ts.map(weekStart));
}

/**
 * The `close` of another series read at each time of `ts` (both ascending):
 * its close at the same bar time, `NaN` where it has no bar at that time.
 * @example
 * alignByTime(Float64Array.of(1, 2, 3), Float64Array.of(2, 3, 4), Float64Array.of(20, 30, 40)); // => [NaN, 20, 30]
 */
export function alignByTime(ts: Float64Array, otherTs: Float64Array, otherClose: Float64Array): Float64Array {
  const out = new Float64Array(ts.length).fill(NaN);
  let j = 0;
  for (let i = 0; i < ts.length; i++) {
    while (j < otherTs.length && otherTs[j]! < ts[i]!) j++;
    if (j < otherTs.length && otherTs[j] === ts[i]) out[i] = otherClose[j]!;
  }
  return out;
}
