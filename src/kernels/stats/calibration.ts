/**
 * @module kernels/stats/calibration
 * Turning a score into a probability and judging the probability.
 *
 * - `isotonicFit` — the monotone (non-decreasing) step function of x that
 *   minimises the weighted squared error to y, by pool-adjacent-violators
 *   (Barlow, Bartholomew, Bremner & Brunk, "Statistical Inference under Order
 *   Restrictions", Wiley 1972; the calibration use is Zadrozny & Elkan, KDD
 *   2002). Ties in x are pooled first, so equal scores get one probability.
 *   Between fitted points `isotonicPredict` holds the value of the last point
 *   at or below x (a step), below the first point the first value.
 * - `logisticFit` — logistic regression by Newton–Raphson (iteratively
 *   reweighted least squares) with an optional ridge penalty λ‖β‖² on the
 *   slopes (not the intercept): P(y = 1 | x) = 1 / (1 + e^−(β₀ + β·x)).
 * - `ridgeFit` — linear least squares y ≈ β₀ + β·x with the same ridge penalty
 *   λ‖β‖² on the slopes, by the normal equations (XᵀX + λI₀) β = Xᵀy
 *   (Hoerl & Kennard, Technometrics 12, 1970).
 * - `brierScore` = mean (p − y)²; its reference is the base rate b predicted
 *   for everyone, whose Brier score is b(1 − b); skill = 1 − BS / BS_ref
 *   (Brier, Monthly Weather Review 78, 1950; Murphy 1973).
 * - `reliabilityTable` — predicted vs observed in bins of equal count
 *   (deciles by default) of the prediction, each observed rate with its
 *   Wilson interval.
 * - `differenceInterval` — the interval of p₁ − p₂ for two independent
 *   proportions by Newcombe's hybrid score method (Newcombe, Statistics in
 *   Medicine 17, 1998, method 10), from each proportion's Wilson interval.
 *
 * @example
 * const fit = isotonicFit([1, 2, 3, 4], [0, 1, 0, 1]); // => { x: [1, 2, 4], y: [0, 0.5, 1] }
 * isotonicPredict(fit, 3.5); // => 0.5
 * brierScore([0.8, 0.3], [1, 0]); // => 0.065
 */
import { wilsonInterval } from './proportion';

/** An isotonic step function: at x ≥ `x[i]` (and below `x[i+1]`) the value is `y[i]`; `x` strictly increasing. */
export interface IsotonicFit {
  x: number[];
  y: number[];
}

/**
 * The non-decreasing least-squares fit of `y` on `x` (weights `w`, default 1).
 * @throws {RangeError} on arrays of different lengths, no points, or a non-finite value.
 */
export function isotonicFit(x: ArrayLike<number>, y: ArrayLike<number>, w?: ArrayLike<number>): IsotonicFit {
  const n = x.length;
  if (n === 0 || y.length !== n || (w && w.length !== n)) throw new RangeError('isotonicFit: x, y (and w) must be non-empty and of one length');
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a]! - x[b]!);
  // Blocks: pooled x (distinct values), weight, weighted mean.
  const bx: number[] = [];
  const bw: number[] = [];
  const bm: number[] = [];
  for (const i of order) {
    const xi = x[i]!;
    const yi = y[i]!;
    const wi = w ? w[i]! : 1;
    if (!Number.isFinite(xi) || !Number.isFinite(yi) || !Number.isFinite(wi) || wi < 0) throw new RangeError(`isotonicFit: point ${i} is not finite`);
    if (bx.length && bx[bx.length - 1] === xi) {
      const k = bx.length - 1;
      const total = bw[k]! + wi;
      bm[k] = total > 0 ? (bm[k]! * bw[k]! + yi * wi) / total : bm[k]!;
      bw[k] = total;
    } else {
      bx.push(xi);
      bw.push(wi);
      bm.push(yi);
    }
  }
  // Pool adjacent violators over the distinct-x blocks; `start` keeps each pooled block's first x.
  const start: number[] = [];
  const pw: number[] = [];
  const pm: number[] = [];
  for (let k = 0; k < bx.length; k++) {
    start.push(bx[k]!);
    pw.push(bw[k]!);
    pm.push(bm[k]!);
    while (pm.length > 1 && pm[pm.length - 2]! > pm[pm.length - 1]!) {
      const wb = pw.pop()!;
      const mb = pm.pop()!;
      start.pop();
      const j = pm.length - 1;
      const total = pw[j]! + wb;
      pm[j] = total > 0 ? (pm[j]! * pw[j]! + mb * wb) / total : pm[j]!;
      pw[j] = total;
    }
  }
  return { x: start, y: pm };
}

/** The fitted value at `x` (see the module comment). */
export function isotonicPredict(fit: IsotonicFit, x: number): number {
  let lo = 0;
  let hi = fit.x.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (fit.x[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return fit.y[Math.max(0, lo - 1)]!;
}

export interface LogisticFit {
  intercept: number;
  coefficients: number[];
  iterations: number;
  converged: boolean;
}

export const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** P(y = 1) of `row` under `fit`. */
export function logisticPredict(fit: LogisticFit, row: ArrayLike<number>): number {
  let z = fit.intercept;
  for (let j = 0; j < fit.coefficients.length; j++) z += fit.coefficients[j]! * row[j]!;
  return sigmoid(z);
}

/** Solves A v = b for a small symmetric positive definite A (Gaussian elimination with partial pivoting); null when singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (Math.abs(m[p]![c]!) < 1e-12) return null;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const v = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * v[k]!;
    v[r] = s / m[r]![r]!;
  }
  return v;
}

/**
 * Logistic regression of the 0/1 outcomes `y` on the rows `x` (see the module comment).
 * @throws {RangeError} on no rows, rows of different widths, or a label other than 0 or 1.
 */
export function logisticFit(x: readonly ArrayLike<number>[], y: ArrayLike<number>, options: { l2?: number; maxIterations?: number; tolerance?: number } = {}): LogisticFit {
  const n = x.length;
  if (n === 0 || y.length !== n) throw new RangeError('logisticFit: x and y must be non-empty and of one length');
  const d = x[0]!.length;
  for (let i = 0; i < n; i++) {
    if (x[i]!.length !== d) throw new RangeError(`logisticFit: row ${i} has ${x[i]!.length} columns, not ${d}`);
    if (y[i] !== 0 && y[i] !== 1) throw new RangeError(`logisticFit: label ${i} is ${y[i]}, not 0 or 1`);
  }
  const l2 = options.l2 ?? 0;
  const maxIterations = options.maxIterations ?? 50;
  const tolerance = options.tolerance ?? 1e-10;
  const beta = new Array<number>(d + 1).fill(0); // [intercept, ...slopes]
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    iterations++;
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let i = 0; i < n; i++) {
      const row = x[i]!;
      let z = beta[0]!;
      for (let j = 0; j < d; j++) z += beta[j + 1]! * row[j]!;
      const p = sigmoid(z);
      const r = y[i]! - p;
      const wgt = p * (1 - p);
      for (let a = 0; a <= d; a++) {
        const xa = a === 0 ? 1 : row[a - 1]!;
        grad[a]! += r * xa;
        for (let b = a; b <= d; b++) hess[a]![b]! += wgt * xa * (b === 0 ? 1 : row[b - 1]!);
      }
    }
    for (let a = 0; a <= d; a++) for (let b = 0; b < a; b++) hess[a]![b] = hess[b]![a]!;
    for (let j = 1; j <= d; j++) {
      grad[j]! -= 2 * l2 * beta[j]!;
      hess[j]![j]! += 2 * l2;
    }
    const step = solve(hess, grad);
    if (!step) break;
    let size = 0;
    for (let j = 0; j <= d; j++) {
      beta[j]! += step[j]!;
      size = Math.max(size, Math.abs(step[j]!));
    }
    if (size < tolerance) {
      converged = true;
      break;
    }
  }
  return { intercept: beta[0]!, coefficients: beta.slice(1), iterations, converged };
}

/**
 * Ridge regression of `y` on the rows `x` (see the module comment); `l2` = λ, 0 for ordinary least squares.
 * @throws {RangeError} on no rows, rows of different widths, or a singular system.
 */
export function ridgeFit(x: readonly ArrayLike<number>[], y: ArrayLike<number>, options: { l2?: number } = {}): { intercept: number; coefficients: number[] } {
  const n = x.length;
  if (n === 0 || y.length !== n) throw new RangeError('ridgeFit: x and y must be non-empty and of one length');
  const d = x[0]!.length;
  const a = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
  const b = new Array<number>(d + 1).fill(0);
  for (let i = 0; i < n; i++) {
    const row = x[i]!;
    if (row.length !== d) throw new RangeError(`ridgeFit: row ${i} has ${row.length} columns, not ${d}`);
    for (let p = 0; p <= d; p++) {
      const xp = p === 0 ? 1 : row[p - 1]!;
      b[p]! += xp * y[i]!;
      for (let q = p; q <= d; q++) a[p]![q]! += xp * (q === 0 ? 1 : row[q - 1]!);
    }
  }
  for (let p = 0; p <= d; p++) for (let q = 0; q < p; q++) a[p]![q] = a[q]![p]!;
  for (let j = 1; j <= d; j++) a[j]![j]! += options.l2 ?? 0;
  const beta = solve(a, b);
  if (!beta) throw new RangeError('ridgeFit: the normal equations are singular');
  return { intercept: beta[0]!, coefficients: beta.slice(1) };
}

/** Mean squared difference between the probabilities `p` and the 0/1 outcomes `y`. */
export function brierScore(p: ArrayLike<number>, y: ArrayLike<number>): number {
  if (p.length === 0 || p.length !== y.length) throw new RangeError('brierScore: p and y must be non-empty and of one length');
  let s = 0;
  for (let i = 0; i < p.length; i++) s += (p[i]! - y[i]!) ** 2;
  return s / p.length;
}

export interface BrierReport {
  n: number;
  brier: number;
  /** The base rate `baseRate` predicted for every case, and its Brier score. */
  baseRate: number;
  reference: number;
  /** 1 − brier / reference: above 0 the predictions beat the base rate. */
  skill: number;
}

/** Brier score of `p` against the base rate `baseRate` (default: the observed rate of `y`). */
export function brierReport(p: ArrayLike<number>, y: ArrayLike<number>, baseRate?: number): BrierReport {
  const brier = brierScore(p, y);
  let hits = 0;
  for (let i = 0; i < y.length; i++) hits += y[i]!;
  const base = baseRate ?? hits / y.length;
  let reference = 0;
  for (let i = 0; i < y.length; i++) reference += (base - y[i]!) ** 2;
  reference /= y.length;
  return { n: y.length, brier, baseRate: base, reference, skill: reference > 0 ? 1 - brier / reference : Number.NaN };
}

export interface ReliabilityBin {
  /** Lowest and highest prediction in the bin. */
  from: number;
  to: number;
  n: number;
  predicted: number;
  observed: number;
  lower: number;
  upper: number;
}

/**
 * Predicted vs observed in `bins` bins of (nearly) equal count, ordered by the
 * prediction; equal predictions stay in one bin, so there may be fewer bins.
 */
export function reliabilityTable(p: ArrayLike<number>, y: ArrayLike<number>, bins = 10): ReliabilityBin[] {
  const n = p.length;
  if (n !== y.length) throw new RangeError('reliabilityTable: p and y must be of one length');
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => p[a]! - p[b]!);
  const out: ReliabilityBin[] = [];
  let i = 0;
  for (let b = 1; b <= bins && i < n; b++) {
    let end = Math.max(i + 1, Math.round((b * n) / bins));
    while (end < n && p[order[end]!] === p[order[end - 1]!]) end++; // ties stay together
    let sp = 0;
    let sy = 0;
    for (let k = i; k < end; k++) {
      sp += p[order[k]!]!;
      sy += y[order[k]!]!;
    }
    const count = end - i;
    const w = wilsonInterval(sy, count);
    out.push({ from: p[order[i]!]!, to: p[order[end - 1]!]!, n: count, predicted: sp / count, observed: sy / count, lower: w.lower, upper: w.upper });
    i = end;
  }
  return out;
}

export interface DifferenceInterval {
  difference: number;
  lower: number;
  upper: number;
}

/** p₁ − p₂ = s1/n1 − s2/n2 with Newcombe's hybrid score interval (see the module comment). */
export function differenceInterval(s1: number, n1: number, s2: number, n2: number, confidence = 0.95): DifferenceInterval {
  const a = wilsonInterval(s1, n1, confidence);
  const b = wilsonInterval(s2, n2, confidence);
  const p1 = s1 / n1;
  const p2 = s2 / n2;
  const d = p1 - p2;
  return {
    difference: d,
    lower: d - Math.sqrt((p1 - a.lower) ** 2 + (b.upper - p2) ** 2),
    upper: d + Math.sqrt((a.upper - p1) ** 2 + (p2 - b.lower) ** 2),
  };
}
