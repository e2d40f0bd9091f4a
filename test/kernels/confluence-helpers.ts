/**
 * @module test/kernels/confluence-helpers — shared by the confluence tests on
 * hand-built series and on real history: weekly bars resampled from daily ones,
 * and the factors' votes by name.
 */
import type { confluence } from '../../src/kernels/confluence';
import type { Ohlcv } from '../../src/kernels/ohlcv';

export const DAY = 86_400_000;

/** Weekly bars (Monday-based weeks) stamped with the week's first bar, as a caller would resample daily bars. */
export function weekly(bars: Ohlcv): Ohlcv {
  const rows: number[][] = [];
  let week = NaN;
  for (let i = 0; i < bars.ts.length; i++) {
    const w = Math.floor((bars.ts[i]! / DAY + 3) / 7); // 1970-01-01 was a Thursday
    const row = rows.at(-1);
    if (w !== week || !row) {
      rows.push([bars.ts[i]!, bars.open[i]!, bars.high[i]!, bars.low[i]!, bars.close[i]!, bars.volume[i]!]);
      week = w;
    } else {
      row[2] = Math.max(row[2]!, bars.high[i]!);
      row[3] = Math.min(row[3]!, bars.low[i]!);
      row[4] = bars.close[i]!;
      row[5]! += bars.volume[i]!;
    }
  }
  const column = (k: number) => Float64Array.from(rows, (r) => r[k]!);
  return { ts: column(0), open: column(1), high: column(2), low: column(3), close: column(4), volume: column(5) };
}

/** The factors' votes by name. */
export const votes = (r: ReturnType<typeof confluence>) => Object.fromEntries(r.factors.map((f) => [f.name, f.vote]));
