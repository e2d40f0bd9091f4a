/**
 * @module market-data/align
 * Two bar series side by side: the closes of the dates both have, oldest
 * first (a relative-strength line needs both closes of the same session).
 *
 * @example
 * const { asset, benchmark } = alignCloses(await marketData.bars('XLK', 'daily'), await marketData.bars('SPY', 'daily'));
 * rotationSnapshot(asset, benchmark);
 */
import type { BarSeries } from '../providers/types';

/** The closes of two series on the dates both have, oldest first. */
export function alignCloses(asset: BarSeries, benchmark: BarSeries): { ts: Float64Array; asset: Float64Array; benchmark: Float64Array } {
  const index = new Map<number, number>();
  benchmark.ts.forEach((ts, i) => index.set(ts, i));
  const ts: number[] = [];
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < asset.ts.length; i++) {
    const j = index.get(asset.ts[i]!);
    if (j === undefined) continue;
    ts.push(asset.ts[i]!);
    a.push(asset.close[i]!);
    b.push(benchmark.close[j]!);
  }
  return { ts: Float64Array.from(ts), asset: Float64Array.from(a), benchmark: Float64Array.from(b) };
}
