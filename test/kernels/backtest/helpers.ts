/** Shared pieces of the backtest kernel tests. */
import type { Ohlcv } from '../../../src/kernels/ohlcv';

/** Daily bars from [open, high, low, close] rows, one a day from 2024-01-01. */
export function barsOf(rows: readonly (readonly [number, number, number, number])[]): Ohlcv {
  const col = (k: number) => Float64Array.from(rows, (r) => r[k]!);
  return { ts: Float64Array.from(rows, (_, i) => Date.UTC(2024, 0, 1 + i)), open: col(0), high: col(1), low: col(2), close: col(3), volume: Float64Array.from(rows, () => 1e6) };
}

