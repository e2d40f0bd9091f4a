import { describe, expect, it } from 'bun:test';
import { normalCdf, normalPdf, normalQuantile } from '../../../src/kernels/options/normal';

/**
 * Φ(x) to double precision, computed with mpmath 1.3 (`mp.ncdf` at 40
 * digits, rounded to the nearest double). Φ(1.96) is also the textbook
 * 0.9750 of every normal table.
 */
const GOLDEN_CDF: [number, number][] = [
  [0, 0.5],
  [1.96, 0.9750021048517795],
  [-1.96, 0.024997895148220435],
  [1, 0.8413447460685429],
  [-1, 0.15865525393145705],
  [0.3, 0.6179114221889527],
  [-0.5, 0.3085375387259869],
  [2.5, 0.9937903346742238],
  [3, 0.9986501019683699],
  [-3, 0.0013498980316300946],
  [-5, 2.866515718791939e-7],
  [-10, 7.619853024160525e-24],
  [-20, 2.7536241186062337e-89],
  [-37, 5.725571222524577e-300],
];

/** Φ⁻¹(p), mpmath 1.3 (`findroot` on `ln ncdf` at 40 digits). */
const GOLDEN_QUANTILE: [number, number][] = [
  [0.975, 1.9599639845400543],
  [0.025, -1.9599639845400543],
  [0.99, 2.326347874040841],
  [0.999, 3.0902323061678136],
  [0.001, -3.0902323061678136],
  [1e-10, -6.361340902404057],
  [1e-100, -21.273453560965326],
];

/**
 * Reference twin of Φ from textbook series, no shared code: for |x| ≤ 2,
 * Φ(x) = ½ + φ(x) Σ x^(2n+1) / (1·3·…·(2n+1)) (Abramowitz & Stegun 26.2.11,
 * all terms positive); beyond, Laplace's continued fraction for the tail
 * 1 − Φ(|x|) = φ(x) / (|x| + 1/(|x| + 2/(|x| + 3/(|x| + …)))) (A&S 26.2.14),
 * evaluated backwards from 200 terms.
 */
function naiveCdf(x: number): number {
  const density = Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
  if (Math.abs(x) <= 2) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= (x * x) / (2 * n + 1);
      sum += term;
    }
    return 0.5 + density * sum;
  }
  const y = Math.abs(x);
  let fraction = y;
  for (let k = 200; k >= 1; k--) fraction = y + k / fraction;
  const tail = density / fraction;
  return x > 0 ? 1 - tail : tail;
}

const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe('normal density', () => {
  it('is 1/√(2π) at 0 and symmetric', () => {
    expect(normalPdf(0)).toBe(1 / Math.sqrt(2 * Math.PI));
    expect(normalPdf(1.3)).toBe(normalPdf(-1.3));
    expect(normalPdf(40)).toBe(0);
  });
});

describe('normal distribution function (Cody)', () => {
  it('matches mpmath to 1e-15 relative, from the centre out to Φ(−37) ≈ 5.7e−300', () => {
    for (const [x, p] of GOLDEN_CDF) expect(relative(normalCdf(x), p)).toBeLessThan(1e-15);
  });

  it('equals its series / continued-fraction twin on a grid from −37 to 8', () => {
    for (let x = -37; x <= 8; x += 0.01) {
      const naive = naiveCdf(x);
      // The twin loses a little in the ½ − … cancellation just below −2's series range; 1e-13 covers it.
      expect(relative(normalCdf(x), naive)).toBeLessThan(1e-13);
    }
  });

  it('keeps Φ(x) + Φ(−x) = 1', () => {
    for (let x = 0; x < 9; x += 0.037) expect(Math.abs(normalCdf(x) + normalCdf(-x) - 1)).toBeLessThanOrEqual(2 ** -53);
  });

  it('is 0 and 1 at the ends, NaN for NaN', () => {
    expect(normalCdf(-38)).toBe(0);
    expect(normalCdf(-Infinity)).toBe(0);
    expect(normalCdf(Infinity)).toBe(1);
    expect(normalCdf(9)).toBe(1);
    expect(normalCdf(NaN)).toBeNaN();
  });
});

describe('normal quantile (Acklam + one Halley step)', () => {
  it('matches mpmath to 1e-15 relative', () => {
    for (const [p, x] of GOLDEN_QUANTILE) expect(relative(normalQuantile(p), x)).toBeLessThan(1e-15);
    expect(normalQuantile(0.5)).toBe(0);
  });

  it('round-trips Φ⁻¹(Φ(x)) = x from −37 to 0 to 1e-14, and above 0 to the resolution of p near 1', () => {
    for (let x = -37; x <= 0; x += 0.013) expect(Math.abs(normalQuantile(normalCdf(x)) - x)).toBeLessThan(1e-14 * Math.max(1, -x));
    for (let x = 0; x <= 7; x += 0.013) {
      // p = Φ(x) is stored to ±2^-53 absolute, which moves x by up to 2^-53 / φ(x).
      const resolution = 2 ** -53 / normalPdf(x);
      expect(Math.abs(normalQuantile(normalCdf(x)) - x)).toBeLessThan(1e-14 + 2 * resolution);
    }
  });

  it('gives ±∞ at 0 and 1 and NaN outside [0, 1]', () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    for (const p of [-0.1, 1.1, NaN]) expect(normalQuantile(p)).toBeNaN();
  });

  it('stays finite down to the smallest double', () => {
    const x = normalQuantile(5e-324);
    expect(x).toBeLessThan(-38);
    expect(x).toBeGreaterThan(-39);
  });
});
