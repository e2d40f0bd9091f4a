/** kernels/baseline: the geometry re-applied at a random entry, resolved by prices; buckets and seeded matching. */
import { describe, expect, it } from 'bun:test';
import { atrPercent, bucketOf, geometryOf, quantileCuts, resolveAt, resolveManagedAt, sampleMatches } from '../../src/kernels/baseline';
import { seededRandom } from '../../src/kernels/random';
import type { Ohlcv } from '../../src/kernels/ohlcv';

const DAY = 86_400_000;
function bars(rows: [number, number, number, number][]): Ohlcv {
  const col = (k: number) => Float64Array.from(rows.map((r) => r[k]!));
  return { ts: Float64Array.from(rows.map((_, i) => Date.UTC(2020, 0, 1) + i * DAY)), open: col(0), high: col(1), low: col(2), close: col(3), volume: new Float64Array(rows.length).fill(1e6) };
}

describe('geometryOf', () => {
  it('takes the stop and target as fractions of the entry, mirrored for shorts', () => {
    expect(geometryOf('long', 100, 95, 110)).toEqual({ direction: 'long', stopFrac: 0.05, targetFrac: 0.1 });
    const short = geometryOf('short', 50, 52, 45)!;
    expect(short.stopFrac).toBeCloseTo(0.04, 15);
    expect(short.targetFrac).toBeCloseTo(0.1, 15);
    expect(geometryOf('long', 100, 101, 110)).toBeNull(); // stop above a long's entry
    expect(geometryOf('short', 100, 105, 100)).toBeNull(); // target at entry
  });
});

describe('resolveAt', () => {
  const series = bars([
    [100, 101, 99, 100], // 0
    [100, 101, 99, 100], // 1: entry at this close
    [100, 104, 98, 103], // 2
    [103, 111, 102, 110], // 3: high 111 ≥ 110 → a long 5%/10% wins; a short 5%/10% (stop 105) lost here
    [110, 112, 94, 95], // 4
  ]);
  it('wins a long when +10% comes before −5%, filled at the target: 2R', () => {
    const r = resolveAt({ direction: 'long', stopFrac: 0.05, targetFrac: 0.1 }, series, 1);
    expect(r).toMatchObject({ outcome: 'win', exitIndex: 3, barsHeld: 2 });
    expect(r.exitPrice).toBeCloseTo(110, 10);
    expect(r.rMultiple).toBeCloseTo(2, 10);
  });
  it('loses the mirrored short at its stop (105) on the same bar: −1R', () => {
    const r = resolveAt({ direction: 'short', stopFrac: 0.05, targetFrac: 0.1 }, series, 1);
    expect(r).toMatchObject({ outcome: 'loss', exitIndex: 3 });
    expect(r.rMultiple).toBeCloseTo(-1, 10);
  });
  it('stays open when the data ends first', () => {
    expect(resolveAt({ direction: 'long', stopFrac: 0.2, targetFrac: 0.5 }, series, 1).outcome).toBe('open');
  });
});

describe('volatility buckets', () => {
  it('ATR% of a constant 2-point range around 100 is 2%', () => {
    const flat = bars(Array.from({ length: 30 }, () => [100, 101, 99, 100] as [number, number, number, number]));
    const a = atrPercent(flat);
    expect(Number.isNaN(a[0]!)).toBe(true);
    expect(a[29]!).toBeCloseTo(2, 12);
  });
  it('cuts at nearest-rank quantiles and files values by them', () => {
    expect(quantileCuts([5, 1, 4, 2, 3, Number.NaN], [0.2, 0.4, 0.6, 0.8])).toEqual([1, 2, 3, 4]);
    expect([0.5, 1, 2.5, 4, 9, Number.NaN].map((v) => bucketOf(v, [1, 2, 3, 4]))).toEqual([0, 1, 2, 4, 4, -1]);
  });
});

describe('sampleMatches', () => {
  it('draws only candidates of the key, reproducibly for a seed', () => {
    const candidates = new Map([
      ['2019|long|2', [1, 2, 3]],
      ['2019|short|2', [7]],
    ]);
    const a = sampleMatches(candidates, '2019|long|2', 50, seededRandom(42));
    expect(a).toHaveLength(50);
    expect(a.every((v) => v >= 1 && v <= 3)).toBe(true);
    expect(new Set(a).size).toBe(3);
    expect(sampleMatches(candidates, '2019|long|2', 50, seededRandom(42))).toEqual(a);
    expect(sampleMatches(candidates, '2019|short|2', 3, seededRandom(1))).toEqual([7, 7, 7]);
    expect(sampleMatches(candidates, '2020|long|0', 3, seededRandom(1))).toEqual([]);
  });
});

describe('resolveManagedAt: a random entry held by a failure rule', () => {
  const g = { direction: 'long' as const, stopFrac: 0.05, targetFrac: 0.1 };
  it('exits at the first close through entry × (1 − failFrac) as a scratch: −0.42R for a close at 97.9 (stop 5%)', () => {
    const series = bars([
      [100, 101, 99, 100], // 0: entry
      [100, 101, 98.5, 98.5], // 1: above the 98 level
      [98.5, 99, 97.5, 97.9], // 2: closes through 98
      [97.9, 111, 97, 110], // 3: would have won
    ]);
    const r = resolveManagedAt(g, series, 0, 0.02);
    expect(r).toMatchObject({ outcome: 'scratch', exitIndex: 2 });
    expect(r.rMultiple).toBeCloseTo(-2.1 / 5, 12);
    expect(resolveAt(g, series, 0).outcome).toBe('win');
  });
  it('loses at the stop when a bar reaches it before any close through the level', () => {
    const series = bars([
      [100, 101, 99, 100],
      [100, 100.5, 94.5, 99], // low through the stop 95, close above the level 98
      [99, 99, 90, 91],
    ]);
    expect(resolveManagedAt(g, series, 0, 0.02)).toMatchObject({ outcome: 'loss', exitIndex: 1, rMultiple: -1 });
  });
  it('counts the failing close before the stop on the same bar (the lifecycle records the failure first)', () => {
    const series = bars([
      [100, 101, 99, 100],
      [100, 100.5, 94.5, 96], // low through the stop, close through the level
    ]);
    const r = resolveManagedAt(g, series, 0, 0.02);
    expect(r.outcome).toBe('scratch');
    expect(r.rMultiple).toBeCloseTo(-0.8, 12);
  });
  it('is resolveAt when there is no failure rule', () => {
    const series = bars([
      [100, 101, 99, 100],
      [100, 104, 96, 97],
      [97, 111, 96, 110],
    ]);
    expect(resolveManagedAt(g, series, 0, null)).toEqual(resolveAt(g, series, 0));
  });
});
