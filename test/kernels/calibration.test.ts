/**
 * kernels/stats/calibration against independent values: Newcombe's published
 * intervals, the closed form of a logistic fit on one binary predictor, hand
 * Brier scores, and the min–max formula of isotonic regression as a naive twin.
 */
import { describe, expect, it } from 'bun:test';
import { brierReport, brierScore, differenceInterval, isotonicFit, isotonicPredict, logisticFit, logisticPredict, reliabilityTable, ridgeFit } from '../../src/kernels/stats';

/** Naive isotonic regression (Barlow et al. 1972, the min–max formula): f(i) = max over j ≤ i of min over k ≥ i of the weighted mean of y[j..k]. */
function naiveIsotonic(y: number[], w: number[]): number[] {
  const n = y.length;
  return y.map((_, i) => {
    let best = -Infinity;
    for (let j = 0; j <= i; j++) {
      let low = Infinity;
      for (let k = i; k < n; k++) {
        let sw = 0;
        let sy = 0;
        for (let t = j; t <= k; t++) (sw += w[t]!), (sy += w[t]! * y[t]!);
        low = Math.min(low, sy / sw);
      }
      best = Math.max(best, low);
    }
    return best;
  });
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('isotonicFit', () => {
  it('pools adjacent violators (a worked example)', () => {
    expect(isotonicFit([1, 2, 3, 4, 5, 6], [1, 3, 2, 4, 3, 5])).toEqual({ x: [1, 2, 4, 6], y: [1, 2.5, 3.5, 5] });
    const fit = isotonicFit([1, 2, 3, 4], [0, 1, 0, 1]);
    expect(fit).toEqual({ x: [1, 2, 4], y: [0, 0.5, 1] });
    expect([0, 1, 1.5, 3.5, 4, 9].map((x) => isotonicPredict(fit, x))).toEqual([0, 0, 0, 0.5, 1, 1]);
  });

  it('equals the min–max formula on random weighted data, ties in x pooled first', () => {
    const r = rng(7);
    for (let trial = 0; trial < 40; trial++) {
      const n = 2 + Math.floor(r() * 25);
      const x = Array.from({ length: n }, () => Math.floor(r() * 12)); // ties on purpose
      const y = Array.from({ length: n }, () => (r() < 0.5 ? 0 : 1) + r() * 0.3);
      const w = Array.from({ length: n }, () => 0.5 + r() * 2);
      const fit = isotonicFit(x, y, w);
      // The twin runs on the distinct x values with their pooled weights and means.
      const distinct = [...new Set(x)].sort((a, b) => a - b);
      const pw = distinct.map((v) => x.reduce((s, xi, i) => s + (xi === v ? w[i]! : 0), 0));
      const py = distinct.map((v, k) => x.reduce((s, xi, i) => s + (xi === v ? w[i]! * y[i]! : 0), 0) / pw[k]!);
      const expected = naiveIsotonic(py, pw);
      expect(distinct.length).toBeGreaterThan(0);
      distinct.forEach((v, k) => expect(isotonicPredict(fit, v)).toBeCloseTo(expected[k]!, 12));
    }
  });

  it('refuses empty or mismatched input', () => {
    expect(() => isotonicFit([], [])).toThrow(RangeError);
    expect(() => isotonicFit([1, 2], [1])).toThrow(RangeError);
    expect(() => isotonicFit([1, Number.NaN], [1, 0])).toThrow(RangeError);
  });
});

describe('logisticFit', () => {
  it('recovers the closed form on one binary predictor: intercept logit(p0), slope logit(p1) − logit(p0)', () => {
    const x: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 40; i++) {
      x.push([0]);
      y.push(i < 10 ? 1 : 0); // 10 of 40
      x.push([1]);
      y.push(i < 30 ? 1 : 0); // 30 of 40
    }
    const fit = logisticFit(x, y);
    expect(fit.converged).toBe(true);
    expect(fit.intercept).toBeCloseTo(Math.log(1 / 3), 10);
    expect(fit.coefficients[0]!).toBeCloseTo(2 * Math.log(3), 10);
    expect(logisticPredict(fit, [1])).toBeCloseTo(0.75, 10);
    // A ridge penalty shrinks the slope toward 0.
    expect(logisticFit(x, y, { l2: 5 }).coefficients[0]!).toBeLessThan(2 * Math.log(3));
  });

  it('refuses labels other than 0 and 1', () => {
    expect(() => logisticFit([[1], [2]], [1, 2])).toThrow(RangeError);
  });
});

describe('ridgeFit', () => {
  // Reference values: numpy.linalg.lstsq, and numpy.linalg.solve(AᵀA + diag(0, λ, λ), Aᵀy) with λ = 0.5.
  const x = [[1, 0.5], [2, 0.1], [3, 0.9], [4, 0.3], [5, 0.7]];
  const y = [1.0, 2.1, 2.9, 4.2, 5.1];
  it('is ordinary least squares without a penalty', () => {
    const fit = ridgeFit(x, y);
    expect(fit.intercept).toBeCloseTo(0.07373626, 7);
    expect(fit.coefficients[0]!).toBeCloseTo(1.04945055, 7);
    expect(fit.coefficients[1]!).toBeCloseTo(-0.32417582, 7);
  });
  it('penalises the slopes, not the intercept', () => {
    const fit = ridgeFit(x, y, { l2: 0.5 });
    expect(fit.intercept).toBeCloseTo(0.15075908, 7);
    expect(fit.coefficients[0]!).toBeCloseTo(0.98679868, 7);
    expect(fit.coefficients[1]!).toBeCloseTo(-0.10231023, 7);
  });
  it('refuses ragged rows and a singular system', () => {
    expect(() => ridgeFit([[1], [2, 3]], [1, 2])).toThrow(RangeError);
    expect(() => ridgeFit([[1], [1]], [1, 2])).toThrow(RangeError);
  });
});

describe('Brier score', () => {
  it('is the mean squared error, judged against the base rate', () => {
    expect(brierScore([0.8, 0.3], [1, 0])).toBeCloseTo(0.065, 15);
    const r = brierReport([0.8, 0.3], [1, 0]);
    expect(r).toMatchObject({ n: 2, baseRate: 0.5, reference: 0.25 });
    expect(r.skill).toBeCloseTo(0.74, 12);
    // A given base rate: 0.4 for all → (0.36 + 0.16) / 2 = 0.26.
    expect(brierReport([0.8, 0.3], [1, 0], 0.4).reference).toBeCloseTo(0.26, 15);
  });
});

describe('reliabilityTable', () => {
  it('bins by the prediction, equal counts, ties kept together, Wilson intervals on the observed rate', () => {
    const p = [0.1, 0.1, 0.2, 0.3, 0.6, 0.7, 0.8, 0.9];
    const y = [0, 0, 1, 0, 1, 0, 1, 1];
    const bins = reliabilityTable(p, y, 4);
    expect(bins.map((b) => b.n)).toEqual([2, 2, 2, 2]);
    expect(bins[0]).toMatchObject({ from: 0.1, to: 0.1, predicted: 0.1, observed: 0, lower: 0 });
    expect(bins[1]!.predicted).toBeCloseTo(0.25, 15);
    expect(bins[1]!.observed).toBe(0.5);
    expect(bins[3]).toMatchObject({ observed: 1, upper: 1 });
    // Three equal predictions cannot be split.
    const tied = reliabilityTable([0.5, 0.5, 0.5, 0.9], [1, 0, 1, 1], 4);
    expect(tied.map((b) => b.n)).toEqual([3, 1]);
    expect(tied.reduce((s, b) => s + b.n, 0)).toBe(4);
  });
});

describe('differenceInterval', () => {
  // Newcombe, Statistics in Medicine 17 (1998) 873–890, Table II, method 10.
  it("matches Newcombe's published hybrid score intervals", () => {
    const a = differenceInterval(56, 70, 48, 80);
    expect(a.difference).toBeCloseTo(0.2, 12);
    expect(a.lower).toBeCloseTo(0.0524, 4);
    expect(a.upper).toBeCloseTo(0.3339, 4);
    const e = differenceInterval(9, 10, 3, 10);
    expect(e.lower).toBeCloseTo(0.1705, 4);
    expect(e.upper).toBeCloseTo(0.809, 4);
  });
});
