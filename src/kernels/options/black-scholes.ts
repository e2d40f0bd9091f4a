/**
 * @module kernels/options/black-scholes
 * European option prices and greeks under Black–Scholes with a continuous
 * dividend yield `q` (R. C. Merton, "Theory of Rational Option Pricing",
 * Bell J. Econ. 4(1), 1973; formulas as in J. C. Hull, "Options, Futures, and
 * Other Derivatives", 10th ed., ch. 17 and ch. 19 "The Greek Letters").
 * With `φ = +1` for a call and `−1` for a put, `s = σ√T`,
 *
 * ```
 * d1 = (ln(S/K) + (r − q + σ²/2)T) / s,   d2 = d1 − s
 * price = φ (S e^(−qT) N(φ d1) − K e^(−rT) N(φ d2))
 * delta = φ e^(−qT) N(φ d1)
 * gamma = e^(−qT) n(d1) / (S s)
 * vega  = S e^(−qT) n(d1) √T                                  (per 1.00 of vol)
 * theta = −S e^(−qT) n(d1) σ / (2√T) + φ (q S e^(−qT) N(φ d1) − r K e^(−rT) N(φ d2))
 * rho   = φ K T e^(−rT) N(φ d2)                                (per 1.00 of rate)
 * ```
 *
 * Theta is `∂V/∂t` per year of calendar time (negative for a long option as
 * time passes); `thetaPerDay` is `theta / 365`, Hull's "per calendar day".
 *
 * No volatility (`σ√T = 0`: at expiry, or `σ = 0`) is the deterministic limit:
 * the price is the discounted forward intrinsic value
 * `max(φ (S e^(−qT) − K e^(−rT)), 0)`, delta is `φ e^(−qT)` in the money and
 * 0 out of it, and gamma and vega are 0. Exactly at the forward
 * (`S e^(−qT) = K e^(−rT)`) the values are the limits as `σ√T → 0`: delta
 * `φ e^(−qT)/2`, vega `S e^(−qT) √T / √(2π)`, gamma `+∞`, and at expiry theta
 * `−∞` (the payoff's kink sits at the spot).
 *
 * Deep in or out of the money `N` keeps full relative accuracy in its tails
 * (see `normal.ts`), so nothing overflows; a price is never below 0.
 *
 * @example
 * // Hull, 10th ed., Example 15.6: S = 42, K = 40, r = 10%, σ = 20%, T = 0.5
 * blackScholesPrice('call', 42, 40, 0.5, 0.1, 0.2); // => 4.759422392871535 (Hull: 4.76)
 * blackScholesPrice('put', 42, 40, 0.5, 0.1, 0.2); // => 0.8085993729000958 (Hull: 0.81)
 */
import { INV_SQRT_2PI, normalCdf } from './normal';

export type OptionKind = 'call' | 'put';

/** Price and sensitivities of one option (vega and rho per 1.00, theta per year). */
export interface Greeks {
  price: number;
  delta: number;
  gamma: number;
  vega: number;
  theta: number;
  thetaPerDay: number;
  rho: number;
}

/** Calendar days in a year, for `thetaPerDay`. */
export const DAYS_PER_YEAR = 365;

/**
 * Rejects what the model cannot price: spot and strike must be positive,
 * years and vol non-negative, rate and dividend yield finite.
 * @throws {RangeError} naming the first bad argument (and `at`, the option's index, in a batch).
 */
export function checkOption(spot: number, strike: number, years: number, rate: number, vol: number, dividendYield: number, at = -1): void {
  let bad = '';
  if (!(spot > 0 && spot < Infinity)) bad = `spot must be positive and finite, got ${spot}`;
  else if (!(strike > 0 && strike < Infinity)) bad = `strike must be positive and finite, got ${strike}`;
  else if (!(years >= 0 && years < Infinity)) bad = `years must be non-negative and finite, got ${years}`;
  else if (!(vol >= 0 && vol < Infinity)) bad = `vol must be non-negative and finite, got ${vol}`;
  else if (!Number.isFinite(rate)) bad = `rate must be finite, got ${rate}`;
  else if (!Number.isFinite(dividendYield)) bad = `dividend yield must be finite, got ${dividendYield}`;
  if (bad !== '') throw new RangeError(`black-scholes: ${at >= 0 ? `option ${at}: ` : ''}${bad}`);
}

/** `φ` of a kind. @throws {RangeError} on anything but 'call' or 'put' (a JavaScript caller may pass any string). */
export function callPutSign(kind: OptionKind): number {
  if (kind === 'call') return 1;
  if (kind === 'put') return -1;
  throw new RangeError(`black-scholes: kind must be 'call' or 'put', got ${String(kind)}`);
}

/** The price for `φ = ±1`, arguments already checked. */
function priceUnchecked(phi: number, spot: number, strike: number, years: number, rate: number, vol: number, dividendYield: number): number {
  const forward = spot * Math.exp(-dividendYield * years); // S e^(−qT)
  const bond = strike * Math.exp(-rate * years); // K e^(−rT)
  const s = vol * Math.sqrt(years);
  let value: number;
  if (s > 0) {
    const d1 = Math.log(forward / bond) / s + 0.5 * s;
    value = phi * (forward * normalCdf(phi * d1) - bond * normalCdf(phi * (d1 - s)));
  } else {
    value = phi * (forward - bond);
  }
  return value > 0 ? value : 0;
}

/**
 * Black–Scholes–Merton price of a European call or put.
 * @param years time to expiry in years (0 at expiry)
 * @param rate continuously compounded risk-free rate, e.g. 0.05
 * @param vol annualised volatility, e.g. 0.2
 * @param dividendYield continuous dividend yield `q`; default 0
 * @throws {RangeError} on a non-positive spot or strike, negative years or vol, or a non-finite argument.
 * @example
 * blackScholesPrice('put', 100, 100, 1, 0.05, 0.2); // => 5.573526022256971
 */
export function blackScholesPrice(kind: OptionKind, spot: number, strike: number, years: number, rate: number, vol: number, dividendYield = 0): number {
  checkOption(spot, strike, years, rate, vol, dividendYield);
  return priceUnchecked(callPutSign(kind), spot, strike, years, rate, vol, dividendYield);
}

/** Scratch the greeks kernel writes into, so a batch allocates nothing per option. */
const scratch: Greeks = { price: 0, delta: 0, gamma: 0, vega: 0, theta: 0, thetaPerDay: 0, rho: 0 };

/** Fills `g` for `φ = ±1`, arguments already checked. */
function greeksUnchecked(phi: number, spot: number, strike: number, years: number, rate: number, vol: number, dividendYield: number, g: Greeks): void {
  const carry = Math.exp(-dividendYield * years);
  const discount = Math.exp(-rate * years);
  const forward = spot * carry;
  const bond = strike * discount;
  const sqrtT = Math.sqrt(years);
  const s = vol * sqrtT;
  let nd1: number; // N(φ d1)
  let nd2: number; // N(φ d2)
  if (s > 0) {
    const d1 = Math.log(forward / bond) / s + 0.5 * s;
    nd1 = normalCdf(phi * d1);
    nd2 = normalCdf(phi * (d1 - s));
    const density = forward * INV_SQRT_2PI * Math.exp(-0.5 * d1 * d1); // S e^(−qT) n(d1)
    const price = phi * (forward * nd1 - bond * nd2);
    g.price = price > 0 ? price : 0;
    g.gamma = density / (spot * spot * s);
    g.vega = density * sqrtT;
    g.theta = (-density * vol) / (2 * sqrtT) + phi * (dividendYield * forward * nd1 - rate * bond * nd2);
  } else {
    // The σ√T → 0 limit: N(φ d) is a step at the forward, ½ on it.
    const moneyness = phi * (forward - bond);
    nd1 = nd2 = moneyness > 0 ? 1 : moneyness < 0 ? 0 : 0.5;
    const atForward = moneyness === 0;
    g.price = moneyness > 0 ? moneyness : 0;
    g.gamma = atForward ? Infinity : 0;
    g.vega = atForward ? forward * INV_SQRT_2PI * sqrtT : 0;
    g.theta = (atForward && years === 0 ? -Infinity : 0) + phi * (dividendYield * forward * nd1 - rate * bond * nd2);
  }
  g.delta = phi * carry * nd1;
  g.rho = phi * years * bond * nd2;
  g.thetaPerDay = g.theta / DAYS_PER_YEAR;
}

/**
 * Price and greeks of a European call or put (see the module formulas).
 * @throws {RangeError} as {@link blackScholesPrice}.
 * @example
 * // Hull, 10th ed., ch. 19 running example: S = 49, K = 50, r = 5%, σ = 20%, T = 20 weeks
 * blackScholesGreeks('call', 49, 50, 0.3846, 0.05, 0.2).delta; // => 0.5216016339715762 (Hull: 0.522)
 */
export function blackScholesGreeks(kind: OptionKind, spot: number, strike: number, years: number, rate: number, vol: number, dividendYield = 0): Greeks {
  checkOption(spot, strike, years, rate, vol, dividendYield);
  greeksUnchecked(callPutSign(kind), spot, strike, years, rate, vol, dividendYield, scratch);
  return { ...scratch };
}

/**
 * Γ alone — the same value, bit for bit, as `blackScholesGreeks(…).gamma` of
 * either kind (the same expressions; Γ does not depend on the kind), without
 * the two Φ evaluations and the object the full greeks cost.
 * @throws {RangeError} as {@link blackScholesPrice}.
 * @example
 * blackScholesGamma(49, 50, 0.3846, 0.05, 0.2); // => blackScholesGreeks('call', 49, 50, 0.3846, 0.05, 0.2).gamma (Hull: 0.066)
 */
export function blackScholesGamma(spot: number, strike: number, years: number, rate: number, vol: number, dividendYield = 0): number {
  checkOption(spot, strike, years, rate, vol, dividendYield);
  return gammaOverSpots(strike, years, rate, vol, dividendYield)(spot);
}

/**
 * One contract's Γ as a function of the spot, its spot-free terms (e^(−qT),
 * K e^(−rT), σ√T) computed once: the gamma exposure of a chain is evaluated
 * at 61 hypothetical spots for its flip (kernels/options/flow `gammaFlip`).
 * Each value is `blackScholesGamma`'s, bit for bit (the same expressions).
 * @throws {RangeError} as {@link blackScholesPrice}: the contract's arguments here, a spot when it is evaluated.
 */
export function gammaOverSpots(strike: number, years: number, rate: number, vol: number, dividendYield = 0): (spot: number) => number {
  checkOption(1, strike, years, rate, vol, dividendYield);
  const carry = Math.exp(-dividendYield * years);
  const bond = strike * Math.exp(-rate * years);
  const s = vol * Math.sqrt(years);
  return (spot) => {
    if (!(spot > 0 && spot < Infinity)) checkOption(spot, strike, years, rate, vol, dividendYield);
    const forward = spot * carry;
    if (!(s > 0)) return forward === bond ? Infinity : 0; // the σ√T → 0 limit, as greeksUnchecked
    const d1 = Math.log(forward / bond) / s + 0.5 * s;
    const density = forward * INV_SQRT_2PI * Math.exp(-0.5 * d1 * d1);
    return density / (spot * spot * s);
  };
}

/** Contracts in a batch, one option per index (struct of arrays, as an option chain or grid is stored). */
export interface ContractColumns {
  /** +1 for a call, −1 for a put. */
  callPut: Int8Array;
  spot: Float64Array;
  strike: Float64Array;
  years: Float64Array;
  rate: Float64Array;
  dividendYield: Float64Array;
}

/** Contracts with the volatility to price them at. */
export interface OptionColumns extends ContractColumns {
  vol: Float64Array;
}

/** Output columns of {@link blackScholesGreeks1d}; only those given are written. */
export type GreekColumns = Partial<Record<keyof Greeks, Float64Array>>;

/**
 * Number of options in a batch after checking every column has that length
 * and every output holds at least as many.
 * @throws {RangeError} on a length mismatch.
 */
export function batchLength(columns: Record<string, ArrayLike<number>>, outputs: (Float64Array | Uint8Array | undefined)[]): number {
  const n = columns.callPut!.length;
  for (const [name, column] of Object.entries(columns)) {
    if (column.length !== n) throw new RangeError(`options: column ${name} holds ${column.length} values, callPut has ${n}`);
  }
  for (const out of outputs) {
    if (out !== undefined && out.length < n) throw new RangeError(`options: an output holds ${out.length} values, the batch has ${n}`);
  }
  return n;
}

/** `φ` of option `i`. @throws {RangeError} unless it is +1 or −1. */
export function callPutAt(callPut: Int8Array, i: number): number {
  const phi = callPut[i]!;
  if (phi !== 1 && phi !== -1) throw new RangeError(`options: option ${i}: callPut must be 1 (call) or -1 (put), got ${phi}`);
  return phi;
}

/**
 * Writes the price of every option in `options` into `out`; allocates nothing.
 * @throws {RangeError} on mismatched lengths, or at the first bad option (earlier outputs are written).
 * @example
 * const out = new Float64Array(1);
 * const col = (x: number) => Float64Array.of(x);
 * blackScholesPrice1d({ callPut: Int8Array.of(1), spot: col(42), strike: col(40), years: col(0.5), rate: col(0.1), vol: col(0.2), dividendYield: col(0) }, out);
 * out[0]; // => 4.759422392871535
 */
export function blackScholesPrice1d(options: OptionColumns, out: Float64Array): void {
  const n = batchLength(options as unknown as Record<string, ArrayLike<number>>, [out]);
  const { callPut, spot, strike, years, rate, vol, dividendYield } = options;
  for (let i = 0; i < n; i++) {
    const phi = callPutAt(callPut, i);
    const S = spot[i]!, K = strike[i]!, T = years[i]!, r = rate[i]!, v = vol[i]!, q = dividendYield[i]!;
    // The common case passes one range test per argument (NaN fails each); the message is built only on failure.
    if (!(S > 0 && S < Infinity && K > 0 && K < Infinity && T >= 0 && T < Infinity && v >= 0 && v < Infinity && r - r === 0 && q - q === 0)) checkOption(S, K, T, r, v, q, i);
    out[i] = priceUnchecked(phi, S, K, T, r, v, q);
  }
}

/**
 * Writes price and greeks of every option into the given output columns
 * (any of `price`, `delta`, `gamma`, `vega`, `theta`, `thetaPerDay`, `rho`); allocates nothing.
 * @throws {RangeError} as {@link blackScholesPrice1d}.
 */
export function blackScholesGreeks1d(options: OptionColumns, out: GreekColumns): void {
  const { price, delta, gamma, vega, theta, thetaPerDay, rho } = out;
  const n = batchLength(options as unknown as Record<string, ArrayLike<number>>, [price, delta, gamma, vega, theta, thetaPerDay, rho]);
  const { callPut, spot, strike, years, rate, vol, dividendYield } = options;
  const g = scratch;
  for (let i = 0; i < n; i++) {
    const phi = callPutAt(callPut, i);
    const S = spot[i]!, K = strike[i]!, T = years[i]!, r = rate[i]!, v = vol[i]!, q = dividendYield[i]!;
    if (!(S > 0 && S < Infinity && K > 0 && K < Infinity && T >= 0 && T < Infinity && v >= 0 && v < Infinity && r - r === 0 && q - q === 0)) checkOption(S, K, T, r, v, q, i);
    greeksUnchecked(phi, S, K, T, r, v, q, g);
    if (price !== undefined) price[i] = g.price;
    if (delta !== undefined) delta[i] = g.delta;
    if (gamma !== undefined) gamma[i] = g.gamma;
    if (vega !== undefined) vega[i] = g.vega;
    if (theta !== undefined) theta[i] = g.theta;
    if (thetaPerDay !== undefined) thetaPerDay[i] = g.thetaPerDay;
    if (rho !== undefined) rho[i] = g.rho;
  }
}
