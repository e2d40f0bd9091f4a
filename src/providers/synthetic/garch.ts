/**
 * @module providers/synthetic/garch
 * GARCH(1,1) conditional variance (Bollerslev, "Generalized autoregressive
 * conditional heteroskedasticity", J. Econometrics 31, 1986):
 *
 * ```
 * h_t = ω + α·ε²_(t−1) + β·h_(t−1),   ε_t = √h_t · z_t
 * ```
 *
 * with ω = σ̄²(1 − α − β) so the long-run variance is σ̄². The target σ̄² may
 * change from day to day (a regime switch moves it), which is how the market
 * factor combines volatility clustering with regime switching. `z_t` comes
 * from a unit-variance Student-t, so the returns are fat-tailed twice over:
 * from the innovations and from the mixing of variances.
 *
 * @example
 * const g = new Garch(0.08, 0.9, 0.01 ** 2);
 * const eps = g.next(0.01 ** 2, rng.studentT(5)); // one day's shock
 */
export class Garch {
  /** Today's conditional variance h_t (before `next` is called: the starting level). */
  variance: number;
  private lastShock2: number;

  /**
   * @param alpha reaction to yesterday's squared shock
   * @param beta persistence of yesterday's variance
   * @param initialVariance h_0
   * @param maxRatio ceiling on h_t as a multiple of the long-run variance (default 6.25: 2.5× the volatility)
   */
  constructor(
    readonly alpha: number,
    readonly beta: number,
    initialVariance: number,
    readonly maxRatio = 6.25,
  ) {
    if (alpha < 0 || beta < 0 || alpha + beta >= 1) throw new RangeError('garch: need α, β ≥ 0 and α + β < 1');
    this.variance = initialVariance;
    this.lastShock2 = initialVariance;
  }

  /**
   * Advances one day toward long-run variance `target` and returns the shock
   * ε_t = √h_t · z for the unit-variance innovation `z`.
   */
  next(target: number, z: number): number {
    const { alpha, beta } = this;
    // Bounded at `maxRatio` × the long-run variance: fat-tailed shocks feeding
    // back through α could otherwise compound into volatility no stock shows.
    this.variance = Math.min(this.maxRatio * target, target * (1 - alpha - beta) + alpha * this.lastShock2 + beta * this.variance);
    const shock = Math.sqrt(this.variance) * z;
    // One extreme draw feeds back at most as a 4-sigma day.
    this.lastShock2 = Math.min(shock * shock, 16 * this.variance);
    return shock;
  }

  /** Today's conditional standard deviation √h_t. */
  get sigma(): number {
    return Math.sqrt(this.variance);
  }
}
