/**
 * @module providers/synthetic/columns
 * A growable set of OHLCV columns that becomes a `BarSeries` without copying
 * more than once.
 */
import type { BarSeries, Timeframe } from '../types';

export const SOURCE = 'synthetic';

export class BarColumns {
  length = 0;
  ts: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;

  constructor(capacity: number) {
    const n = Math.max(1, capacity);
    this.ts = new Float64Array(n);
    this.open = new Float64Array(n);
    this.high = new Float64Array(n);
    this.low = new Float64Array(n);
    this.close = new Float64Array(n);
    this.volume = new Float64Array(n);
  }

  push(ts: number, open: number, high: number, low: number, close: number, volume: number): void {
    if (this.length === this.ts.length) this.grow();
    const i = this.length++;
    this.ts[i] = ts;
    this.open[i] = open;
    this.high[i] = high;
    this.low[i] = low;
    this.close[i] = close;
    this.volume[i] = volume;
  }

  /** Widens the last bar (same `ts`) or appends a new one: how 4h bars gather 1h bars. */
  merge(ts: number, open: number, high: number, low: number, close: number, volume: number): void {
    const i = this.length - 1;
    if (i >= 0 && this.ts[i] === ts) {
      if (high > this.high[i]!) this.high[i] = high;
      if (low < this.low[i]!) this.low[i] = low;
      this.close[i] = close;
      this.volume[i]! += volume;
    } else this.push(ts, open, high, low, close, volume);
  }

  /** The filled part as a series (views over these buffers). */
  series(symbol: string, timeframe: Timeframe): BarSeries {
    const n = this.length;
    return {
      symbol,
      timeframe,
      ts: this.ts.subarray(0, n),
      open: this.open.subarray(0, n),
      high: this.high.subarray(0, n),
      low: this.low.subarray(0, n),
      close: this.close.subarray(0, n),
      volume: this.volume.subarray(0, n),
      source: SOURCE,
    };
  }

  private grow(): void {
    const widen = (a: Float64Array) => {
      const b = new Float64Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.ts = widen(this.ts);
    this.open = widen(this.open);
    this.high = widen(this.high);
    this.low = widen(this.low);
    this.close = widen(this.close);
    this.volume = widen(this.volume);
  }
}
