/**
 * @module providers/synthetic/profile
 * The fixed character of one synthetic symbol, derived from (seed, symbol)
 * alone: its factor loadings (a multi-factor model in the spirit of Sharpe's
 * single-index model, "A simplified model for portfolio analysis", Management
 * Science 9, 1963, extended with a sector factor), idiosyncratic volatility,
 * drift, starting price, typical volume and earnings sensitivity.
 *
 * Benchmarks follow their construction: SPY is the market factor, QQQ the
 * market tilted to technology and communication services, IWM the market at
 * a higher beta plus a small-cap factor; each SPDR sector fund is its sector's
 * beta to the market plus the sector factor with a small tracking error.
 */
import type { Instrument } from '../types';
import { MARKET_FACTOR, SECTOR_PARAMS, SECTORS, SMALL_CAP_FACTOR } from './market';
import { Rng, seedFor } from './rng';

/** (factor index, loading) pairs; the factor part of a return is Σ loading × factor. */
export type Loadings = ReadonlyArray<readonly [number, number]>;

export interface SymbolProfile {
  symbol: string;
  kind: Instrument['kind'];
  /** Index into `SECTORS`, or −1 for broad funds. */
  sectorIndex: number;
  /** Seed of every stream of this symbol. */
  seed: number;
  loadings: Loadings;
  /** Long-run daily volatility of the idiosyncratic part. */
  idioVol: number;
  /** Student-t degrees of freedom of the idiosyncratic shocks. */
  idioNu: number;
  /** Daily drift on top of the factors. */
  alpha: number;
  startPrice: number;
  /** Mean daily share volume. */
  averageVolume: number;
  /** Reports earnings (stocks only). */
  hasEarnings: boolean;
  /** Typical absolute log move on an earnings day. */
  earningsMove: number;
  /** Can carry injected chart patterns (stocks only). */
  hasPatterns: boolean;
}

const daily = (annualVol: number) => annualVol / Math.sqrt(252);
const sector = (name: string) => 1 + SECTORS.indexOf(name);

/** Benchmarks with a hand-set construction, price and volume near their 2019 levels. */
const BENCHMARKS: Readonly<Record<string, { loadings: Loadings; idio: number; price: number; volume: number }>> = {
  SPY: { loadings: [[MARKET_FACTOR, 1]], idio: 0.01, price: 250, volume: 75e6 },
  QQQ: {
    loadings: [
      [MARKET_FACTOR, 1.1],
      [sector('Information Technology'), 0.6],
      [sector('Communication Services'), 0.25],
      [sector('Consumer Discretionary'), 0.15],
    ],
    idio: 0.03,
    price: 155,
    volume: 45e6,
  },
  IWM: {
    loadings: [
      [MARKET_FACTOR, 1.2],
      [SMALL_CAP_FACTOR, 1],
    ],
    idio: 0.03,
    price: 135,
    volume: 28e6,
  },
};

/** The profile of `instrument` under `seed`; a pure function of both. */
export function symbolProfile(seed: number, instrument: Instrument): SymbolProfile {
  const { symbol, kind } = instrument;
  const symbolSeed = seedFor(seed, symbol);
  const rng = new Rng(seedFor(symbolSeed, 'profile'));
  const sectorIndex = instrument.sector === null ? -1 : SECTORS.indexOf(instrument.sector);
  const sectorBeta = sectorIndex >= 0 ? SECTOR_PARAMS[SECTORS[sectorIndex]!]!.beta : 1;
  const base = { symbol, kind, sectorIndex, seed: symbolSeed, idioNu: 4 };

  const benchmark = BENCHMARKS[symbol];
  if (benchmark) {
    return {
      ...base,
      loadings: benchmark.loadings,
      idioVol: daily(benchmark.idio),
      alpha: 0,
      startPrice: benchmark.price,
      averageVolume: benchmark.volume,
      hasEarnings: false,
      earningsMove: 0,
      hasPatterns: false,
    };
  }
  if (kind !== 'stock') {
    // A sector fund, or any other fund: its sector's market beta plus the sector factor.
    const loadings: Loadings =
      sectorIndex >= 0
        ? [
            [MARKET_FACTOR, sectorBeta],
            [1 + sectorIndex, 1],
          ]
        : [[MARKET_FACTOR, 1]];
    return {
      ...base,
      loadings,
      idioVol: daily(0.02),
      alpha: 0,
      startPrice: Math.round(rng.logRange(30, 110) * 100) / 100,
      averageVolume: Math.round(rng.logRange(4e6, 25e6)),
      hasEarnings: false,
      earningsMove: 0,
      hasPatterns: false,
    };
  }
  const beta = sectorBeta * rng.logRange(0.7, 1.35);
  const sectorLoading = rng.range(0.6, 1.3);
  const loadings: Loadings =
    sectorIndex >= 0
      ? [
          [MARKET_FACTOR, beta],
          [1 + sectorIndex, sectorLoading],
        ]
      : [[MARKET_FACTOR, beta]];
  const startPrice = Math.round(rng.logRange(20, 500) * 100) / 100;
  // Dollar volume is what ties to company size; shares follow from the price.
  const dollarVolume = rng.logRange(5e7, 3e9);
  return {
    ...base,
    loadings,
    idioVol: daily(rng.logRange(0.15, 0.38)),
    // Annual drift beyond the factors ~ N(2 %, 8 %): some names trend, some lag.
    alpha: (0.02 + 0.08 * rng.normal()) / 252,
    startPrice,
    averageVolume: Math.max(2e5, Math.round(dollarVolume / startPrice)),
    hasEarnings: true,
    earningsMove: rng.logRange(0.025, 0.07),
    hasPatterns: true,
  };
}
