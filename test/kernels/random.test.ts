import { describe, expect, it } from 'bun:test';
import { seededRandom, seedOf } from '../../src/kernels/random';

describe('seededRandom (mulberry32)', () => {
  it('gives the values of an independent implementation (Python, unbounded integers masked to 32 bits)', () => {
    const a = seededRandom(42);
    expect([a(), a(), a()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
    const b = seededRandom(0);
    expect([b(), b()]).toEqual([0.26642920868471265, 0.0003297457005828619]);
  });

  it('stays in [0, 1) and repeats itself for a seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    for (let i = 0; i < 10_000; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});

describe('seedOf (FNV-1a)', () => {
  it("is FNV-1a 32 with seed 0: the draft's vectors 'a' → 0xe40c292c, 'foobar' → 0xbf9cf968", () => {
    expect(seedOf('a', 0)).toBe(0xe40c292c);
    expect(seedOf('foobar', 0)).toBe(0xbf9cf968);
    expect(seedOf('', 0)).toBe(2166136261);
  });
  it('gives another seed for another base seed or text', () => {
    expect(seedOf('AAPL|2020-03-02', 14)).not.toBe(seedOf('AAPL|2020-03-02', 15));
    expect(seedOf('AAPL|2020-03-02', 14)).not.toBe(seedOf('AAPL|2020-03-03', 14));
  });
});
