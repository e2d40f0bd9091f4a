/**
 * @module kernels/optimize
 * Derivative-free minimisation by the Nelder–Mead simplex method (J. A. Nelder
 * and R. Mead, "A simplex method for function minimization", The Computer
 * Journal 7(4), 1965, pp. 308–313), with the standard coefficients of
 * Lagarias et al. ("Convergence properties of the Nelder–Mead simplex method
 * in low dimensions", SIAM J. Optim. 9(1), 1998): reflection ρ = 1, expansion
 * χ = 2, contraction γ = ½, shrink σ = ½.
 *
 * Each iteration orders the n + 1 vertices by f, reflects the worst through
 * the centroid of the others, and expands, contracts (outside or inside) or
 * shrinks toward the best vertex. It stops when the spread of f over the
 * simplex falls below `tolerance` or after `maxIterations`. Good for the
 * small smooth problems here (two-parameter likelihoods); not a global method.
 *
 * @example
 * nelderMead(([x, y]) => (x! - 1) ** 2 + (y! + 2) ** 2, [0, 0]).x; // => ≈ [1, −2]
 */

export interface NelderMeadOptions {
  /** Initial step along each axis (default 0.5). */
  step?: number;
  maxIterations?: number;
  /** Stop when max f − min f over the simplex is at most this (default 1e−10). */
  tolerance?: number;
}

export interface Minimum {
  x: number[];
  f: number;
  iterations: number;
  converged: boolean;
}

/** The minimum of `f` found from `start` (see the module comment). A NaN value counts as +∞. */
export function nelderMead(f: (x: number[]) => number, start: readonly number[], options: NelderMeadOptions = {}): Minimum {
  const { step = 0.5, maxIterations = 500, tolerance = 1e-10 } = options;
  const n = start.length;
  const value = (x: number[]) => {
    const y = f(x);
    return Number.isNaN(y) ? Number.POSITIVE_INFINITY : y;
  };
  const simplex: { x: number[]; f: number }[] = [{ x: [...start], f: value([...start]) }];
  for (let i = 0; i < n; i++) {
    const x = [...start];
    x[i]! += step;
    simplex.push({ x, f: value(x) });
  }
  const along = (from: number[], to: number[], t: number) => from.map((a, i) => a + t * (to[i]! - a));
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    simplex.sort((a, b) => a.f - b.f);
    const best = simplex[0]!;
    const worst = simplex[n]!;
    if (Math.abs(worst.f - best.f) <= tolerance) return { x: best.x, f: best.f, iterations, converged: true };
    const centroid = new Array<number>(n).fill(0);
    for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) centroid[i]! += simplex[k]!.x[i]! / n;
    const reflected = along(centroid, worst.x, -1);
    const fr = value(reflected);
    if (fr < best.f) {
      const expanded = along(centroid, worst.x, -2);
      const fe = value(expanded);
      simplex[n] = fe < fr ? { x: expanded, f: fe } : { x: reflected, f: fr };
      continue;
    }
    if (fr < simplex[n - 1]!.f) {
      simplex[n] = { x: reflected, f: fr };
      continue;
    }
    // Contract: outside when the reflection beat the worst, inside otherwise.
    const outside = fr < worst.f;
    const contracted = along(centroid, worst.x, outside ? -0.5 : 0.5);
    const fc = value(contracted);
    if (fc < (outside ? fr : worst.f)) {
      simplex[n] = { x: contracted, f: fc };
      continue;
    }
    for (let k = 1; k <= n; k++) {
      const x = along(best.x, simplex[k]!.x, 0.5);
      simplex[k] = { x, f: value(x) };
    }
  }
  simplex.sort((a, b) => a.f - b.f);
  return { x: simplex[0]!.x, f: simplex[0]!.f, iterations, converged: false };
}
