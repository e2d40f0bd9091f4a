/**
 * @module kernels/resample
 * Moving bars between timeframes and series: daily bars to weekly bars, and a
 * second series' closes onto the first series' bar times.
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
 * Weekly bars from daily bars (oldest first), stamped with each week's Monday.
 * @example
 * weeklyBars(daily).ts[0]; // => Date.UTC(2024, 0, 1) for bars from Tue 2024-01-02
 */
export function weeklyBars(daily: Ohlcv): Ohlcv {
  const n = daily.ts.length;
  const cols = newOhlcv(n);
  let w = -1;
  for (let i = 0; i < n; i++) {
    const monday = weekStart(daily.ts[i]!);
    if (w < 0 || cols.ts[w] !== monday) {
      w++;
      cols.ts[w] = monday;
      cols.open[w] = daily.open[i]!;
      cols.high[w] = daily.high[i]!;
      cols.low[w] = daily.low[i]!;
      cols.volume[w] = 0;
    } else {
      if (daily.high[i]! > cols.high[w]!) cols.high[w] = daily.high[i]!;
      if (daily.low[i]! < cols.low[w]!) cols.low[w] = daily.low[i]!;
    }
    cols.close[w] = daily.close[i]!;
    cols.volume[w]! += daily.volume[i]!;
  }
  const m = w + 1;
  return ohlcvFrom((name) => cols[name].slice(0, m));
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
