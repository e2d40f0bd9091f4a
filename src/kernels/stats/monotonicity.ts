/**
 * @module kernels/stats/monotonicity
 * "Do higher score bands really do better?" as numbers and one plain-English
 * sentence built only from them, for the scorecard.
 *
 * Bands come ordered low → high with their closed trades, mean R and hit rate.
 * Bands with fewer than `minTrades` trades are left out (and named). Over the
 * rest:
 *
 * - Spearman's ρ between band order and mean R, and between band order and hit
 *   rate (Spearman 1904; see `rank.ts`). With three or four bands ρ moves in
 *   big steps and is no test: ρ = 1 says only that every step went up.
 * - Each adjacent pair: the differences, and whether their intervals for the
 *   hit rate overlap: each band's own `hitRateInterval` when it brings one (the
 *   scorecard's are weekly-clustered, kernels/stats/clustered; an unknown bound
 *   counts as 0 or 1), else Wilson's (Wilson 1927; see `proportion.ts`), which
 *   treats trades as independent and is too narrow for trades that share a week. Apart intervals are
 *   a conservative sign of a real difference; overlapping ones do not prove there
 *   is none (Schenker & Gentleman, "On judging the significance of differences by
 *   examining the overlap between confidence intervals", The American
 *   Statistician 55(3), 2001, 182–186), which is why the sentence says a
 *   difference is "not clearly real yet", never that the bands are the same.
 * - A verdict: `rising` when mean R goes up at every step, `falling` when it goes
 *   down at every step, `mixed` otherwise, `insufficient` under two bands.
 *
 * The 20-trade default floor is our choice: below it a band's mean R is mostly
 * one or two big winners.
 *
 * @example
 * scoreBandMonotonicity([
 *   { band: 'watchlist', trades: 40, meanR: 0.12, hitRate: 0.4 },
 *   { band: 'strong', trades: 52, meanR: 0.35, hitRate: 0.5 },
 *   { band: 'elite', trades: 25, meanR: 0.61, hitRate: 0.6 },
 * ]).verdict; // => 'rising'
 */
import { round } from '../round';
import { intervalsOverlap, wilsonInterval, type ProportionInterval } from './proportion';
import { spearman } from './rank';

export interface BandResult {
  band: string;
  /** Closed trades (win, loss, scratch) in the band. */
  trades: number;
  meanR: number;
  /** Wins / trades, in [0, 1]. */
  hitRate: number;
  /** The hit rate's interval when the caller has an honest one (null bounds: unknown); else Wilson's is used. */
  hitRateInterval?: { lower: number | null; upper: number | null };
}

export interface MonotonicityOptions {
  /** Bands with fewer closed trades are left out. Default 20. */
  minTrades?: number;
  /** Two-sided confidence of the hit-rate intervals. Default 0.95. */
  confidence?: number;
}

export interface BandStep {
  lower: string;
  higher: string;
  /** higher − lower */
  meanRDelta: number;
  hitRateDelta: number;
  lowerHitRate: ProportionInterval;
  higherHitRate: ProportionInterval;
  hitRateIntervalsOverlap: boolean;
}

export type MonotonicityVerdict = 'rising' | 'falling' | 'mixed' | 'insufficient';

export interface Monotonicity {
  minTrades: number;
  confidence: number;
  bandsUsed: string[];
  bandsExcluded: { band: string; trades: number }[];
  /** Spearman ρ of band order against mean R over the bands used; `NaN` under two bands or when all are equal. */
  meanRRho: number;
  hitRateRho: number;
  /** Adjacent pairs of bands used, low → high. */
  steps: BandStep[];
  verdict: MonotonicityVerdict;
  sentence: string;
}

function checkOptions(bands: readonly BandResult[], minTrades: number, confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`scoreBandMonotonicity: confidence must be in (0, 1), got ${confidence}`);
  if (!Number.isInteger(minTrades) || minTrades < 1) throw new RangeError(`scoreBandMonotonicity: minTrades must be a positive integer, got ${minTrades}`);
  for (const b of bands) {
    if (!Number.isInteger(b.trades) || b.trades < 0) throw new RangeError(`scoreBandMonotonicity: ${b.band} trades must be a non-negative integer, got ${b.trades}`);
    if (b.trades === 0) continue;
    if (!Number.isFinite(b.meanR)) throw new RangeError(`scoreBandMonotonicity: ${b.band} meanR is not finite`);
    if (!(b.hitRate >= 0 && b.hitRate <= 1)) throw new RangeError(`scoreBandMonotonicity: ${b.band} hitRate must be in [0, 1], got ${b.hitRate}`);
  }
}

const r2 = (x: number) => round(x, 2).toFixed(2);
const pct = (x: number) => `${round(100 * x, 0)}%`;

function sentenceFor(m: Omit<Monotonicity, 'sentence'>, used: readonly BandResult[], intervals: readonly ProportionInterval[]): string {
  const level = `${round(100 * m.confidence, 1)}%`;
  const left = m.bandsExcluded.length
    ? ` Left out for fewer than ${m.minTrades} trades: ${m.bandsExcluded.map((b) => `${b.band} (${b.trades})`).join(', ')}.`
    : '';
  if (m.verdict === 'insufficient') {
    const have = used.length ? `only ${used[0]!.band} (${used[0]!.trades}) has` : 'no band has';
    return `Too few trades to tell whether higher score bands do better: ${have} at least ${m.minTrades} closed trades.${left}`;
  }
  const trend = { rising: 'rises with every step up', falling: 'falls with every step up', mixed: 'does not rise with every step up' }[m.verdict];
  const rho = Number.isNaN(m.meanRRho) ? 'undefined (all equal)' : `= ${r2(m.meanRRho)}`;
  const list = used.map((b) => `${b.band} ${r2(b.meanR)}R on ${b.trades}`).join(', ');
  const first = `Mean R ${trend} in score band (Spearman ρ ${rho} across ${used.length} bands with at least ${m.minTrades} trades: ${list}).`;
  const rateList = used.map((b, i) => `${b.band} ${pct(b.hitRate)} (${pct(intervals[i]!.lower)}–${pct(intervals[i]!.upper)})`).join(', ');
  const pair = (s: BandStep) => `${s.lower}/${s.higher}`;
  const overlapping = m.steps.filter((s) => s.hitRateIntervalsOverlap);
  const apart = m.steps.filter((s) => !s.hitRateIntervalsOverlap);
  const notYet = (n: number) => `so ${n === 1 ? 'that difference is' : 'those differences are'} not clearly real yet`;
  const second =
    ` Hit rates with ${level} intervals: ${rateList}; ` +
    (apart.length === 0
      ? `the intervals overlap at every step, ${notYet(overlapping.length)}.`
      : overlapping.length === 0
        ? 'the intervals are apart at every step.'
        : `the intervals are apart for ${apart.map(pair).join(', ')} and overlap for ${overlapping.map(pair).join(', ')}, ${notYet(overlapping.length)}.`);
  return `${first}${second}${left}`;
}

/**
 * The monotonicity statement for bands ordered low → high.
 * @throws {RangeError} a band with a negative or fractional trade count, or (with trades) a
 * non-finite mean R or a hit rate outside [0, 1]; minTrades not a positive integer;
 * confidence outside (0, 1).
 */
export function scoreBandMonotonicity(bands: readonly BandResult[], options: MonotonicityOptions = {}): Monotonicity {
  const minTrades = options.minTrades ?? 20;
  const confidence = options.confidence ?? 0.95;
  checkOptions(bands, minTrades, confidence);
  const used = bands.filter((b) => b.trades >= minTrades);
  const bandsExcluded = bands.filter((b) => b.trades < minTrades).map((b) => ({ band: b.band, trades: b.trades }));
  // Hit rate × trades is a whole number of wins up to the rounding of the rate.
  const intervals = used.map((b): ProportionInterval => {
    const wilson = wilsonInterval(Math.round(b.hitRate * b.trades), b.trades, confidence);
    return b.hitRateInterval ? { ...wilson, estimate: b.hitRate, lower: b.hitRateInterval.lower ?? 0, upper: b.hitRateInterval.upper ?? 1 } : wilson;
  });
  const steps: BandStep[] = [];
  for (let i = 1; i < used.length; i++) {
    const lo = used[i - 1]!;
    const hi = used[i]!;
    steps.push({
      lower: lo.band,
      higher: hi.band,
      meanRDelta: hi.meanR - lo.meanR,
      hitRateDelta: hi.hitRate - lo.hitRate,
      lowerHitRate: intervals[i - 1]!,
      higherHitRate: intervals[i]!,
      hitRateIntervalsOverlap: intervalsOverlap(intervals[i - 1]!, intervals[i]!),
    });
  }
  const order = used.map((_, i) => i);
  const verdict: MonotonicityVerdict =
    used.length < 2 ? 'insufficient' : steps.every((s) => s.meanRDelta > 0) ? 'rising' : steps.every((s) => s.meanRDelta < 0) ? 'falling' : 'mixed';
  const result = {
    minTrades,
    confidence,
    bandsUsed: used.map((b) => b.band),
    bandsExcluded,
    meanRRho: spearman(order, used.map((b) => b.meanR)),
    hitRateRho: spearman(order, used.map((b) => b.hitRate)),
    steps,
    verdict,
  };
  return { ...result, sentence: sentenceFor(result, used, intervals) };
}
