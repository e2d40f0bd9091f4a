import { describe, expect, it } from 'bun:test';
import { Garch } from '../../../src/providers/synthetic/garch';
import { monotoneCubic } from '../../../src/providers/synthetic/patterns';
import { mix32, Rng } from '../../../src/providers/synthetic/rng';
import { excessKurtosis, mean, variance } from './fixtures';

describe('Rng', () => {
  it('repeats its stream for a seed and differs between seeds', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    const c = new Rng(8);
    const xs = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(xs);
  });

  it('draws uniforms strictly inside (0, 1) with mean 1/2 and variance 1/12', () => {
    const rng = new Rng(1);
    const u = Array.from({ length: 200_000 }, () => rng.uniform());
    expect(Math.min(...u)).toBeGreaterThan(0);
    expect(Math.max(...u)).toBeLessThan(1);
    expect(mean(u)).toBeCloseTo(0.5, 2);
    expect(variance(u)).toBeCloseTo(1 / 12, 3);
  });

  it('draws standard normals (Box–Muller): mean 0, variance 1, excess kurtosis 0', () => {
    const rng = new Rng(2);
    const z = Array.from({ length: 200_000 }, () => rng.normal());
    expect(mean(z)).toBeCloseTo(0, 2);
    expect(variance(z)).toBeCloseTo(1, 1);
    expect(Math.abs(excessKurtosis(z))).toBeLessThan(0.1);
  });

  it('draws unit-variance Student-t with the textbook excess kurtosis 6/(ν−4)', () => {
    const rng = new Rng(3);
    const t = Array.from({ length: 400_000 }, () => rng.studentT(10));
    expect(mean(t)).toBeCloseTo(0, 2);
    expect(variance(t)).toBeCloseTo(1, 1);
    expect(excessKurtosis(t)).toBeWithin(0.7, 1.4); // 6 / (10 − 4) = 1
  });
});

describe('coordinate hashing', () => {
  it('is a pure function of its coordinates, sensitive to each and to their order', () => {
    expect(mix32(1, 2, 3)).toBe(mix32(1, 2, 3));
    expect(mix32(1, 2, 3)).not.toBe(mix32(1, 2, 4));
    expect(mix32(1, 2, 3)).not.toBe(mix32(3, 2, 1));
  });
});

describe('GARCH(1,1)', () => {
  it('keeps the long-run variance at the target (Bollerslev 1986: ω / (1 − α − β))', () => {
    const g = new Garch(0.08, 0.9, 1e-4);
    const rng = new Rng(4);
    const shocks = Array.from({ length: 200_000 }, () => g.next(1e-4, rng.normal()));
    expect(variance(shocks) / 1e-4).toBeWithin(0.85, 1.15);
  });

  it('clusters: squared shocks are autocorrelated', () => {
    const g = new Garch(0.1, 0.85, 1e-4);
    const rng = new Rng(5);
    const sq = Array.from({ length: 100_000 }, () => g.next(1e-4, rng.normal()) ** 2);
    const m = mean(sq);
    let num = 0;
    let den = 0;
    for (let i = 0; i < sq.length; i++) {
      den += (sq[i]! - m) ** 2;
      if (i > 0) num += (sq[i]! - m) * (sq[i - 1]! - m);
    }
    expect(num / den).toBeGreaterThan(0.1);
  });

  it('rejects a non-stationary process', () => {
    expect(() => new Garch(0.2, 0.8, 1)).toThrow(RangeError);
  });
});

describe('monotone cubic (Fritsch–Carlson)', () => {
  it('passes through every knot and never overshoots between them', () => {
    const knots = [
      [0, 0],
      [10, 0.3],
      [18, 0.1],
      [25, 0.1],
      [40, 0.5],
    ] as const;
    const y = monotoneCubic(knots);
    expect(y).toHaveLength(41);
    for (const [x, v] of knots) expect(y[x]).toBeCloseTo(v, 12);
    for (let k = 0; k < knots.length - 1; k++) {
      const [x0, y0] = knots[k]!;
      const [x1, y1] = knots[k + 1]!;
      for (let x = x0; x < x1; x++) {
        expect(y[x]!).toBeGreaterThanOrEqual(Math.min(y0, y1) - 1e-12);
        expect(y[x]!).toBeLessThanOrEqual(Math.max(y0, y1) + 1e-12);
        expect(Math.sign(y[x + 1]! - y[x]!) * Math.sign(y1 - y0)).toBeGreaterThanOrEqual(0);
      }
    }
  });
});
