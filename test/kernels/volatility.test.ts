import { describe, expect, it } from 'bun:test';
import { nelderMead } from '../../src/kernels/optimize';
import { normalCdf } from '../../src/kernels/options/normal';
import {
  coneCoverage,
  cumulativeVariance,
  ewmaModel,
  fitGarch11,
  garchLogLikelihood,
  horizonVariance,
  meanSquare,
  priceQuantiles,
  varianceFilter,
} from '../../src/kernels/volatility';
import { Rng } from '../../src/providers/synthetic/rng';

/** Returns simulated from a GARCH(1,1) with Gaussian shocks. */
function simulateGarch(n: number, model: { omega: number; alpha: number; beta: number }, seed: number): Float64Array {
  const rng = new Rng(seed);
  const r = new Float64Array(n);
  let h = model.omega / (1 - model.alpha - model.beta);
  for (let t = 0; t < n; t++) {
    r[t] = Math.sqrt(h) * rng.normal();
    h = model.omega + model.alpha * r[t]! * r[t]! + model.beta * h;
  }
  return r;
}

describe('Nelder–Mead', () => {
  it('finds the minimum of the Rosenbrock function at (1, 1)', () => {
    const m = nelderMead(([x, y]) => 100 * (y! - x! * x!) ** 2 + (1 - x!) ** 2, [-1.2, 1], { maxIterations: 2000, tolerance: 1e-14 });
    expect(m.converged).toBe(true);
    expect(m.x[0]!).toBeCloseTo(1, 4);
    expect(m.x[1]!).toBeCloseTo(1, 4);
  });

  it('treats NaN as +∞ and stops at maxIterations', () => {
    const m = nelderMead(([x]) => (x! < 0 ? NaN : (x! - 3) ** 2), [1], { maxIterations: 5 });
    expect(m.iterations).toBe(5);
    expect(m.converged).toBe(false);
    expect(Number.isFinite(m.f)).toBe(true);
  });
});

describe('variance recursions (Hull, Options, Futures, and Other Derivatives)', () => {
  it('EWMA: λ = 0.90, yesterday 1%/day, a 2% move → σ² = 0.00013 (σ ≈ 1.14%)', () => {
    const h = varianceFilter(ewmaModel(0.9), [0.02], 0.0001);
    expect(h[1]!).toBeCloseTo(0.00013, 15);
    expect(Math.sqrt(h[1]!)).toBeCloseTo(0.011402, 6);
  });

  it('GARCH: ω = 0.000002, α = 0.13, β = 0.86, yesterday 1.6%/day, a −1% move → σ² = 0.00023516 (1.5335%)', () => {
    const h = varianceFilter({ omega: 0.000002, alpha: 0.13, beta: 0.86 }, [-0.01], 0.016 ** 2);
    expect(h[1]!).toBeCloseTo(0.00023516, 12);
    expect(Math.sqrt(h[1]!)).toBeCloseTo(0.015335, 6);
  });

  it("reproduces Hull's S&P 500 term structure of volatility (27.36, 27.10, 26.87, 26.35, 24.32% for 10–500 days)", () => {
    // ω = 0.0000013465, α = 0.083394, β = 0.910116, V(0) = 0.0003/day. Hull integrates the
    // continuous approximation; our discrete sum differs by about 0.01 points.
    const model = { omega: 0.0000013465, alpha: 0.083394, beta: 0.910116 };
    const published: [number, number][] = [[10, 27.36], [30, 27.1], [50, 26.87], [100, 26.35], [500, 24.32]];
    for (const [days, vol] of published) {
      const average = cumulativeVariance(model, 0.0003, days)[days - 1]! / days;
      expect(Math.abs(100 * Math.sqrt(252 * average) - vol)).toBeLessThan(0.02);
    }
  });

  it('EWMA keeps tomorrow’s variance flat over the horizon; GARCH reverts to ω/(1−α−β)', () => {
    expect([...cumulativeVariance(ewmaModel(), 0.0004, 3)]).toEqual([0.0004, 0.0008, 0.0012000000000000001]);
    const g = { omega: 0.00001, alpha: 0.1, beta: 0.85 }; // V_L = 0.0002
    const v = cumulativeVariance(g, 0.0006, 400);
    expect(v[0]!).toBeCloseTo(0.0006, 15);
    expect(v[1]! - v[0]!).toBeCloseTo(0.0002 + 0.95 * 0.0004, 15);
    expect(v[399]! - v[398]!).toBeCloseTo(0.0002, 10);
    // The closed form agrees with the running sum.
    for (const h of [1, 2, 20, 400]) expect(horizonVariance(g, 0.0006, h) / v[h - 1]! - 1).toBeCloseTo(0, 12);
    expect(horizonVariance(ewmaModel(), 0.0004, 3)).toBeCloseTo(0.0012, 15);
  });

  it('the GARCH term forecast matches the mean of simulated paths', () => {
    const model = { omega: 0.000004, alpha: 0.09, beta: 0.89 }; // V_L = 0.0002
    const start = 0.0005;
    const horizon = 20;
    const rng = new Rng(7);
    const paths = 40_000;
    let total = 0;
    for (let p = 0; p < paths; p++) {
      let h = start;
      for (let k = 0; k < horizon; k++) {
        const r = Math.sqrt(h) * rng.normal();
        total += r * r;
        h = model.omega + model.alpha * r * r + model.beta * h;
      }
    }
    const expected = cumulativeVariance(model, start, horizon)[horizon - 1]!;
    expect(Math.abs(total / paths / expected - 1)).toBeLessThan(0.01);
  });
});

describe('GARCH(1,1) fit', () => {
  const truth = { omega: 0.000002, alpha: 0.08, beta: 0.9 }; // V_L = 0.0001 (1%/day)
  const returns = simulateGarch(5000, truth, 11);
  const fit = fitGarch11(returns);

  it('recovers the parameters of a simulated series', () => {
    expect(Math.abs(fit.alpha - truth.alpha)).toBeLessThan(0.025);
    expect(Math.abs(fit.beta - truth.beta)).toBeLessThan(0.035);
    expect(fit.persistence).toBeCloseTo(fit.alpha + fit.beta, 12);
    expect(fit.longRunVariance).toBeCloseTo(meanSquare(returns), 15);
    expect(fit.omega).toBeCloseTo(fit.longRunVariance * (1 - fit.persistence), 15);
    expect(fit.halfLifeDays).toBeCloseTo(Math.log(0.5) / Math.log(fit.persistence), 10);
  });

  it('is a maximum: no nearby parameters and not the true ones have a higher likelihood', () => {
    const s2 = meanSquare(returns);
    const at = (alpha: number, beta: number) => garchLogLikelihood({ omega: s2 * (1 - alpha - beta), alpha, beta }, returns, s2);
    expect(fit.logLikelihood).toBeCloseTo(at(fit.alpha, fit.beta), 8);
    expect(fit.logLikelihood).toBeGreaterThanOrEqual(at(truth.alpha, truth.beta));
    for (const [da, db] of [[0.005, 0], [-0.005, 0], [0, 0.005], [0, -0.005], [0.003, -0.003]])
      expect(fit.logLikelihood).toBeGreaterThanOrEqual(at(fit.alpha + da!, fit.beta + db!));
  });

  it('computes the Gaussian log-likelihood term by term', () => {
    const r = [0.01, -0.02, 0.005];
    const m = { omega: 0.00001, alpha: 0.1, beta: 0.8 };
    let h = 0.0002;
    let ll = 0;
    for (const x of r) {
      ll += Math.log(Math.exp(-(x * x) / (2 * h)) / Math.sqrt(2 * Math.PI * h));
      h = m.omega + m.alpha * x * x + m.beta * h;
    }
    expect(garchLogLikelihood(m, r, 0.0002)).toBeCloseTo(ll, 12);
  });

  it('refuses too short or constant series', () => {
    expect(() => fitGarch11(new Float64Array(50).fill(0.01))).toThrow(RangeError);
    expect(() => fitGarch11(new Float64Array(500))).toThrow(RangeError);
  });
});

describe('price quantiles', () => {
  it('puts probability p below the p-quantile of the driftless lognormal', () => {
    const variance = 0.04;
    const [q5, q50, q95] = priceQuantiles(100, variance, [0.05, 0.5, 0.95]);
    expect(q50!).toBeCloseTo(100 * Math.exp(-0.02), 10);
    for (const [q, p] of [[q5!, 0.05], [q95!, 0.95]] as const) {
      const z = (Math.log(q / 100) + variance / 2) / Math.sqrt(variance);
      expect(normalCdf(z)).toBeCloseTo(p, 12);
    }
    // Martingale: E[S] = S_0, checked by simulation.
    const rng = new Rng(3);
    let sum = 0;
    const n = 200_000;
    for (let i = 0; i < n; i++) sum += 100 * Math.exp(-variance / 2 + Math.sqrt(variance) * rng.normal());
    expect(Math.abs(sum / n - 100)).toBeLessThan(0.15);
  });
});

describe('cone coverage', () => {
  it('covers about 90% and 50% of moves on a series simulated from the model itself', () => {
    const model = { omega: 0.000002, alpha: 0.08, beta: 0.9 };
    const r = simulateGarch(6000, model, 5);
    const close = new Float64Array(r.length + 1);
    close[0] = 100;
    for (let i = 0; i < r.length; i++) close[i + 1] = close[i]! * Math.exp(r[i]! - 0); // mean-zero log returns
    const h = varianceFilter(model, r, 0.0001);
    const c = coneCoverage(close, h, model, 1, 20, [[0.05, 0.95], [0.25, 0.75]]);
    expect(c.windows).toBe(6000 - 20);
    expect(Math.abs(c.inside[0]!.share! - 0.9)).toBeLessThan(0.02);
    expect(Math.abs(c.inside[1]!.share! - 0.5)).toBeLessThan(0.03);
  });

  it('has no share without a window', () => {
    const c = coneCoverage([100, 101], [0.0001, 0.0001], ewmaModel(), 5, 0, [[0.05, 0.95]]);
    expect(c).toEqual({ windows: 0, inside: [{ band: [0.05, 0.95], share: null }] });
  });
});
