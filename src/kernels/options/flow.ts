/**
 * @module kernels/options/flow
 * Unusual options activity and dealer exposure from one chain snapshot
 * (end-of-day or intraday aggregates per contract, not trade prints):
 *
 * - **Unusual**: volume ≥ `minVolume` (500) and volume ≥ `volumeToOi` (2) ×
 *   open interest — more contracts traded today than were open, so new
 *   positions were likely opened (the common definition of unusual options
 *   activity; open interest updates only overnight).
 * - **Premium** = volume × price × 100, price = last (mid when no last).
 *   Side: a last at or above the mid counts as bought at the ask
 *   (buyer-initiated), below it as sold at the bid — the quote rule of Lee &
 *   Ready, "Inferring Trade Direction from Intraday Data", JF 46(2), 1991,
 *   applied to the day's last trade.
 * - **Sweep-like**: unusual contracts whose last is at or above the ask,
 *   grouped per expiry and type. Without trade-level data (exchange, time,
 *   size) real sweeps cannot be told from blocks; these are inferred.
 * - **Exposure by strike** (the SqueezeMetrics "GEX" convention: dealers long
 *   the calls and short the puts customers trade):
 *   gamma exposure = Σ ±Γ·OI·100·S²·0.01 (calls +, puts −), dollars of
 *   delta per 1% move; delta exposure = Σ Δ·OI·100·S (Black–Scholes Δ, puts
 *   negative). The **gamma flip** is the spot where the total gamma exposure,
 *   recomputed at that spot, changes sign (scanned over ±30% and
 *   interpolated), when there is one.
 *
 * @example
 * optionsFlow(contracts, { spot: 100, rate: 0.045 }).unusual; // contracts with volume ≥ 500 and ≥ 2× OI
 */
import { blackScholesGreeks, gammaOverSpots, type OptionKind } from './black-scholes';

export interface FlowContract {
  contractSymbol: string;
  type: OptionKind;
  strike: number;
  expiry: string;
  /** Years to expiry (> 0). */
  years: number;
  bid: number | null;
  ask: number | null;
  last: number | null;
  volume: number;
  openInterest: number;
  /** Implied volatility (decimal); contracts without one are left out of the exposure. */
  iv: number | null;
}

export interface FlowOptions {
  spot: number;
  rate: number;
  minVolume?: number;
  volumeToOi?: number;
  /** How many of the largest prints to list (default 10). */
  top?: number;
}

export type TradeSide = 'ask' | 'bid' | 'mid';

export interface FlowPrint {
  contractSymbol: string;
  type: OptionKind;
  strike: number;
  expiry: string;
  volume: number;
  openInterest: number;
  volumeToOi: number | null;
  price: number;
  premium: number;
  side: TradeSide;
}

export interface StrikeExposure {
  strike: number;
  callGamma: number;
  putGamma: number;
  netGamma: number;
  netDelta: number;
  callOpenInterest: number;
  putOpenInterest: number;
}

export interface OptionsFlow {
  totals: { callVolume: number; putVolume: number; callOpenInterest: number; putOpenInterest: number; callPremium: number; putPremium: number };
  premiumBySide: { callAsk: number; callBid: number; putAsk: number; putBid: number };
  ratios: { callPutVolume: number | null; callPutPremium: number | null; callPutOpenInterest: number | null; putCallVolume: number | null };
  unusual: FlowPrint[];
  largestPrints: FlowPrint[];
  sweepLike: { expiry: string; type: OptionKind; contracts: number; volume: number; premium: number; strikes: number[] }[];
  exposure: { byStrike: StrikeExposure[]; totalGamma: number; totalDelta: number; gammaFlip: number | null };
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

/** Mid of the quote, or null without a two-sided quote. */
function midOf(c: FlowContract): number | null {
  return c.bid !== null && c.ask !== null && c.ask >= c.bid ? (c.bid + c.ask) / 2 : null;
}

/** The Lee–Ready quote rule on the last trade: at or above the mid → ask, below → bid. */
export function tradeSide(c: FlowContract): TradeSide {
  const mid = midOf(c);
  if (c.last === null || mid === null) return 'mid';
  return c.last >= mid ? 'ask' : 'bid';
}

function printOf(c: FlowContract): FlowPrint | null {
  const price = c.last ?? midOf(c);
  if (price === null || c.volume <= 0) return null;
  return {
    contractSymbol: c.contractSymbol,
    type: c.type,
    strike: c.strike,
    expiry: c.expiry,
    volume: c.volume,
    openInterest: c.openInterest,
    volumeToOi: ratio(c.volume, c.openInterest),
    price,
    premium: c.volume * price * 100,
    side: tradeSide(c),
  };
}

/** Γ exposure (calls +, puts −) of the priced contracts at a hypothetical spot, dollars per 1% move. */
export function gammaExposureAt(contracts: readonly FlowContract[], spot: number, rate: number): number {
  return exposureCurve(contracts, rate)(spot);
}

/** `gammaExposureAt` as a function of the spot: each priced contract's spot-free terms once, for the flip's 61 trial spots. */
function exposureCurve(contracts: readonly FlowContract[], rate: number): (spot: number) => number {
  const priced: { sign: number; openInterest: number; gamma: (spot: number) => number }[] = [];
  for (const c of contracts) {
    if (c.iv === null || !(c.iv > 0) || !(c.years > 0) || c.openInterest <= 0) continue;
    priced.push({ sign: c.type === 'call' ? 1 : -1, openInterest: c.openInterest, gamma: gammaOverSpots(c.strike, c.years, rate, c.iv) });
  }
  return (spot) => {
    let total = 0;
    for (const p of priced) total += p.sign * p.gamma(spot) * p.openInterest * 100 * spot * spot * 0.01;
    return total;
  };
}

/** The spot nearest the current one where the gamma exposure changes sign, within ±30%; null when it keeps one sign. */
export function gammaFlip(contracts: readonly FlowContract[], spot: number, rate: number, steps = 60): number | null {
  let best: number | null = null;
  const exposureAt = exposureCurve(contracts, rate);
  let prevS = spot * 0.7;
  let prev = exposureAt(prevS);
  for (let k = 1; k <= steps; k++) {
    const s = spot * (0.7 + (0.6 * k) / steps);
    const g = exposureAt(s);
    if (prev !== 0 && g !== 0 && Math.sign(prev) !== Math.sign(g)) {
      const flip = prevS + ((s - prevS) * prev) / (prev - g);
      if (best === null || Math.abs(flip - spot) < Math.abs(best - spot)) best = flip;
    }
    prevS = s;
    prev = g;
  }
  return best;
}

export function optionsFlow(contracts: readonly FlowContract[], options: FlowOptions): OptionsFlow {
  const { spot, rate, minVolume = 500, volumeToOi = 2, top = 10 } = options;
  const totals = { callVolume: 0, putVolume: 0, callOpenInterest: 0, putOpenInterest: 0, callPremium: 0, putPremium: 0 };
  const premiumBySide = { callAsk: 0, callBid: 0, putAsk: 0, putBid: 0 };
  const prints: FlowPrint[] = [];
  const strikes = new Map<number, StrikeExposure>();
  let totalGamma = 0;
  let totalDelta = 0;
  for (const c of contracts) {
    const call = c.type === 'call';
    if (call) (totals.callVolume += c.volume), (totals.callOpenInterest += c.openInterest);
    else (totals.putVolume += c.volume), (totals.putOpenInterest += c.openInterest);
    const print = printOf(c);
    if (print) {
      prints.push(print);
      if (call) totals.callPremium += print.premium;
      else totals.putPremium += print.premium;
      if (print.side === 'ask') premiumBySide[call ? 'callAsk' : 'putAsk'] += print.premium;
      else if (print.side === 'bid') premiumBySide[call ? 'callBid' : 'putBid'] += print.premium;
    }
    if (c.iv === null || !(c.iv > 0) || !(c.years > 0)) continue;
    const g = blackScholesGreeks(c.type, spot, c.strike, c.years, rate, c.iv);
    const gamma = (call ? 1 : -1) * g.gamma * c.openInterest * 100 * spot * spot * 0.01;
    const delta = g.delta * c.openInterest * 100 * spot;
    let row = strikes.get(c.strike);
    if (!row) strikes.set(c.strike, (row = { strike: c.strike, callGamma: 0, putGamma: 0, netGamma: 0, netDelta: 0, callOpenInterest: 0, putOpenInterest: 0 }));
    if (call) (row.callGamma += gamma), (row.callOpenInterest += c.openInterest);
    else (row.putGamma += gamma), (row.putOpenInterest += c.openInterest);
    row.netGamma += gamma;
    row.netDelta += delta;
    totalGamma += gamma;
    totalDelta += delta;
  }
  const unusual = prints
    .filter((p) => p.volume >= minVolume && p.volume >= volumeToOi * p.openInterest)
    .sort((a, b) => b.premium - a.premium);
  const sweeps = new Map<string, OptionsFlow['sweepLike'][number]>();
  const byContract = new Map(contracts.map((c) => [c.contractSymbol, c]));
  for (const p of unusual) {
    const c = byContract.get(p.contractSymbol)!;
    if (c.last === null || c.ask === null || c.last < c.ask) continue;
    const key = `${p.expiry}|${p.type}`;
    let group = sweeps.get(key);
    if (!group) sweeps.set(key, (group = { expiry: p.expiry, type: p.type, contracts: 0, volume: 0, premium: 0, strikes: [] }));
    group.contracts++;
    group.volume += p.volume;
    group.premium += p.premium;
    group.strikes.push(p.strike);
  }
  return {
    totals,
    premiumBySide,
    ratios: {
      callPutVolume: ratio(totals.callVolume, totals.putVolume),
      callPutPremium: ratio(totals.callPremium, totals.putPremium),
      callPutOpenInterest: ratio(totals.callOpenInterest, totals.putOpenInterest),
      putCallVolume: ratio(totals.putVolume, totals.callVolume),
    },
    unusual,
    largestPrints: [...prints].sort((a, b) => b.premium - a.premium).slice(0, top),
    sweepLike: [...sweeps.values()].map((g) => ({ ...g, strikes: g.strikes.sort((a, b) => a - b) })).sort((a, b) => b.premium - a.premium),
    exposure: {
      byStrike: [...strikes.values()].sort((a, b) => a.strike - b.strike),
      totalGamma,
      totalDelta,
      gammaFlip: gammaFlip(contracts, spot, rate),
    },
  };
}
