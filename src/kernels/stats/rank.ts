/**
 * @module kernels/stats/rank
 * Spearman's rank correlation (Spearman, "The proof and measurement of
 * association between two things", American Journal of Psychology 15(1),
 * 1904, 72–101): Pearson's correlation of the ranks, tied values sharing the
 * mean of the ranks they span. Without ties this equals the textbook
 * 1 − 6 Σ dᵢ² / (n(n² − 1)); with ties only the Pearson form is right.
 *
 * @example
 * spearman([1, 2, 3, 4], [0.1, 0.3, 0.2, 0.5]); // => 0.8 (d = 0, 1, −1, 0: 1 − 6·2/60)
 */

/** Ranks 1…n, ties getting the mean of the ranks they span ("fractional" ranking). */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Float64Array(n);
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && values[order[end]!] === values[order[start]!]) end++;
    const rank = (start + 1 + end) / 2; // mean of ranks start+1 … end
    for (let k = start; k < end; k++) ranks[order[k]!] = rank;
    start = end;
  }
  return ranks;
}

/**
 * Spearman's ρ between `x` and `y`, in [−1, 1]; `NaN` below two pairs or when
 * either side is constant (no order to compare).
 * @throws {RangeError} different lengths or a non-finite value.
 */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  if (y.length !== n) throw new RangeError(`spearman: x has ${n} values, y ${y.length}`);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) throw new RangeError(`spearman: pair ${i} is not finite`);
  }
  if (n < 2) return NaN;
  const rx = averageRanks(x);
  const ry = averageRanks(y);
  const mean = (n + 1) / 2; // ranks always average (n + 1)/2, ties or not
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return NaN;
  return sxy / Math.sqrt(sxx * syy);
}
