import { describe, expect, test } from 'bun:test';
import { HeldPath } from '../../../src/providers/synthetic/held-path';
import { buildWorld } from '../../../src/providers/synthetic/market';
import { simulateDaily, type DailyPath } from '../../../src/providers/synthetic/paths';
import { symbolProfile } from '../../../src/providers/synthetic/profile';
import { loadInstruments } from '../../../src/providers/universe';

const COLUMNS = ['open', 'high', 'low', 'close', 'volume'] as const;
const world = buildWorld(42, '2026-11-20');
const paths = loadInstruments()
  .filter((_, i) => i % 25 === 0)
  .map((instrument) => simulateDaily(world, symbolProfile(42, instrument)));

/** Every value of `held`, read both ways, equals the drawn path's bit for bit. */
function expectSame(held: HeldPath, daily: DailyPath): void {
  const n = daily.close.length;
  expect(held.length).toBe(n);
  const ts = Float64Array.from({ length: n }, (_, i) => i * 1000);
  const bars = held.ohlcv(ts, n);
  for (const name of COLUMNS) {
    expect([...bars[name]]).toEqual([...daily[name]]);
    const bySession = Float64Array.from({ length: n }, (_, t) => held[name](t));
    expect([...bySession]).toEqual([...daily[name]]);
  }
  expect([...bars.ts]).toEqual([...ts]);
}

describe('HeldPath', () => {
  test('holds drawn paths compactly (cents, whole shares) and gives back the same doubles', () => {
    expect(paths.length).toBeGreaterThan(10);
    for (const daily of paths) {
      const parts = HeldPath.partsOf(daily);
      expect(parts.cents).toBeInstanceOf(Int32Array);
      expect(parts.drawn).toBeUndefined();
      expectSame(HeldPath.from(parts), daily);
    }
  });

  test('keeps a path as drawn when a value would not come back exactly', () => {
    const off = (name: 'close' | 'volume', value: number): DailyPath => {
      const copy = { ...paths[0]!, [name]: paths[0]![name].slice() };
      copy[name][7] = value;
      return copy;
    };
    for (const daily of [off('close', 12.345), off('volume', 2 ** 32), off('volume', 10.5)]) {
      const parts = HeldPath.partsOf(daily);
      expect(parts.cents).toBeUndefined();
      expect(parts.drawn).toBeDefined();
      expectSame(HeldPath.from(parts), daily);
    }
  });

  test('leaves room after the sessions asked for, and the times are the ones given', () => {
    const daily = paths[1]!;
    const held = HeldPath.of(daily);
    const ts = Float64Array.from({ length: daily.close.length }, (_, i) => 1e12 + i);
    const bars = held.ohlcv(ts, 10, 1);
    expect(bars.close.length).toBe(11);
    expect(bars.ts.subarray(0, 10)).toEqual(ts.subarray(0, 10));
    expect(bars.close.subarray(0, 10)).toEqual(daily.close.subarray(0, 10));
    expect(bars.close[10]).toBe(0);
  });
});
