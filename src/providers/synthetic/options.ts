/**
 * @module providers/synthetic/options
 * A synthetic option chain priced off the simulated underlying:
 *
 * - Expiries: the next six Fridays, the third Friday of each of the next six
 *   months, and the next two Januaries' third Fridays; one falling on an
 *   exchange holiday moves to the session before (as Good Friday expiries do).
 * - Strikes: the listed grid (kernels/options/strikes) within ±30% of spot
 *   (±50% past six months).
 * - Implied volatility: an ATM term structure from the 20-session realised
 *   volatility × 1.1 at the short end to the 250-session one with a 3-month
 *   half-life, plus the next report's event variance (its typical move²) for
 *   expiries after it; a smile in standardised moneyness
 *   m = ln(K/S) ÷ (σ_atm √T), clamped to ±2.5: σ = σ_atm × (1 − 0.12 m + 0.04 m²).
 * - Prices: Black–Scholes at r = 4.5%; spread 3% of mid + 2¢; last inside the spread.
 * - Open interest falls with |m| and with time; volume is a lognormal share
 *   of it, and about 2% of contracts a day print unusual volume (2–8× their
 *   open interest), seeded by (symbol, day).
 */
import { blackScholesPrice } from '../../kernels/options/black-scholes';
import { strikeGrid } from '../../kernels/options/strikes';
import { isTradingDay } from '../calendar';
import type { BarSeries, OptionChain, OptionContract } from '../types';
import type { SymbolProfile } from './profile';
import { Rng, seedFor } from './rng';

const SOURCE = 'synthetic';
const DAY_MS = 86_400_000;
export const CHAIN_RATE = 0.045;
const isoDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

function realisedVol(bars: BarSeries, sessions: number): number {
  const n = bars.close.length;
  const k = Math.min(sessions, n - 1);
  if (k < 2) return 0.3;
  let sum = 0;
  let sq = 0;
  for (let i = n - k; i < n; i++) {
    const r = Math.log(bars.close[i]! / bars.close[i - 1]!);
    sum += r;
    sq += r * r;
  }
  return Math.sqrt(((sq - (sum * sum) / k) / (k - 1)) * 252);
}

function thirdFriday(year: number, month: number): number {
  const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return Date.UTC(year, month, 1 + ((5 - first + 7) % 7) + 14);
}

/** Expiry dates after `today`, ascending. */
export function expiriesAfter(today: string): string[] {
  const t0 = Date.parse(`${today}T00:00:00Z`);
  const set = new Set<string>();
  let friday = t0 + (((5 - new Date(t0).getUTCDay() + 7) % 7) || 7) * DAY_MS;
  const add = (ts: number) => {
    while (!isTradingDay(isoDay(ts))) ts -= DAY_MS;
    if (ts > t0) set.add(isoDay(ts));
  };
  for (let k = 0; k < 6; k++, friday += 7 * DAY_MS) add(friday);
  const d = new Date(t0);
  for (let m = 0; m <= 6; m++) add(thirdFriday(d.getUTCFullYear(), d.getUTCMonth() + m));
  for (let y = 1; y <= 2; y++) add(thirdFriday(d.getUTCFullYear() + y, 0));
  return [...set].sort().slice(0, 14);
}

const occ = (symbol: string, expiry: string, type: 'call' | 'put', strike: number) =>
  `${symbol.replace(/[^A-Z]/g, '')}${expiry.slice(2, 4)}${expiry.slice(5, 7)}${expiry.slice(8, 10)}${type === 'call' ? 'C' : 'P'}${String(Math.round(strike * 1000)).padStart(8, '0')}`;

export function optionChain(profile: SymbolProfile, bars: BarSeries, spot: number, today: string, asOf: string, nextReport: string | null, onlyExpiry?: string): OptionChain {
  const shortVol = realisedVol(bars, 20) * 1.1;
  const longVol = realisedVol(bars, 250);
  const t0 = Date.parse(`${today}T00:00:00Z`);
  const expiries = expiriesAfter(today);
  const contracts: OptionContract[] = [];
  const rng = new Rng(seedFor(profile.seed, 'chain', today));
  for (const expiry of expiries) {
    if (onlyExpiry && expiry !== onlyExpiry) continue;
    const years = (Date.parse(`${expiry}T00:00:00Z`) - t0) / DAY_MS / 365;
    const base = longVol + (shortVol - longVol) * Math.exp(-years / 0.25);
    const event = nextReport !== null && nextReport <= expiry ? profile.earningsMove ** 2 : 0;
    const atm = Math.sqrt(base * base + event / years);
    const width = years > 0.5 ? 0.5 : 0.3;
    for (const strike of strikeGrid(spot * (1 - width), spot * (1 + width), spot)) {
      const m = Math.log(strike / spot) / (atm * Math.sqrt(years));
      const mc = Math.max(-2.5, Math.min(2.5, m));
      const iv = atm * (1 - 0.12 * mc + 0.04 * mc * mc);
      const oiBase = (profile.averageVolume / 400) * Math.exp((-m * m) / 2) / (1 + 2 * years);
      for (const type of ['call', 'put'] as const) {
        const mid = blackScholesPrice(type, spot, strike, years, CHAIN_RATE, iv);
        const spread = 0.03 * mid + 0.02;
        const openInterest = Math.round(oiBase * rng.logRange(0.5, 2));
        const unusual = rng.uniform() < 0.02;
        const volume = Math.round(unusual ? openInterest * rng.range(2, 8) + 500 : openInterest * Math.exp(-1.5 + 0.8 * rng.normal()));
        contracts.push({
          contractSymbol: occ(profile.symbol, expiry, type, strike),
          type,
          strike,
          expiry,
          bid: round(Math.max(0, mid - spread / 2), 2),
          ask: round(mid + spread / 2, 2),
          last: volume > 0 ? round(Math.max(0.01, mid + spread * rng.range(-0.5, 0.5)), 2) : null,
          volume,
          openInterest,
          impliedVolatility: round(iv, 4),
        });
      }
    }
  }
  return { symbol: profile.symbol, underlyingPrice: spot, asOf, expiries, contracts, source: SOURCE };
}
