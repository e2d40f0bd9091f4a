/**
 * @module kernels/options/normal
 * The standard normal density `φ(x) = e^(−x²/2) / √(2π)`, its distribution
 * function `Φ(x)` and the quantile `Φ⁻¹(p)`, the three pieces every
 * Black–Scholes formula is built from.
 *
 * `normalCdf` is W. J. Cody's ANORM (W. J. Cody, "Algorithm 715: SPECFUN",
 * ACM TOMS 19(1), 1993, pp. 22–32), whose rational Chebyshev approximations
 * come from W. J. Cody, "Rational Chebyshev approximations for the error
 * function", Math. Comp. 23 (1969), pp. 631–637; R's `pnorm` uses the same
 * coefficients. Three ranges of `y = |x|`:
 *
 * ```
 * y ≤ 0.66291     Φ(x) = ½ + x·A(x²)/B(x²)
 * y ≤ √32         Φ(−y) = e^(−y²/2) · C(y)/D(y)
 * y < 37.5193     Φ(−y) = e^(−y²/2) · (1/√(2π) − z·P(z)/Q(z)) / y,   z = 1/y²
 * ```
 *
 * and `Φ(x) = 1 − Φ(−x)` for `x > 0`. The smaller tail is always computed
 * directly, so `normalCdf(−x)` keeps full relative accuracy far out (about
 * 1e−15 relative in double precision; `Φ(x) = 0` below −37.5193, where it
 * underflows). `e^(−y²/2)` is split as `e^(−t²/2)·e^(−(y−t)(y+t)/2)` with
 * `t = ⌊16y⌋/16` exact, as Cody does, so that rounding `y²` costs nothing;
 * the first factor comes from a 609-entry table.
 *
 * `normalQuantile` is P. J. Acklam's rational approximation ("An algorithm
 * for computing the inverse normal cumulative distribution function", 2003,
 * relative error below 1.15e−9) followed by one Halley step on `Φ`, which
 * takes it to the accuracy of `normalCdf`.
 *
 * @example
 * normalCdf(1.96); // => 0.9750021048517795
 * normalQuantile(0.975); // => 1.959963984540054
 */

/** 1 / √(2π). */
export const INV_SQRT_2PI = 0.3989422804014327;
/** √(2π). */
const SQRT_2PI = 2.5066282746310002;

/**
 * Standard normal density `φ(x) = e^(−x²/2) / √(2π)`.
 * @example
 * normalPdf(0); // => 0.3989422804014327
 */
export function normalPdf(x: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
}

/** `e^(−t²/2)` at `t = k/16`, k = 0…608: Cody's first factor from a table, one `Math.exp` saved (t² is exact). */
const HALF_SQUARE_EXP = Float64Array.from({ length: 16 * 38 + 1 }, (_, k) => Math.exp(-0.5 * (k / 16) * (k / 16)));

/**
 * `e^(−y²/2) · ratio` with the square split at a multiple of 1/16 (Cody's
 * `do_del`): `t²` is exact, and `(y − t)(y + t)` is small and accurate.
 */
function gaussianTail(y: number, ratio: number): number {
  const k = Math.trunc(y * 16);
  const t = k / 16;
  return HALF_SQUARE_EXP[k]! * Math.exp(-0.5 * (y - t) * (y + t)) * ratio;
}

/**
 * Standard normal distribution function `Φ(x) = P(Z ≤ x)` (Cody's ANORM).
 * `NaN` gives `NaN`; `±Infinity` give 1 and 0.
 * @example
 * normalCdf(-1.96); // => 0.024997895148220435
 */
export function normalCdf(x: number): number {
  const y = Math.abs(x);
  if (y <= 0.66291) {
    const z = x * x;
    const num = (((0.065682337918207449113 * z + 2.2352520354606839287) * z + 161.02823106855587881) * z + 1067.6894854603709582) * z + 18154.981253343561249;
    const den = (((z + 47.20258190468824187) * z + 976.09855173777669322) * z + 10260.932208618978205) * z + 45507.789335026729956;
    return 0.5 + (x * num) / den;
  }
  let tail: number;
  if (y <= 5.656854249492381) {
    const num =
      (((((((1.0765576773720192317e-8 * y + 0.39894151208813466764) * y + 8.8831497943883759412) * y + 93.506656132177855979) * y + 597.27027639480026226) * y +
        2494.5375852903726711) * y + 6848.1904505362823326) * y + 11602.651437647350124) * y + 9842.7148383839780218;
    const den =
      (((((((y + 22.266688044328115691) * y + 235.38790178262499861) * y + 1519.377599407554805) * y + 6485.558298266760755) * y + 18615.571640885098091) * y +
        34900.952721145977266) * y + 38912.003286093271411) * y + 19685.429676859990727;
    tail = gaussianTail(y, num / den);
  } else if (y < 37.5193) {
    const z = 1 / (x * x);
    const num = ((((0.02307344176494017303 * z + 0.21589853405795699) * z + 0.1274011611602473639) * z + 0.022235277870649807) * z + 0.001421619193227893466) * z + 2.9112874951168792e-5;
    const den = ((((z + 1.28426009614491121) * z + 0.468238212480865118) * z + 0.0659881378689285515) * z + 0.00378239633202758244) * z + 7.29751555083966205e-5;
    tail = gaussianTail(y, (INV_SQRT_2PI - (z * num) / den) / y);
  } else if (y === y) {
    tail = 0;
  } else {
    return NaN;
  }
  return x > 0 ? 1 - tail : tail;
}

/** Acklam's lower-half approximation, `0 < p ≤ ½`. */
function acklamLower(p: number): number {
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((-7.784894002430293e-3 * q - 3.223964580411365e-1) * q - 2.400758277161838) * q - 2.549732539343734) * q + 4.374664141464968) * q + 2.938163982698783) /
      ((((7.784695709041462e-3 * q + 3.224671290700398e-1) * q + 2.445134137142996) * q + 3.754408661907416) * q + 1)
    );
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((-3.969683028665376e1 * r + 2.209460984245205e2) * r - 2.759285104469687e2) * r + 1.38357751867269e2) * r - 3.066479806614716e1) * r + 2.506628277459239) * q) /
    (((((-5.447609879822406e1 * r + 1.615858368580409e2) * r - 1.556989798598866e2) * r + 6.680131188771972e1) * r - 1.328068155288572e1) * r + 1)
  );
}

/**
 * Standard normal quantile `Φ⁻¹(p)`: Acklam's approximation and one Halley
 * step `x ← x − u / (1 + x·u/2)`, `u = (Φ(x) − p)·√(2π)·e^(x²/2)`.
 * Upper-half `p` uses `Φ⁻¹(p) = −Φ⁻¹(1 − p)`, where `1 − p` is exact.
 * Gives −∞ at 0, +∞ at 1 and `NaN` outside [0, 1]. Below `p ≈ 4.6e−308`
 * (`x < −37.5`) the Halley step is skipped (`Φ` underflows there), leaving
 * Acklam's 1.15e−9.
 * @example
 * normalQuantile(0.5); // => 0
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : NaN;
  if (p > 0.5) return -normalQuantile(1 - p);
  const x = acklamLower(p);
  if (x < -37.5) return x;
  const u = (normalCdf(x) - p) * SQRT_2PI * Math.exp(0.5 * x * x);
  return x - u / (1 + 0.5 * x * u);
}
