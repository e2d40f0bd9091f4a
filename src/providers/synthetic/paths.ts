/**
 * @module providers/synthetic/paths
 * One symbol's daily OHLCV path over the world's sessions.
 *
 * Close-to-close log return of session t:
 *
 * ```
 * r_t = α + Σ_f b_f·F_f,t + ε_t + J_t
 * ```
 *
 * factors F from `market.ts` with the profile's loadings b, an idiosyncratic
 * GARCH(1,1) shock ε with Student-t (ν = 4) innovations (Bollerslev 1986;
 * 1987), and an earnings jump J on report days (a t-distributed surprise
 * scaled by the company's typical move). Injected patterns replace r_t on the
 * days they steer (`episodes.ts`).
 *
 * The open is the previous close times an overnight gap: a quarter of the
 * day's diffusive return, its own noise, and the whole earnings jump — about
 * a quarter of daily variance happens overnight for US large caps, most of it
 * on news. High and low add half-normal wicks scaled by the day's volatility.
 *
 * Volume is log-normal around the symbol's average with AR(1) persistence,
 * rises with |r_t|/σ_t (the volume–volatility relation, Karpoff, "The relation
 * between price changes and trading volume: a survey", JFQA 22, 1987), with
 * stressed regimes, on earnings (about 3× that day and 1.8× the next), on
 * closes at 50-session extremes, and by an episode's own volume plan (dry-up
 * in bases, expansion on breakouts).
 *
 * Prices are rounded to cents; every rule keeps 0 < low ≤ min(open, close) ≤
 * max(open, close) ≤ high. A soft floor at $5 and ceiling at $4,000 keep
 * levels realistic over the years.
 */
import type { Ohlcv } from '../../kernels/ohlcv';
import { earningsSessionIndices } from './earnings';
import { PatternInjector } from './episodes';
import type { PatternRecord } from './records';
import { Garch } from './garch';
import { MARKET_FACTOR, SECTOR_PARAMS, SECTORS, type World } from './market';
import type { SymbolProfile } from './profile';
import { Rng, seedFor } from './rng';

/** The path's OHLCV columns, one value per session of the world (the times are the world's `dayTs`). */
export interface DailyPath extends Omit<Ohlcv, 'ts'> {
  patterns: PatternRecord[];
  /** Session indices of earnings reports inside the path. */
  earnings: number[];
}

const FLOOR = Math.log(5);
const CEILING = Math.log(4000);
const BARRIER_DRIFT = 0.003;
const OVERNIGHT_SHARE = 0.25;
const EXTREME_WINDOW = 50;

/** Rounds to cents, never below one cent. */
export function cents(price: number): number {
  return Math.max(0.01, Math.round(price * 100) / 100);
}

/** Simulates `profile` over every session of `world`. */
export function simulateDaily(world: World, profile: SymbolProfile): DailyPath {
  const n = world.dates.length;
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  const rng = new Rng(seedFor(profile.seed, 'daily'));
  const idio = new Garch(0.08, 0.9, profile.idioVol ** 2);
  const injector = profile.hasPatterns ? new PatternInjector(profile.symbol, world.regime, new Rng(seedFor(profile.seed, 'patterns'))) : null;
  const earnings = earningsSessionIndices(profile, n);
  const isEarnings = new Uint8Array(n + 1);
  for (const i of earnings) isEarnings[i] = 1;

  let marketBeta = 0;
  let staticVariance = 0;
  for (const [f, w] of profile.loadings) {
    if (f === MARKET_FACTOR) marketBeta += w;
    else staticVariance += (w * factorVol(f)) ** 2;
  }
  const loadingFactors = profile.loadings.map(([f]) => world.factors[f]!);
  const loadingWeights = profile.loadings.map(([, w]) => w);
  const loadingCount = loadingFactors.length;
  const idioVariance = profile.idioVol ** 2;
  const extremes = new RollingRange(EXTREME_WINDOW);
  let prevClose = profile.startPrice;
  let logClose = Math.log(prevClose);
  let volumeState = 0;

  for (let t = 0; t < n; t++) {
    let factor = 0;
    for (let k = 0; k < loadingCount; k++) factor += loadingWeights[k]! * loadingFactors[k]![t]!;
    const eps = idio.next(idioVariance, rng.studentT(profile.idioNu));
    const sd = Math.sqrt((marketBeta * world.marketSigma[t]!) ** 2 + staticVariance + idio.variance);
    let natural = profile.alpha + factor + eps;
    if (logClose < FLOOR) natural += BARRIER_DRIFT;
    else if (logClose > CEILING) natural -= BARRIER_DRIFT;

    const steering = injector ? injector.steer(t, logClose, natural, factor, eps, sd) : null;
    const diffusive = steering ? steering.ret : natural;
    const jump = isEarnings[t] ? profile.earningsMove * rng.studentT(4) * (steering ? steering.jumpScale : 1) : 0;
    const noise = steering ? steering.noise * sd : sd;
    const gap = OVERNIGHT_SHARE * diffusive + 0.3 * noise * rng.normal() + jump;

    const o = cents(prevClose * Math.exp(gap));
    const c = cents(prevClose * Math.exp(diffusive + jump));
    const wick = 0.5 * noise;
    const h = Math.max(cents(Math.max(o, c) * Math.exp(wick * Math.abs(rng.normal()))), o, c);
    const l = Math.min(cents(Math.min(o, c) * Math.exp(-wick * Math.abs(rng.normal()))), o, c);
    open[t] = o;
    high[t] = h;
    low[t] = l;
    close[t] = c;

    volumeState = 0.75 * volumeState + 0.22 * rng.normal();
    const move = Math.abs(Math.log(c / prevClose)) / sd;
    let v = profile.averageVolume * Math.exp(volumeState - 0.06) * world.regimeVolume[t]! * (0.75 + 0.25 * Math.min(move, 8));
    if (isEarnings[t]) v *= 2.5 + 1.5 * rng.uniform();
    else if (t > 0 && isEarnings[t - 1]) v *= 1.8;
    if (steering) v *= steering.volume;
    else if (t >= EXTREME_WINDOW) v *= c > extremes.max ? 1.35 : c < extremes.min ? 1.2 : 1;
    extremes.push(c);
    volume[t] = Math.max(100, Math.round(v));

    injector?.observe(t, h, l, c, volume[t]!);
    prevClose = c;
    logClose = Math.log(c);
  }
  return { open, high, low, close, volume, patterns: injector ? injector.records : [], earnings };
}

/** Highest and lowest of the last `window` values pushed (monotonic deques, O(1) amortised). */
class RollingRange {
  private readonly values: number[] = [];
  private readonly maxQ: number[] = [];
  private readonly minQ: number[] = [];
  private maxHead = 0;
  private minHead = 0;

  constructor(private readonly window: number) {}

  push(x: number): void {
    const i = this.values.length;
    this.values.push(x);
    const { maxQ, minQ, values } = this;
    while (maxQ.length > this.maxHead && values[maxQ[maxQ.length - 1]!]! <= x) maxQ.pop();
    maxQ.push(i);
    while (minQ.length > this.minHead && values[minQ[minQ.length - 1]!]! >= x) minQ.pop();
    minQ.push(i);
    if (maxQ[this.maxHead]! <= i - this.window) this.maxHead++;
    if (minQ[this.minHead]! <= i - this.window) this.minHead++;
  }

  get max(): number {
    return this.values[this.maxQ[this.maxHead]!]!;
  }

  get min(): number {
    return this.values[this.minQ[this.minHead]!]!;
  }
}

/** Long-run daily volatility of a non-market factor. */
function factorVol(f: number): number {
  const sector = SECTORS[f - 1];
  const annualVol = sector ? SECTOR_PARAMS[sector]!.vol : 0.1;
  return annualVol / Math.sqrt(252);
}
