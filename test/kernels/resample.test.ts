import { describe, expect, it } from 'bun:test';
import { newOhlcv, type Ohlcv } from '../../src/kernels/ohlcv';
import { alignByTime, rollUpBars, weekStart, weeklyBars } from '../../src/kernels/resample';
import { randomWalk, seededRandom } from '../helpers/random';

const d = (s: string) => Date.parse(`${s}T00:00:00Z`);

describe('weekStart', () => {
  it('is the Monday 00:00 UTC of the week', () => {
    expect(weekStart(d('2024-01-01'))).toBe(d('2024-01-01')); // a Monday
    expect(weekStart(d('2024-01-05') + 3_600_000 * 15)).toBe(d('2024-01-01')); // Friday afternoon
    expect(weekStart(d('2024-01-07'))).toBe(d('2024-01-01')); // Sunday
    expect(weekStart(d('2024-01-08'))).toBe(d('2024-01-08'));
    expect(weekStart(d('1970-01-01'))).toBe(d('1969-12-29'));
  });
});

describe('weeklyBars', () => {
  it('aggregates a hand-made fortnight with a Monday holiday', () => {
    // Week 1: Tue 01-02 .. Fri 01-05 (Monday holiday); week 2: Mon 01-08 .. Wed 01-10.
    const days = ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08', '2024-01-09', '2024-01-10'];
    const bars = {
      ts: Float64Array.from(days, d),
      open: Float64Array.of(10, 11, 12, 11, 13, 14, 15),
      high: Float64Array.of(11, 13, 12.5, 12, 14, 16, 15.5),
      low: Float64Array.of(9.5, 10.5, 11, 10, 12.5, 13.5, 14),
      close: Float64Array.of(11, 12, 11.5, 11.8, 13.8, 15, 14.2),
      volume: Float64Array.of(100, 200, 300, 400, 10, 20, 30),
    };
    const w = weeklyBars(bars);
    expect(Array.from(w.ts)).toEqual([d('2024-01-01'), d('2024-01-08')]);
    expect(Array.from(w.open)).toEqual([10, 13]);
    expect(Array.from(w.high)).toEqual([13, 16]);
    expect(Array.from(w.low)).toEqual([9.5, 12.5]);
    expect(Array.from(w.close)).toEqual([11.8, 14.2]);
    expect(Array.from(w.volume)).toEqual([1000, 60]);
  });

  it('returns no bars for no bars', () => {
    const empty = new Float64Array(0);
    expect(weeklyBars({ ts: empty, open: empty, high: empty, low: empty, close: empty, volume: empty }).ts.length).toBe(0);
  });
});

describe('alignByTime', () => {
  it('reads the other close at equal times and NaN elsewhere', () => {
    const out = alignByTime(Float64Array.of(1, 2, 3, 5, 7), Float64Array.of(0, 2, 3, 4, 7, 8), Float64Array.of(0, 20, 30, 40, 70, 80));
    expect(Array.from(out)).toEqual([NaN, 20, 30, NaN, 70]);
  });
});

/** The plain twin of `rollUpBars`: group by window start with a Map, then read each group's first, extremes, last and sum. */
function rollUpReference(bars: Ohlcv, bucketOf: Float64Array): Ohlcv {
  const groups = new Map<number, number[]>();
  bucketOf.forEach((start, i) => {
    if (Number.isNaN(start)) return;
    if (!groups.has(start)) groups.set(start, []);
    groups.get(start)!.push(i);
  });
  const starts = [...groups.keys()];
  const out = newOhlcv(starts.length);
  starts.forEach((start, k) => {
    const members = groups.get(start)!;
    out.ts[k] = start;
    out.open[k] = bars.open[members[0]!]!;
    out.close[k] = bars.close[members.at(-1)!]!;
    out.high[k] = Math.max(...members.map((i) => bars.high[i]!));
    out.low[k] = Math.min(...members.map((i) => bars.low[i]!));
    out.volume[k] = members.reduce((sum, i) => sum + bars.volume[i]!, 0);
  });
  return out;
}

describe('rollUpBars', () => {
  it('equals its plain twin over a grid of window sizes and gaps', () => {
    const rand = seededRandom(7);
    for (const n of [1, 2, 5, 60, 391]) {
      for (const size of [1, 2, 5, 30, 60]) {
        const closes = randomWalk(rand, n);
        const bars = newOhlcv(n);
        for (let i = 0; i < n; i++) {
          bars.ts[i] = i * 60_000;
          bars.open[i] = i > 0 ? closes[i - 1]! : 100;
          bars.close[i] = closes[i]!;
          bars.high[i] = Math.max(bars.open[i]!, closes[i]!) + rand() * 0.1;
          bars.low[i] = Math.min(bars.open[i]!, closes[i]!) - rand() * 0.1;
          bars.volume[i] = Math.round(rand() * 1000);
        }
        // Every seventh bar falls outside every window (extended hours, say).
        const windows = bars.ts.map((t, i) => (i % 7 === 3 ? NaN : Math.floor(t / (size * 60_000)) * size * 60_000));
        expect(rollUpBars(bars, windows)).toEqual(rollUpReference(bars, windows));
      }
    }
  });

  it('leaves out bars without a window and refuses windows that go back in time', () => {
    const bars = { ts: Float64Array.of(0, 1, 2), open: Float64Array.of(1, 2, 3), high: Float64Array.of(1, 2, 3), low: Float64Array.of(1, 2, 3), close: Float64Array.of(1, 2, 3), volume: Float64Array.of(1, 1, 1) };
    expect(Array.from(rollUpBars(bars, Float64Array.of(NaN, 10, 10)).open)).toEqual([2]);
    expect(() => rollUpBars(bars, Float64Array.of(10, 20, 10))).toThrow(RangeError);
    expect(() => rollUpBars(bars, Float64Array.of(10, 20))).toThrow(RangeError);
  });
});
