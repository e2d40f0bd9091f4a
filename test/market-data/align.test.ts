import { describe, expect, it } from 'bun:test';
import { alignCloses } from '../../src/market-data/align';

const DAY = 86_400_000;
const series = (days: number[], closes: number[]) => ({ ts: Float64Array.from(days, (d) => d * DAY), close: Float64Array.from(closes) });

describe('alignCloses', () => {
  it('pairs the closes of the dates both series have, oldest first', () => {
    // asset on days 1,2,4,5,7; benchmark on days 2,3,4,7,8: shared are 2, 4 and 7.
    const out = alignCloses(series([1, 2, 4, 5, 7], [10, 20, 40, 50, 70]), series([2, 3, 4, 7, 8], [200, 300, 400, 700, 800]));
    expect([...out.ts]).toEqual([2 * DAY, 4 * DAY, 7 * DAY]);
    expect([...out.asset]).toEqual([20, 40, 70]);
    expect([...out.benchmark]).toEqual([200, 400, 700]);
  });

  it('answers empty columns when the series share no date or one is empty', () => {
    for (const [asset, benchmark] of [
      [series([1, 3], [1, 3]), series([2, 4], [2, 4])],
      [series([], []), series([1], [1])],
      [series([1], [1]), series([], [])],
    ] as const) {
      const out = alignCloses(asset, benchmark);
      expect([out.ts.length, out.asset.length, out.benchmark.length]).toEqual([0, 0, 0]);
    }
  });

  it("pairs a benchmark date given twice with that date's last bar", () => {
    const out = alignCloses(series([1, 2, 3], [1, 2, 3]), series([2, 2, 3], [20, 21, 30]));
    expect([...out.benchmark]).toEqual([21, 30]);
  });

  it('matches a lookup by date over many random calendars', () => {
    // Reference: for every asset bar, the benchmark bar of the same timestamp found by search.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let round = 0; round < 50; round++) {
      const days = (p: number) => Array.from({ length: 300 }, (_, d) => d).filter(() => next() < p);
      const assetDays = days(0.8);
      const benchDays = days(0.7);
      const a = series(assetDays, assetDays.map((d) => d + 0.5));
      const b = series(benchDays, benchDays.map((d) => -d));
      const expected = assetDays.filter((d) => benchDays.includes(d));
      const out = alignCloses(a, b);
      expect([...out.ts]).toEqual(expected.map((d) => d * DAY));
      expect([...out.asset]).toEqual(expected.map((d) => d + 0.5));
      expect([...out.benchmark]).toEqual(expected.map((d) => -d));
    }
  });
});
