/**
 * @module providers/synthetic/columns
 * A growable set of OHLCV columns that becomes a `BarSeries` without copying
 * more than once.
 */
import { headBars, newOhlcv, OHLCV_COLUMNS, type Ohlcv } from '../../kernels/ohlcv';
import type { BarSeries } from '../types';
import type { Timeframe } from '../../domain/signal';

export const SOURCE = 'synthetic';

export class BarColumns {
  length = 0;
  /** The buffers: bars `0..length − 1` are filled, the rest is room to grow into. */
  buffers: Ohlcv;

  constructor(capacity: number) {
    this.buffers = newOhlcv(Math.max(1, capacity));
  }

  /** Columns holding a copy of the first `n` bars of `bars`, with room for `extra` more. */
  static copyOf(bars: Ohlcv, n: number, extra: number): BarColumns {
    const out = new BarColumns(n + extra);
    for (const name of OHLCV_COLUMNS) out.buffers[name].set(bars[name].subarray(0, n));
    out.length = n;
    return out;
  }

  /** Columns over `buffers` (owned from now on) whose first `length` bars are filled. */
  static over(buffers: Ohlcv, length: number): BarColumns {
    const out = new BarColumns(1);
    out.buffers = buffers;
    out.length = length;
    return out;
  }

  push(ts: number, open: number, high: number, low: number, close: number, volume: number): void {
    if (this.length === this.buffers.ts.length) this.grow();
    const i = this.length++;
    const b = this.buffers;
    b.ts[i] = ts;
    b.open[i] = open;
    b.high[i] = high;
    b.low[i] = low;
    b.close[i] = close;
    b.volume[i] = volume;
  }

  /** Widens the last bar (same `ts`) or appends a new one: how 4h bars gather 1h bars. */
  merge(ts: number, open: number, high: number, low: number, close: number, volume: number): void {
    const i = this.length - 1;
    const b = this.buffers;
    if (i >= 0 && b.ts[i] === ts) {
      if (high > b.high[i]!) b.high[i] = high;
      if (low < b.low[i]!) b.low[i] = low;
      b.close[i] = close;
      b.volume[i]! += volume;
    } else this.push(ts, open, high, low, close, volume);
  }

  /** The filled part as views over these buffers. */
  bars(): Ohlcv {
    return headBars(this.buffers, this.length);
  }

  /** The filled part as a series (views over these buffers). */
  series(symbol: string, timeframe: Timeframe): BarSeries {
    return { symbol, timeframe, ...this.bars(), source: SOURCE };
  }

  private grow(): void {
    const old = this.buffers;
    this.buffers = newOhlcv(old.ts.length * 2);
    for (const name of OHLCV_COLUMNS) this.buffers[name].set(old[name]);
  }
}
