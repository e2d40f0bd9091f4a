/**
 * @module kernels/rs-rank
 * An IBD-style relative-strength rank. Investor's Business Daily does not
 * publish its RS Rating formula; the widely used reconstruction (e.g. the
 * open-source "IBD RS rating" screeners following William O'Neil's
 * description of a 12-month, recency-weighted price performance) weights the
 * latest quarter double:
 *
 * ```
 * score = 0.4·ROC(63) + 0.2·ROC(126) + 0.2·ROC(189) + 0.2·ROC(252)
 * ```
 *
 * with ROC(n) = close_t / close_(t−n) − 1, and ranks the scores of a universe
 * as percentiles 1–99 (99 = strongest), as IBD reports its ratings.
 */

/** Quarters in trading days and their weights (latest first). */
export const RS_WEIGHTS: readonly (readonly [number, number])[] = [
  [63, 0.4],
  [126, 0.2],
  [189, 0.2],
  [252, 0.2],
];

/** Bars needed before a score exists. */
export const RS_LOOKBACK = 252;

/** The weighted performance score at `asOf`, or NaN with less than a year of bars. */
export function rsScore(close: Float64Array, asOf: number): number {
  if (asOf < RS_LOOKBACK || asOf >= close.length) return NaN;
  const now = close[asOf]!;
  let score = 0;
  for (const [bars, weight] of RS_WEIGHTS) score += weight * (now / close[asOf - bars]! - 1);
  return score;
}

/**
 * Percentile ranks 1–99 of `scores` (NaN scores rank NaN): rank = 1 + 98 ×
 * (number of valid scores below) / (valid count − 1), rounded; ties share a rank.
 * A lone score has nothing to be compared with and ranks 50.
 * @example
 * percentileRanks([0.1, 0.3, 0.2]); // => [1, 99, 50]
 */
export function percentileRanks(scores: readonly number[]): number[] {
  const valid = scores.filter((s) => Number.isFinite(s)).sort((a, b) => a - b);
  const n = valid.length;
  return scores.map((s) => {
    if (!Number.isFinite(s)) return NaN;
    if (n === 1) return 50;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (valid[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    return Math.round(1 + (98 * lo) / (n - 1));
  });
}
