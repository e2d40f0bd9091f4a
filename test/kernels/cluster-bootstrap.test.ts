/**
 * kernels/stats/cluster-bootstrap: the percentile interval from whole
 * clusters resampled. Expected values: a hand case whose bootstrap
 * distribution can be listed (27 equally likely resamples of 3 clusters), and
 * a simulated clustered sample whose true variance follows from the model
 * (one-way random effects: Var(ȳ) = (σ²_u + σ²_e / m) / C, Kish, "Survey
 * Sampling", Wiley 1965, §5.3 design effect 1 + (m − 1)ρ).
 */
import { describe, expect, it } from 'bun:test';
import { clusterBootstrap, quantileType7, weekOf } from '../../src/kernels/stats/cluster-bootstrap';
import { seededRandom } from '../helpers/random';

const mean = (t: Float64Array) => t[1]! / t[0]!;

/** Standard normal draws by Box–Muller from a seeded generator. */
function normals(random: () => number) {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** Cluster rows [n, Σy] of a one-way random-effects sample: y = μ + u_c + e, u ~ N(0, σu²), e ~ N(0, σe²). */
function clusteredSample(seed: number, clusters: number, size: number, sigmaU: number, sigmaE: number, mu = 0): Float64Array {
  const z = normals(seededRandom(seed));
  const rows = new Float64Array(clusters * 2);
  for (let c = 0; c < clusters; c++) {
    const u = sigmaU * z();
    let sum = 0;
    for (let i = 0; i < size; i++) sum += mu + u + sigmaE * z();
    rows[2 * c] = size;
    rows[2 * c + 1] = sum;
  }
  return rows;
}

describe('cluster bootstrap: a hand case', () => {
  // Three clusters of 2 trades with mean R 1, 2 and 6: rows [trades, Σ R].
  const rows = new Float64Array([2, 2, 2, 4, 2, 12]);

  it('estimates the statistic over every cluster: (2 + 4 + 12) / 6 = 3', () => {
    expect(clusterBootstrap(rows, 2, [mean], { seed: 1, resamples: 10 })[0]!.estimate).toBe(3);
  });

  it('has the variance of the listed resamples: (1/3)·((1−3)² + (2−3)² + (6−3)²)/3 = 14/9', () => {
    const [r] = clusterBootstrap(rows, 2, [mean], { seed: 5, resamples: 40_000 });
    expect(r!.resamples).toBe(40_000);
    expect(r!.se ** 2).toBeGreaterThan((14 / 9) * 0.97);
    expect(r!.se ** 2).toBeLessThan((14 / 9) * 1.03);
  });

  it('puts its 95% interval at the smallest and largest resample mean, 1 and 6 (each 1 of 27 resamples, more than 2.5%)', () => {
    const [r] = clusterBootstrap(rows, 2, [mean], { seed: 9, resamples: 20_000 });
    expect(r!.lower).toBe(1);
    expect(r!.upper).toBe(6);
  });

  it('gives the same interval for the same seed and another for another seed', () => {
    const a = clusterBootstrap(rows, 2, [mean], { seed: 3, resamples: 200 })[0]!;
    expect(clusterBootstrap(rows, 2, [mean], { seed: 3, resamples: 200 })[0]).toEqual(a);
    expect(clusterBootstrap(rows, 2, [mean], { seed: 4, resamples: 200 })[0]!.se).not.toBe(a.se);
  });

  it('leaves out resamples where a statistic is undefined, and says how many counted', () => {
    // The second statistic divides by column 2, non-zero only in the first cluster.
    const r = clusterBootstrap(new Float64Array([1, 1, 1, 1, 2, 0, 1, 3, 0]), 3, [(t) => t[1]! / t[0]!, (t) => t[1]! / t[2]!], { seed: 2, resamples: 2000 });
    expect(r[0]!.resamples).toBe(2000);
    // P(the first cluster is never drawn) = (2/3)³ = 8/27.
    expect(r[1]!.resamples / 2000).toBeGreaterThan(1 - 8 / 27 - 0.04);
    expect(r[1]!.resamples / 2000).toBeLessThan(1 - 8 / 27 + 0.04);
  });

  it('refuses rows that do not fit the width, and a level outside (0, 1)', () => {
    expect(() => clusterBootstrap(new Float64Array(5), 2, [mean], { seed: 1 })).toThrow(RangeError);
    expect(() => clusterBootstrap(rows, 2, [mean], { seed: 1, level: 1 })).toThrow(RangeError);
    expect(() => clusterBootstrap(rows, 2, [mean], { seed: 1, resamples: 0 })).toThrow(RangeError);
  });
});

describe('cluster bootstrap: a simulated clustered sample', () => {
  // 200 clusters of 20: σu = 1, σe = 2 → Var(ȳ) = (1 + 4/20)/200 = 0.006 (sd 0.0775);
  // treating the 4,000 values as independent would give √(5/4000) = 0.0354.
  const C = 200;
  const m = 20;
  const trueSd = Math.sqrt((1 + 4 / m) / C);
  const naiveSd = Math.sqrt(5 / (C * m));

  it('measures the standard error of the clustered design, not the naive one', () => {
    const ses = [11, 12, 13, 14, 15].map((seed) => clusterBootstrap(clusteredSample(seed, C, m, 1, 2), 2, [mean], { seed, resamples: 1000 })[0]!.se);
    const average = ses.reduce((a, b) => a + b, 0) / ses.length;
    expect(average).toBeGreaterThan(0.9 * trueSd);
    expect(average).toBeLessThan(1.1 * trueSd);
    expect(average).toBeGreaterThan(1.8 * naiveSd);
  });

  it('covers the true mean about 95% of the time', () => {
    const runs = 200;
    let covered = 0;
    for (let k = 0; k < runs; k++) {
      const r = clusterBootstrap(clusteredSample(1000 + k, C, m, 1, 2, 0.5), 2, [mean], { seed: k, resamples: 500 })[0]!;
      if (r.lower <= 0.5 && 0.5 <= r.upper) covered++;
    }
    // Binomial(200, 0.95): sd 1.5 points; the percentile method runs a little short at C = 200.
    expect(covered / runs).toBeGreaterThan(0.89);
    expect(covered / runs).toBeLessThanOrEqual(0.99);
  });
});

describe('quantileType7', () => {
  it("interpolates between order statistics as R's quantile(type = 7) does", () => {
    // R: quantile(c(1, 2, 3, 4, 10), c(0.1, 0.5, 0.9)) = 1.4, 3.0, 7.6
    expect(quantileType7([1, 2, 3, 4, 10], 0.1)).toBeCloseTo(1.4, 12);
    expect(quantileType7([1, 2, 3, 4, 10], 0.5)).toBe(3);
    expect(quantileType7([1, 2, 3, 4, 10], 0.9)).toBeCloseTo(7.6, 12);
    expect(quantileType7([], 0.5)).toBeNaN();
  });
});

describe('weekOf', () => {
  it('puts Monday to Sunday of one week together and the next Monday apart', () => {
    const monday = weekOf('2024-03-04T21:00:00.000Z');
    expect(weekOf('2024-03-08T00:00:00.000Z')).toBe(monday);
    expect(weekOf('2024-03-10T23:59:59.000Z')).toBe(monday);
    expect(weekOf('2024-03-11T00:00:00.000Z')).toBe(monday + 1);
    expect(weekOf('1970-01-05T00:00:00.000Z')).toBe(0);
  });
});
