/**
 * @module kernels/backtest/learn
 * What a fold's strategy learns from its training trades (the candidates
 * that entered in the train window and resolved before the test window: the
 * purged training set), and nothing else:
 *
 * 1. **The minimum score band to trade.** Thresholds from the lowest,
 *    `watchlist` → `strong` → `elite`, each with the training trades at or
 *    above it. A threshold with fewer than `minTrades` trades cannot be
 *    judged: the default `strong` (DESIGN §4's alert threshold) or that
 *    threshold if higher is traded, and the reason says so. A judged
 *    threshold with a positive mean net R is chosen; a non-positive one moves
 *    the threshold up. If every threshold was judged and none was positive,
 *    the fold stands aside (`minBand` null). `ignore` signals are never
 *    traded: the service itself says to ignore them.
 * 2. **Per-pattern hit rates, used as a filter.** For each pattern type with
 *    at least `minTrades` training trades (any band): hit rate h = wins /
 *    trades (a win is a net R > 0) and the break-even hit rate
 *    h* = L / (W + L), W and L the mean winning and mean losing |R| (Tharp's
 *    expectancy h·W − (1 − h)·L is zero at h*; "Trade Your Way to Financial
 *    Freedom", 2nd ed., 2007). A pattern with h ≤ h* is not traded in the test
 *    window (no winners: h* = 1; no losers: h* = 0). Patterns with fewer
 *    trades are traded: there is no evidence against them.
 *
 * `minTrades` defaults to 5: below it one trade decides the sign.
 *
 * @example
 * learnFromTraining(trainingTrades).minBand; // => 'strong'
 */
import type { PatternType, ScoreBand } from '../../domain/signal';

/** The bands a strategy may choose as its floor, lowest first. */
export const BAND_THRESHOLDS = ['watchlist', 'strong', 'elite'] as const satisfies readonly ScoreBand[];
export type BandThreshold = (typeof BAND_THRESHOLDS)[number];
export const DEFAULT_MIN_BAND: BandThreshold = 'watchlist';
export const DEFAULT_MIN_TRADES = 5;

const BAND_RANK: Readonly<Record<ScoreBand, number>> = { ignore: 0, watchlist: 1, strong: 2, elite: 3 };

/** Whether `band` is at or above `floor`. */
export const atOrAbove = (band: ScoreBand, floor: BandThreshold) => BAND_RANK[band] >= BAND_RANK[floor];

export interface TrainingTrade {
  patternType: PatternType;
  band: ScoreBand;
  /** Net R. */
  r: number;
}

export interface ThresholdEvidence {
  band: BandThreshold;
  trades: number;
  meanR: number | null;
}

export interface PatternEvidence {
  trades: number;
  wins: number;
  hitRate: number;
  breakEvenHitRate: number | null;
  /** Traded in the test window. */
  traded: boolean;
}

export interface FoldModel {
  /** Lowest band traded; null: stand aside this fold. */
  minBand: BandThreshold | null;
  minBandReason: string;
  thresholds: ThresholdEvidence[];
  patterns: Partial<Record<PatternType, PatternEvidence>>;
  trainingTrades: number;
}

function mean(values: number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

export function learnFromTraining(trades: readonly TrainingTrade[], minTrades = DEFAULT_MIN_TRADES): FoldModel {
  if (!Number.isInteger(minTrades) || minTrades < 1) throw new RangeError(`learnFromTraining: minTrades must be a positive integer, got ${minTrades}`);
  const thresholds = BAND_THRESHOLDS.map((band): ThresholdEvidence => {
    const rs = trades.filter((t) => atOrAbove(t.band, band)).map((t) => t.r);
    return { band, trades: rs.length, meanR: mean(rs) };
  });
  let minBand: BandThreshold | null = null;
  let minBandReason = '';
  for (const { band, trades: n, meanR } of thresholds) {
    if (n < minTrades) {
      minBand = BAND_RANK[band] > BAND_RANK[DEFAULT_MIN_BAND] ? band : DEFAULT_MIN_BAND;
      minBandReason = `${n} training trade${n === 1 ? '' : 's'} at ${band} or better (fewer than ${minTrades} to judge): ${minBand} by default`;
      break;
    }
    if (meanR! > 0) {
      minBand = band;
      minBandReason = `${n} training trades at ${band} or better averaged ${meanR!.toFixed(3)} R net`;
      break;
    }
  }
  if (minBandReason === '') minBandReason = 'every band threshold lost money net in training: standing aside';

  const byPattern = new Map<PatternType, number[]>();
  for (const t of trades) byPattern.set(t.patternType, [...(byPattern.get(t.patternType) ?? []), t.r]);
  const patterns: Partial<Record<PatternType, PatternEvidence>> = {};
  for (const [type, rs] of [...byPattern].sort(([a], [b]) => a.localeCompare(b))) {
    const wins = rs.filter((r) => r > 0);
    const losses = rs.filter((r) => r < 0).map((r) => -r);
    const hitRate = wins.length / rs.length;
    let breakEvenHitRate: number | null = null;
    if (wins.length === 0) breakEvenHitRate = 1;
    else if (losses.length === 0) breakEvenHitRate = 0;
    else {
      const w = mean(wins)!;
      const l = mean(losses)!;
      breakEvenHitRate = l / (w + l);
    }
    const judged = rs.length >= minTrades;
    patterns[type] = { trades: rs.length, wins: wins.length, hitRate, breakEvenHitRate, traded: !judged || hitRate > breakEvenHitRate };
  }
  return { minBand, minBandReason, thresholds, patterns, trainingTrades: trades.length };
}

/** Whether the fold's model takes a candidate of this band and pattern. */
export function takes(model: FoldModel, candidate: { band: ScoreBand; patternType: PatternType }): boolean {
  if (model.minBand === null || !atOrAbove(candidate.band, model.minBand)) return false;
  return model.patterns[candidate.patternType]?.traded ?? true;
}
