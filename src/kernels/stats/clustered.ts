/**
 * @module kernels/stats/clustered
 * Weekly-clustered 95% intervals of a hit rate and a mean R that cost one
 * pass over the clusters: the ledger's figures (ledger/performance) are
 * tallied on a request's thread, where the record section's cluster bootstrap
 * (kernels/stats/cluster-bootstrap, in the worker pool) would cost B × weeks.
 * Trades detected in the same week move together, so the Wilson and
 * Student-t intervals that treat them as independent are too narrow; these
 * use the between-cluster variance instead, the linearization the bootstrap
 * approximates (its test: the two agree on a simulated clustered sample).
 *
 * Over G clusters with n_g trades, k_g wins and s_g = Σ R (N = Σ n_g):
 *
 * ```
 * mean R      m = Σ s_g ÷ N
 *             v = G/(G−1) · Σ (s_g − m·n_g)² ÷ N²        cluster-robust (CR1) variance of a ratio
 *             m ± t(0.975, G−1) · √v                       Cameron & Miller, "A Practitioner's Guide to
 *                                                           Cluster-Robust Inference", J. Human Resources 50(2), 2015, §II.C, §VI
 * hit rate    p = Σ k_g ÷ N, v as above with k_g for s_g
 *             deff = max(1, v ÷ (p(1−p)/N))                Kish's design effect, never below 1
 *             Wilson's interval at the effective size N ÷ deff
 *                                                          Korn & Graubard, Survey Methodology 24(2), 1998 (with Clopper–Pearson);
 *                                                          Dean & Pagano, J. Survey Stat. Methodol. 3(4), 2015 (Wilson)
 * ```
 *
 * With one trade a cluster the mean's interval is Student-t's exactly, and
 * the rate's Wilson's at N − 1. Below two clusters nothing can be said about
 * the variation between weeks: the bounds are NaN. A rate of 0 or 1 has no
 * estimable design effect (v = 0) and keeps Wilson's interval at N.
 *
 * @example
 * // weeks [n, wins, ΣR]: (2, 2, 3), (2, 0, −2), (2, 1, 1)
 * // m = 2/6, v = 3/2 · ((3 − 2/3)² + (−2 − 2/3)² + (1 − 2/3)²) ÷ 6² = 19/36, t(0.975, 2) = 4.3027
 * clusteredMeanInterval(new Float64Array([2, 2, 3, 2, 0, -2, 2, 1, 1])); // => { estimate: 0.3333, lower: −2.7925, upper: 3.4591, clusters: 3 }
 */
import { studentTQuantile, zForConfidence } from './distributions';
import { wilsonBounds } from './proportion';

/** Columns of a cluster's row: trades, wins, Σ R. */
export const CLUSTER_N = 0;
export const CLUSTER_WINS = 1;
export const CLUSTER_SUM = 2;
export const CLUSTER_WIDTH = 3;

export interface ClusteredInterval {
  estimate: number;
  lower: number;
  upper: number;
  /** Clusters with at least one trade. */
  clusters: number;
}

/** N, G and the cluster-robust variance of Σ col ÷ N over `rows` (width CLUSTER_WIDTH). */
function robust(rows: ArrayLike<number>, col: number): { n: number; g: number; estimate: number; variance: number } {
  let n = 0;
  let total = 0;
  let g = 0;
  for (let i = 0; i < rows.length; i += CLUSTER_WIDTH) {
    if (rows[i + CLUSTER_N]! <= 0) continue;
    g++;
    n += rows[i + CLUSTER_N]!;
    total += rows[i + col]!;
  }
  const estimate = n > 0 ? total / n : NaN;
  if (g < 2) return { n, g, estimate, variance: NaN };
  let squares = 0;
  for (let i = 0; i < rows.length; i += CLUSTER_WIDTH) {
    if (rows[i + CLUSTER_N]! <= 0) continue;
    const e = rows[i + col]! - estimate * rows[i + CLUSTER_N]!;
    squares += e * e;
  }
  return { n, g, estimate, variance: ((g / (g - 1)) * squares) / (n * n) };
}

/** The mean R's clustered interval (see the module comment). */
export function clusteredMeanInterval(rows: ArrayLike<number>, confidence = 0.95): ClusteredInterval {
  const { g, estimate, variance } = robust(rows, CLUSTER_SUM);
  const half = g < 2 ? NaN : studentTQuantile(0.5 + confidence / 2, g - 1) * Math.sqrt(variance);
  return { estimate, lower: estimate - half, upper: estimate + half, clusters: g };
}

/** The hit rate's clustered interval (see the module comment). */
export function clusteredRateInterval(rows: ArrayLike<number>, confidence = 0.95): ClusteredInterval {
  const { n, g, estimate: p, variance } = robust(rows, CLUSTER_WINS);
  if (g < 2) return { estimate: p, lower: NaN, upper: NaN, clusters: g };
  const independent = (p * (1 - p)) / n;
  const deff = independent > 0 ? Math.max(1, variance / independent) : 1;
  return { estimate: p, ...wilsonBounds(p, n / deff, zForConfidence(confidence)), clusters: g };
}
