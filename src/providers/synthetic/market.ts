/**
 * @module providers/synthetic/market
 * The common factors every synthetic symbol loads on, generated once per seed
 * over the trading calendar: a broad-market factor, one factor per GICS sector
 * and a small-cap factor (for IWM).
 *
 * The market factor is a three-state Markov-switching model (Hamilton, "A new
 * approach to the economic analysis of nonstationary time series and the
 * business cycle", Econometrica 57, 1989): calm bull, choppy and stressed bear
 * regimes with their own drift and long-run volatility. Inside a regime the
 * volatility clusters by GARCH(1,1) (see `garch.ts`) with Student-t (ν = 5)
 * innovations, the standard fat-tailed choice for daily equity returns
 * (Bollerslev, "A conditionally heteroskedastic time series model for
 * speculative prices and rates of return", REStat 69, 1987). Sector and
 * small-cap factors are GARCH-t residuals whose volatility rises in stressed
 * regimes, so correlations climb in sell-offs as they do in real markets.
 *
 * Everything is causal: day t depends on days before it only, so a world built
 * to a later date starts with exactly the same days.
 */
import { sessionOpenClose, tradingDays } from '../calendar';
import { SECTOR_ETFS } from '../universe';
import { Garch } from './garch';
import { Rng, seedFor } from './rng';

/** The first simulated session. */
export const HISTORY_START = '2019-01-02';

/** GICS sectors in factor order: factor `1 + i` is `SECTORS[i]`. */
export const SECTORS: readonly string[] = Object.keys(SECTOR_ETFS);
export const MARKET_FACTOR = 0;
export const SMALL_CAP_FACTOR = SECTORS.length + 1;
export const FACTOR_COUNT = SECTORS.length + 2;

export type Regime = 'calm_bull' | 'choppy' | 'stressed_bear';
export const REGIMES: readonly Regime[] = ['calm_bull', 'choppy', 'stressed_bear'];

const TRADING_DAYS_PER_YEAR = 252;
const annual = (vol: number) => vol / Math.sqrt(TRADING_DAYS_PER_YEAR);

/**
 * Daily drift, annualised long-run volatility and the sector-volatility
 * multiplier of each regime. Stays: 0.99 / 0.97 / 0.95 a day, i.e. mean
 * durations of about 100, 33 and 20 sessions; the chain spends roughly 60 / 28 /
 * 12 % of days in the three states, for an average market volatility near 20 %
 * and a drift near 7 % a year.
 */
const REGIME_PARAMS = [
  { drift: 0.0008, vol: 0.14, sectorScale: 0.9, volume: 0.95 },
  { drift: 0.0, vol: 0.21, sectorScale: 1.1, volume: 1.05 },
  { drift: -0.0018, vol: 0.36, sectorScale: 1.6, volume: 1.35 },
] as const;

/** Row-stochastic transition matrix P[from][to]. */
const TRANSITIONS = [
  [0.99, 0.008, 0.002],
  [0.02, 0.97, 0.01],
  [0.015, 0.035, 0.95],
] as const;

/** Sector residual volatility (annualised) and the sector's beta to the market. */
export const SECTOR_PARAMS: Readonly<Record<string, { vol: number; beta: number }>> = {
  'Information Technology': { vol: 0.12, beta: 1.15 },
  Financials: { vol: 0.11, beta: 1.1 },
  'Health Care': { vol: 0.1, beta: 0.8 },
  'Consumer Discretionary': { vol: 0.11, beta: 1.1 },
  'Consumer Staples': { vol: 0.09, beta: 0.6 },
  Energy: { vol: 0.2, beta: 1.0 },
  Industrials: { vol: 0.08, beta: 1.05 },
  Materials: { vol: 0.11, beta: 1.05 },
  Utilities: { vol: 0.12, beta: 0.5 },
  'Real Estate': { vol: 0.12, beta: 0.9 },
  'Communication Services': { vol: 0.11, beta: 1.05 },
};
const SMALL_CAP_VOL = 0.1;

/** The simulated market up to one date: calendar, regimes and factor returns. */
export interface World {
  seed: number;
  /** Session dates from `HISTORY_START`, oldest first. */
  dates: string[];
  /** 00:00 UTC of each session date (the daily bar `ts`). */
  dayTs: Float64Array;
  /** 09:30 and 16:00 (or 13:00) New York of each session, epoch ms. */
  openTs: Float64Array;
  closeTs: Float64Array;
  /** Index into `REGIMES` per session. */
  regime: Uint8Array;
  /** Close-to-close log returns per factor (`MARKET_FACTOR`, 1 + sector, `SMALL_CAP_FACTOR`). */
  factors: Float64Array[];
  /** Conditional daily volatility of the market factor. */
  marketSigma: Float64Array;
  /** Volume multiplier of the regime per session. */
  regimeVolume: Float64Array;
}

/** Builds the factors for every session from `HISTORY_START` to `lastDate` inclusive. */
export function buildWorld(seed: number, lastDate: string): World {
  const dates = lastDate < HISTORY_START ? [] : tradingDays(HISTORY_START, lastDate);
  const n = dates.length;
  const dayTs = new Float64Array(n);
  const openTs = new Float64Array(n);
  const closeTs = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const session = sessionOpenClose(dates[i]!);
    dayTs[i] = Date.parse(`${dates[i]}T00:00:00Z`);
    openTs[i] = session.open;
    closeTs[i] = session.close;
  }
  const regime = new Uint8Array(n);
  const marketSigma = new Float64Array(n);
  const regimeVolume = new Float64Array(n);
  const factors = Array.from({ length: FACTOR_COUNT }, () => new Float64Array(n));

  const regimeRng = new Rng(seedFor(seed, 'market', 'regime'));
  const marketRng = new Rng(seedFor(seed, 'market', 'returns'));
  const market = new Garch(0.09, 0.89, annual(REGIME_PARAMS[0].vol) ** 2);
  const residuals = SECTORS.map((sector, i) => ({
    rng: new Rng(seedFor(seed, 'sector', i)),
    garch: new Garch(0.07, 0.9, annual(SECTOR_PARAMS[sector]!.vol) ** 2),
    vol: annual(SECTOR_PARAMS[sector]!.vol),
  }));
  residuals.push({
    rng: new Rng(seedFor(seed, 'small-cap')),
    garch: new Garch(0.07, 0.9, annual(SMALL_CAP_VOL) ** 2),
    vol: annual(SMALL_CAP_VOL),
  });

  let state = 0;
  for (let t = 0; t < n; t++) {
    if (t > 0) state = nextRegime(state, regimeRng.uniform());
    const p = REGIME_PARAMS[state]!;
    regime[t] = state;
    regimeVolume[t] = p.volume;
    const shock = market.next(annual(p.vol) ** 2, marketRng.studentT(5));
    marketSigma[t] = market.sigma;
    factors[MARKET_FACTOR]![t] = p.drift + shock;
    for (let k = 0; k < residuals.length; k++) {
      const r = residuals[k]!;
      const target = (r.vol * p.sectorScale) ** 2;
      factors[k + 1]![t] = r.garch.next(target, r.rng.studentT(5));
    }
  }
  return { seed, dates, dayTs, openTs, closeTs, regime, factors, marketSigma, regimeVolume };
}

function nextRegime(from: number, u: number): number {
  const row = TRANSITIONS[from]!;
  let acc = 0;
  for (let to = 0; to < row.length; to++) {
    acc += row[to]!;
    if (u < acc) return to;
  }
  return from;
}
