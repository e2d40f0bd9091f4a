/**
 * @module kernels/ohlcv
 * The OHLCV columns every kernel takes, declared once: one `Float64Array` per
 * field, all the same length, oldest bar first. Providers' `BarSeries`
 * extends it with the symbol, timeframe and source; the CSV parser and the
 * simulator fill it. Columns rather than an array of bar objects so kernels,
 * workers and the shared store pass the arrays along without copying (the
 * layout Tulip Indicators and vectorbt take too).
 *
 * @example
 * const bars = newOhlcv(3); // three bars of zeros
 * headBars(bars, 2).close.length; // => 2 (views over the same buffers)
 */
export interface Ohlcv {
  /** Bar open time, epoch milliseconds UTC. */
  ts: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

/** The columns' names, in the order files and vendors write them. */
export const OHLCV_COLUMNS = ['ts', 'open', 'high', 'low', 'close', 'volume'] as const;
export type OhlcvColumn = (typeof OHLCV_COLUMNS)[number];

/**
 * Columns made one way: `column(name)` for each of the six (allocate, copy
 * or view every column alike).
 * @example
 * ohlcvFrom((name) => bars[name].slice(0, 10)); // => a copy of the first ten bars
 */
export function ohlcvFrom(column: (name: OhlcvColumn) => Float64Array): Ohlcv {
  return { ts: column('ts'), open: column('open'), high: column('high'), low: column('low'), close: column('close'), volume: column('volume') };
}

/** `length` bars of zeros, to be filled. */
export function newOhlcv(length: number): Ohlcv {
  return ohlcvFrom(() => new Float64Array(length));
}

/**
 * The first `n` bars as views over the same buffers (no copy): all a kernel
 * standing on bar `n − 1` may read.
 */
export function headBars(bars: Ohlcv, n: number): Ohlcv {
  return ohlcvFrom((name) => bars[name].subarray(0, n));
}

/**
 * Index of the last bar with `ts[i] ≤ asOfTs` (binary search over ascending
 * times), or −1 before the first: the one search for "the bar at or before"
 * (workers read it through workers/store).
 * @example
 * indexAtOrBefore(Float64Array.of(10, 20, 30), 25); // => 1
 */
export function indexAtOrBefore(ts: Float64Array, asOfTs: number): number {
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! <= asOfTs) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
