/**
 * @module market-data/align
 * Two bar series side by side: the closes of the dates both have, oldest
 * first (a relative-strength line needs both closes of the same session).
 *
 * Both series are oldest first (providers/types `BarSeries`), so one merge
 * walk pairs them in O(n + m) without an index: /api/sector-rotation aligns
 * 11 funds against the benchmark per call, and a hash map of the
 * benchmark's ~2,000 epoch-millisecond keys (daily since 2019 on the
 * synthetic market; heap numbers, not small integers) rebuilt for each was
 * most of that route's main-thread time (issue 27, bench/stall --cpu-prof).
 *
 * @example
 * const { asset, benchmark } = alignCloses(await marketData.bars('XLK', 'daily'), await marketData.bars('SPY', 'daily'));
 * rotationSnapshot(asset, benchmark);
 */
import type { BarSeries } from '../providers/types';

type Columns = Pick<BarSeries, 'ts' | 'close'>;

/**
 * The closes of two series on the dates both have, oldest first. Where the
 * benchmark repeats a timestamp, its last bar of it is the one paired.
 */
export function alignCloses(asset: Columns, benchmark: Columns): { ts: Float64Array; asset: Float64Array; benchmark: Float64Array } {
  const n = asset.ts.length;
  const m = benchmark.ts.length;
  const ts = new Float64Array(n);
  const a = new Float64Array(ts.length);
  const b = new Float64Array(ts.length);
  let count = 0;
  let j = 0;
  for (let i = 0; i < n && j < m; i++) {
    const t = asset.ts[i]!;
    while (j < m && benchmark.ts[j]! < t) j++;
    while (j + 1 < m && benchmark.ts[j + 1]! === t) j++;
    if (j === m || benchmark.ts[j] !== t) continue;
    ts[count] = t;
    a[count] = asset.close[i]!;
    b[count] = benchmark.close[j]!;
    count++;
  }
  return { ts: ts.slice(0, count), asset: a.slice(0, count), benchmark: b.slice(0, count) };
}
