/**
 * kernels/stats/clustered: weekly-clustered intervals of a mean and a rate in
 * one pass. Expected values: a hand case (the module's example, t(0.975, 2) =
 * 4.302653 from any t table), the identities with Student-t and Wilson when
 * every cluster holds one trade (Wilson's bounds at p = 0.4, n = 4 and
 * p = 0, n = 6 from his formula, Wilson 1927), and simulated one-way random
 * effects samples whose true variance follows from the model (Var(ȳ) =
 * (σu² + σe²/m) / G, Kish, "Survey Sampling", Wiley 1965, §5.3): the
 * clustered intervals cover the true mean about 95% of the time where the
 * independent ones do not, and agree with the cluster bootstrap.
 */
import { describe, expect, it } from 'bun:test';
import { clusterBootstrap } from '../../src/kernels/stats/cluster-bootstrap';
import { clusteredMeanInterval, clusteredRateInterval } from '../../src/kernels/stats/clustered';
import { meanInterval } from '../../src/kernels/stats/sample';
import { wilsonInterval } from '../../src/kernels/stats/proportion';
import { seededRandom } from '../helpers/random';

/** Standard normal draws by Box–Muller from a seeded generator. */
function normals(random: () => number) {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** Rows [n, wins, Σ R] of G clusters of m trades: R = μ + u_g + e (u ~ N(0, σu²), e ~ N(0, σe²)), a win when R > 0. */
function sample(random: () => number, g: number, m: number, sigmaU: number, sigmaE: number, mu: number) {
  const z = normals(random);
  const rows = new Float64Array(3 * g);
  const values: number[] = [];
  for (let c = 0; c < g; c++) {
    const u = sigmaU * z();
    rows[3 * c] = m;
    for (let i = 0; i < m; i++) {
      const r = mu + u + sigmaE * z();
      values.push(r);
      if (r > 0) rows[3 * c + 1]!++;
      rows[3 * c + 2]! += r;
    }
  }
  return { rows, values };
}

describe('clustered intervals: hand cases', () => {
  it('gives the example: weeks (2, 2, 3), (2, 0, −2), (2, 1, 1) → 1/3 ± 4.3027 · √(19/36)', () => {
    const m = clusteredMeanInterval(new Float64Array([2, 2, 3, 2, 0, -2, 2, 1, 1]));
    expect(m.estimate).toBeCloseTo(1 / 3, 12);
    expect(m.lower).toBeCloseTo(1 / 3 - 4.302653 * Math.sqrt(19 / 36), 5);
    expect(m.upper).toBeCloseTo(1 / 3 + 4.302653 * Math.sqrt(19 / 36), 5);
    expect(m.clusters).toBe(3);
  });

  it("is Student-t's interval for the mean when every week holds one trade", () => {
    const r = [1.5, -1, 0.2, -1, 2.4, -0.3];
    const rows = new Float64Array(r.flatMap((x) => [1, x > 0 ? 1 : 0, x]));
    const c = clusteredMeanInterval(rows);
    const t = meanInterval(r);
    expect(c.lower).toBeCloseTo(t.lower, 12);
    expect(c.upper).toBeCloseTo(t.upper, 12);
  });

  it("is Wilson's interval at N − 1 for the rate when every week holds one trade: 2 wins of 5 → Wilson at p = 0.4, n = 4", () => {
    const rows = new Float64Array([1, 1, 1, 1, 0, -1, 1, 1, 1, 1, 0, -1, 1, 0, -1]);
    const c = clusteredRateInterval(rows);
    expect(c.estimate).toBe(0.4);
    expect(c.lower).toBeCloseTo(0.102617, 5);
    expect(c.upper).toBeCloseTo(0.795361, 5);
  });

  it("keeps Wilson's interval at N for a rate of 0 (no design effect can be estimated): 0 of 6 → [0, 0.3903]", () => {
    const c = clusteredRateInterval(new Float64Array([3, 0, -3, 3, 0, -3]));
    expect(c.lower).toBe(0);
    expect(c.upper).toBeCloseTo(wilsonInterval(0, 6).upper, 12);
    expect(c.upper).toBeCloseTo(0.390334, 5);
  });

  it('says nothing below two weeks with trades (empty weeks do not count)', () => {
    const rows = new Float64Array([4, 2, 1, 0, 0, 0]);
    for (const c of [clusteredMeanInterval(rows), clusteredRateInterval(rows)]) {
      expect(c.clusters).toBe(1);
      expect(Number.isNaN(c.lower) && Number.isNaN(c.upper)).toBe(true);
    }
    expect(clusteredRateInterval(rows).estimate).toBe(0.5);
  });

  it('is wider than Wilson when the weeks differ more than independent trades would', () => {
    // Week 1: 10 wins of 10, week 2: 0 of 10, week 3: 5 of 10.
    const c = clusteredRateInterval(new Float64Array([10, 10, 10, 10, 0, -10, 10, 5, 0]));
    const w = wilsonInterval(15, 30);
    expect(c.upper - c.lower).toBeGreaterThan(2 * (w.upper - w.lower));
  });
});

describe('clustered intervals: simulated weeks that move together', () => {
  // 60 weeks of 20 trades, week effect σu = 0.4, trade noise σe = 1: design effect 1 + 19 · 0.16/1.16 ≈ 3.6.
  const G = 60;
  const M = 20;
  const SIGMA_U = 0.4;
  const MU = 0.1;
  const RUNS = 400;
  const random = seededRandom(3232);
  const runs = Array.from({ length: RUNS }, () => sample(random, G, M, SIGMA_U, 1, MU));
  // P(R > 0) = Φ(μ / √(σu² + σe²)) = Φ(0.1 / √1.16) = 0.53699 (normal table).
  const P_WIN = 0.53699;

  it('covers the true mean R about 95% of the time; Student-t over trades covers far less', () => {
    const clustered = runs.filter(({ rows }) => {
      const c = clusteredMeanInterval(rows);
      return c.lower <= MU && MU <= c.upper;
    }).length;
    const independent = runs.filter(({ values }) => {
      const t = meanInterval(values);
      return t.lower <= MU && MU <= t.upper;
    }).length;
    expect(clustered / RUNS).toBeGreaterThan(0.92);
    expect(clustered / RUNS).toBeLessThan(0.98);
    expect(independent / RUNS).toBeLessThan(0.85);
  });

  it('covers the true win probability about 95% of the time; Wilson over trades covers far less', () => {
    const clustered = runs.filter(({ rows }) => {
      const c = clusteredRateInterval(rows);
      return c.lower <= P_WIN && P_WIN <= c.upper;
    }).length;
    const independent = runs.filter(({ rows }) => {
      let wins = 0;
      for (let c = 0; c < G; c++) wins += rows[3 * c + 1]!;
      const w = wilsonInterval(wins, G * M);
      return w.lower <= P_WIN && P_WIN <= w.upper;
    }).length;
    expect(clustered / RUNS).toBeGreaterThan(0.92);
    expect(clustered / RUNS).toBeLessThan(0.98);
    expect(independent / RUNS).toBeLessThan(0.85);
  });

  it("agrees with the weekly cluster bootstrap's width on the same sample (within 15%)", () => {
    const { rows } = runs[0]!;
    const c = clusteredMeanInterval(rows);
    const [b] = clusterBootstrap(rows, 3, [(t) => t[2]! / t[0]!], { seed: 7, resamples: 4000 });
    expect((c.upper - c.lower) / (b!.upper - b!.lower)).toBeGreaterThan(0.85);
    expect((c.upper - c.lower) / (b!.upper - b!.lower)).toBeLessThan(1.15);
  });
});
