/**
 * @module kernels/options/implied-vol
 * Implied volatility: the `σ` at which the Black–Scholes–Merton price (see
 * `black-scholes.ts`) equals a quoted price.
 *
 * The quote is first reduced to Black's normalised form (P. Jäckel, "Let's be
 * rational", Wilmott, January 2015, pp. 40–53, §2): with the forward
 * `F = S e^((r−q)T)`, the undiscounted price `p = price · e^(rT)`,
 * `x = ln(F/K)` and `s = σ√T`,
 *
 * ```
 * b(x, s) = e^(x/2) N(x/s + s/2) − e^(−x/2) N(x/s − s/2)      (a call, x ≤ 0)
 * b'(s)   = e^(−(x²/s² + s²/4)/2) / √(2π)                     (normalised vega)
 * b''/b'  = x²/s³ − s/4
 * ```
 *
 * An in-the-money quote becomes the out-of-the-money option of the same
 * strike by put–call parity (its time value `p − max(φ(F − K), 0)`), and a
 * put with `x > 0` is the call with `−x`, so one solver handles `x ≤ 0` and
 * `β = timeValue / √(FK)` in `(0, e^(x/2))`. `b` is convex in `s` below the
 * inflection point `s_c = √(2|x|)` and concave above it (S. Manaster and
 * G. Koehler, "The Calculation of Implied Variances from the Black–Scholes
 * Model: A Note", J. Finance 37(1), 1982), which splits the solve in two:
 *
 * - `β < b(s_c)`: Halley steps on `1/ln b(s) − 1/ln β`, nearly linear there
 *   (Jäckel's lower objective), starting from the larger of the tail
 *   asymptotic `ln β ≈ −x²/(2s²) + ln(s³ / (x²√(2π)))` (solved by fixed
 *   point; it undershoots near `s_c`) and one step from `s_c`;
 * - `β ≥ b(s_c)`: Halley steps on `b(s) − β`, starting from the larger of
 *   `−2 Φ⁻¹((e^(x/2) − β) / (e^(x/2) + e^(−x/2)))` (exact at the money, so
 *   `x = 0` is solved in closed form) and one step from `s_c`.
 *
 * A Halley step is Newton's step on the vega `b'` with the curvature `b''`
 * folded in: `Δ = −(f/f') / (1 + ½ (−f/f') f''/f')`, cubic convergence.
 * The solve stops when a step is under 1e−7 of `s` (the next error is about
 * its cube). Every step is kept inside a bracket that each evaluation
 * tightens; a step that would leave it is replaced by bisection, so the
 * solve cannot diverge (W. H. Press et al., "Numerical Recipes", 3rd ed.,
 * §9.4, `rtsafe`). On a book of strikes ±40%, 1 day to 2 years and vols
 * 5–100% it takes 2.4–2.6 evaluations of `b` a quote on average, at most 5.
 *
 * Quotes outside the no-arbitrage bounds `max(φ(S e^(−qT) − K e^(−rT)), 0)
 * ≤ price < (call: S e^(−qT), put: K e^(−rT))` have no implied volatility:
 * the result is `NaN` with a reason, never a throw. A quote at intrinsic
 * value gives 0 (in the money: within 8 ulps of `max(F, K)`, the rounding
 * that `F − K` itself carries), and a quote at expiry has none (`expired`).
 *
 * @example
 * // Hull, 10th ed., Example 15.6 the other way round: the call at 4.7594 is σ = 20%
 * impliedVol('call', 4.759422392871535, 42, 40, 0.5, 0.1).vol; // => 0.2 (within 1e-15)
 */
import { batchLength, callPutAt, callPutSign, checkOption, type ContractColumns, type OptionKind } from './black-scholes';
import { INV_SQRT_2PI, normalCdf, normalQuantile } from './normal';

/** Why a quote has no implied volatility; `ok` when it has one. Batch codes index this list. */
export const IMPLIED_VOL_REASONS = ['ok', 'below-intrinsic', 'above-upper-bound', 'expired', 'price-not-finite', 'no-convergence'] as const;
export type ImpliedVolReason = (typeof IMPLIED_VOL_REASONS)[number];

export interface ImpliedVolResult {
  /** Annualised implied volatility, or `NaN` when `reason` is not `ok`. */
  vol: number;
  reason: ImpliedVolReason;
}

/** Iterations before giving up; bisection alone needs about 60 to reach 1e−16 of the bracket. */
const MAX_ITERATIONS = 100;
/** Stop once a Halley step is this small relative to `s`: the next error is about its cube. */
const STEP_TOLERANCE = 1e-7;
/**
 * In the money, a time value within this many ulps of `max(F, K)` counts as
 * none: the intrinsic value `F − K` carries rounding of that size.
 */
const INTRINSIC_ULPS = 8 * Number.EPSILON;

/** Reason code of the last {@link impliedVolUnchecked} call (an index into {@link IMPLIED_VOL_REASONS}). */
let lastReason = 0;

/** Records why there is no implied vol and returns `NaN`. */
function fail(reason: number): number {
  lastReason = reason;
  return NaN;
}

/**
 * One Halley step `Δs` (unguarded) toward `b(x, s) = β` from `s`, where
 * `b = b(x, s)`: on `1/ln b − 1/ln β` in the lower region, on `b − β` above.
 */
function halleyStep(lower: boolean, xx: number, s: number, b: number, beta: number, invLnBeta: number): number {
  const slope = INV_SQRT_2PI * Math.exp(-0.5 * (xx / (s * s) + 0.25 * s * s)); // b'
  const bend = xx / (s * s * s) - 0.25 * s; // b''/b'
  let newton: number; // −f/f'
  let curvature: number; // f''/f'
  if (lower) {
    const ln = Math.log(b);
    const dln = slope / b; // (ln b)'
    newton = ((1 / ln - invLnBeta) * ln * ln) / dln;
    curvature = bend - dln - (2 * dln) / ln; // (1/ln b)'' / (1/ln b)'
  } else {
    newton = (beta - b) / slope;
    curvature = bend;
  }
  const halley = 1 + 0.5 * newton * curvature; // Halley: Δ = newton / (1 + ½ · newton · f''/f')
  return halley > 0.5 ? newton / halley : newton;
}

/** `σ√T` with `b(x, σ√T) = β`, for `x ≤ 0` and `0 < β < e^(x/2)`. */
function normalisedVol(x: number, beta: number): number {
  const ex = Math.exp(0.5 * x);
  if (!(beta < ex)) return fail(2); // a quote a rounding under the bound can land here
  if (x === 0) return -2 * normalQuantile(0.5 - 0.5 * beta); // b(0, s) = 1 − 2N(−s/2)
  const emx = 1 / ex;
  const xx = x * x;
  const sc = Math.sqrt(-2 * x);
  const bc = ex * 0.5 - emx * normalCdf(-sc); // d1 = 0 at the inflection point
  const lower = beta < bc;
  const lnBeta = Math.log(beta);
  const invLnBeta = 1 / lnBeta;
  // Where to start: the better of a closed-form guess and one Halley step from s_c (which is free: b(s_c) is known).
  const fromInflection = sc + halleyStep(lower, xx, sc, bc, beta, invLnBeta);
  let lo: number;
  let hi: number;
  let s: number;
  if (lower) {
    lo = 0;
    hi = sc;
    s = Math.sqrt(xx / (-2 * lnBeta));
    for (let k = 0; k < 2; k++) {
      const next = Math.sqrt(xx / (2 * (Math.log((s * s * s * INV_SQRT_2PI) / xx) - lnBeta)));
      if (next < sc) s = next;
    }
    // The asymptotic guess undershoots near s_c; the step from s_c is poor deep in the tail: take the larger (measured).
    if (fromInflection > 0 && fromInflection < sc) s = Math.max(s, fromInflection);
    if (!(s < sc)) s = 0.5 * sc;
  } else {
    lo = sc;
    hi = Infinity;
    s = Math.max(-2 * normalQuantile((ex - beta) / (ex + emx)), fromInflection);
    if (!(s > sc)) s = sc;
  }
  for (let k = 0; k < MAX_ITERATIONS; k++) {
    const d1 = x / s + 0.5 * s;
    const b = ex * normalCdf(d1) - emx * normalCdf(d1 - s);
    if (b < beta) lo = s;
    else if (b > beta) hi = s;
    else return s;
    const step = halleyStep(lower, xx, s, b, beta, invLnBeta);
    if (Math.abs(step) <= STEP_TOLERANCE * s) return s + step;
    s += step;
    if (!(s > lo && s < hi)) s = hi < Infinity ? 0.5 * (lo + hi) : 2 * lo;
  }
  return fail(5);
}

/**
 * Implied volatility for `φ = ±1` with the contract already checked; sets
 * {@link lastReason}. Allocates nothing.
 */
function impliedVolUnchecked(phi: number, price: number, spot: number, strike: number, years: number, rate: number, dividendYield: number): number {
  lastReason = 0;
  if (!Number.isFinite(price)) return fail(4);
  if (years === 0) return fail(3);
  const forward = spot * Math.exp((rate - dividendYield) * years);
  const undiscounted = price * Math.exp(rate * years);
  if (undiscounted >= (phi > 0 ? forward : strike)) return fail(2);
  const intrinsic = Math.max(phi * (forward - strike), 0);
  const timeValue = undiscounted - intrinsic;
  const slack = intrinsic > 0 ? INTRINSIC_ULPS * Math.max(forward, strike) : 0;
  if (timeValue < -slack) return fail(1);
  if (timeValue <= slack) return 0;
  const x = -Math.abs(Math.log(forward / strike));
  const s = normalisedVol(x, timeValue / (Math.sqrt(forward) * Math.sqrt(strike)));
  return s / Math.sqrt(years);
}

/**
 * Implied volatility of a European call or put quoted at `price`.
 * @throws {RangeError} on a bad contract (as `blackScholesPrice`); a price outside the bounds is `NaN` with a reason.
 * @example
 * impliedVol('put', 50, 42, 40, 0.5, 0.1); // => { vol: NaN, reason: 'above-upper-bound' }
 */
export function impliedVol(kind: OptionKind, price: number, spot: number, strike: number, years: number, rate: number, dividendYield = 0): ImpliedVolResult {
  checkOption(spot, strike, years, rate, 0, dividendYield);
  const vol = impliedVolUnchecked(callPutSign(kind), price, spot, strike, years, rate, dividendYield);
  return { vol, reason: IMPLIED_VOL_REASONS[lastReason]! };
}

/**
 * Writes the implied volatility of each quote in `price` into `out`, and its
 * reason code (an index into {@link IMPLIED_VOL_REASONS}) into `reasons` if given.
 * Allocates nothing.
 * @throws {RangeError} on mismatched lengths or at the first bad contract.
 */
export function impliedVol1d(options: ContractColumns, price: Float64Array, out: Float64Array, reasons?: Uint8Array): void {
  const n = batchLength({ ...options, price } as unknown as Record<string, ArrayLike<number>>, [out, reasons]);
  const { callPut, spot, strike, years, rate, dividendYield } = options;
  for (let i = 0; i < n; i++) {
    const phi = callPutAt(callPut, i);
    const S = spot[i]!, K = strike[i]!, T = years[i]!, r = rate[i]!, q = dividendYield[i]!;
    if (!(S > 0 && S < Infinity && K > 0 && K < Infinity && T >= 0 && T < Infinity && r - r === 0 && q - q === 0)) checkOption(S, K, T, r, 0, q, i);
    out[i] = impliedVolUnchecked(phi, price[i]!, S, K, T, r, q);
    if (reasons !== undefined) reasons[i] = lastReason;
  }
}
