/**
 * @module ledger/record-figures
 * What the record shows for a group of closed trades, with honest intervals:
 * the ledger's hit rate and mean R, the trades' price-label hit rate, and each
 * of the two matched baselines (kernels/baseline-match) with the lift over it,
 * every interval a weekly cluster bootstrap (kernels/stats/cluster-bootstrap;
 * trades entered in the same Monday-based week form one cluster).
 *
 * ```
 * hitRate        = ledger wins ÷ closed trades
 * meanR          = Σ ledger R ÷ closed trades
 * priceHitRate   = trades whose target1 came before the stop (prices only) ÷ trades so labelled
 * baseline hit   = draws that won ÷ resolved draws           (same-day; year-matched)
 * lift           = priceHitRate − baseline hit rate          (percentage points ÷ 100)
 * liftR          = mean price-label R − the draws' mean R
 * ```
 *
 * The trades are first summed per week (one row of `WIDTH` counts a week), so
 * the figures of a group cost one pass over its trades and B × weeks for the
 * bootstrap, and a week's row can be kept up to date as trades close. The
 * seed is fixed: the same record gives the same intervals.
 */
import type { MatchResult } from '../kernels/baseline-match';
import { round } from '../kernels/round';
import { clusterBootstrap, weekOf, type BootstrapInterval } from '../kernels/stats/cluster-bootstrap';

/** A closed, entered trade with its labels and both baselines' draws (kernels/baseline-match `MatchResult`). */
export interface RecordTrade extends MatchResult {
  /** Entry bar time (ISO): its week is its cluster. */
  entryAt: string;
  outcome: string;
  r: number;
}

/** Columns of a week's row. */
const N = 0;
const WINS = 1;
const SUM_R = 2;
const SCRATCHES = 3;
const PRICED = 4;
const PRICE_HITS = 5;
const PRICE_SUM_R = 6;
const BASE_N = 7;
const BASE_HITS = 8;
const BASE_SUM_R = 9;
const SAME_N = 10;
const SAME_HITS = 11;
const SAME_SUM_R = 12;
export const WIDTH = 13;

/** The record's bootstrap: 1,000 resamples, seed 32 (bench/failure-rule and bench/alert-policy ask for 2,000). */
export const RECORD_BOOTSTRAP = { resamples: 1000, seed: 32 } as const;

/** A statistic of a row's totals, starting at column `at` (a paired row holds two groups side by side). */
type Statistic = (t: Float64Array, at: number) => number;

const ratio = (num: number, den: number) => (den > 0 ? num / den : NaN);

/** The statistics by name. */
export const STATISTICS = {
  hitRate: (t, at) => ratio(t[at + WINS]!, t[at + N]!),
  meanR: (t, at) => ratio(t[at + SUM_R]!, t[at + N]!),
  scratchShare: (t, at) => ratio(t[at + SCRATCHES]!, t[at + N]!),
  priceHitRate: (t, at) => ratio(t[at + PRICE_HITS]!, t[at + PRICED]!),
  sameDayLift: (t, at) => ratio(t[at + PRICE_HITS]!, t[at + PRICED]!) - ratio(t[at + SAME_HITS]!, t[at + SAME_N]!),
  sameDayLiftR: (t, at) => ratio(t[at + PRICE_SUM_R]!, t[at + PRICED]!) - ratio(t[at + SAME_SUM_R]!, t[at + SAME_N]!),
  yearMatchedLift: (t, at) => ratio(t[at + PRICE_HITS]!, t[at + PRICED]!) - ratio(t[at + BASE_HITS]!, t[at + BASE_N]!),
  yearMatchedLiftR: (t, at) => ratio(t[at + PRICE_SUM_R]!, t[at + PRICED]!) - ratio(t[at + BASE_SUM_R]!, t[at + BASE_N]!),
  /** Ledger R against the same-day draws (bench/failure-rule: draws held by the same failure rule). */
  sameDayLedgerLiftR: (t, at) => ratio(t[at + SUM_R]!, t[at + N]!) - ratio(t[at + SAME_SUM_R]!, t[at + SAME_N]!),
  sameDayLedgerLift: (t, at) => ratio(t[at + WINS]!, t[at + N]!) - ratio(t[at + SAME_HITS]!, t[at + SAME_N]!),
} satisfies Record<string, Statistic>;

export type StatisticName = keyof typeof STATISTICS;

/** Adds one trade to a week's row at `at`. */
function add(row: Float64Array, at: number, t: RecordTrade): void {
  row[at + N]!++;
  if (t.outcome === 'win') row[at + WINS]!++;
  if (t.outcome === 'scratch') row[at + SCRATCHES]!++;
  row[at + SUM_R]! += t.r;
  if (t.priceHit !== null) {
    row[at + PRICED]!++;
    row[at + PRICE_HITS]! += t.priceHit;
    row[at + PRICE_SUM_R]! += t.priceR ?? 0;
  }
  row[at + BASE_N]! += t.baseN;
  row[at + BASE_HITS]! += t.baseHits;
  row[at + BASE_SUM_R]! += t.baseSumR;
  row[at + SAME_N]! += t.sameN;
  row[at + SAME_HITS]! += t.sameHits;
  row[at + SAME_SUM_R]! += t.sameSumR;
}

/** The weeks' rows of one or more groups side by side (group g at column g × WIDTH), weeks in time order. */
export function weekRows(groups: readonly (readonly RecordTrade[])[]): Float64Array {
  const width = WIDTH * groups.length;
  const rows = new Map<number, Float64Array>();
  groups.forEach((trades, g) => {
    for (const t of trades) {
      const week = weekOf(t.entryAt);
      let row = rows.get(week);
      if (!row) rows.set(week, (row = new Float64Array(width)));
      add(row, g * WIDTH, t);
    }
  });
  const out = new Float64Array(rows.size * width);
  [...rows.keys()].sort((a, b) => a - b).forEach((week, c) => out.set(rows.get(week)!, c * width));
  return out;
}

/** A figure with its 95% interval, rounded; nulls where it is not defined. */
export interface Estimate {
  value: number | null;
  lower: number | null;
  upper: number | null;
}

const fin = (x: number) => (Number.isFinite(x) ? round(x, 4) : null);
const estimate = (b: BootstrapInterval): Estimate => ({ value: fin(b.estimate), lower: fin(b.lower), upper: fin(b.upper) });

/** One baseline beside the group: its draws, their hit rate and mean R, and the lift over them. */
export interface BaselineFigures {
  draws: number;
  hitRate: number | null;
  meanR: number | null;
  lift: Estimate;
  liftR: Estimate;
}

export interface RecordFigures {
  trades: number;
  /** Weeks with a trade: the clusters resampled. */
  weeks: number;
  hitRate: Estimate;
  meanR: Estimate;
  scratchShare: number | null;
  /** Trades labelled by prices (target1 or the stop reached by the data's end). */
  priced: number;
  priceHitRate: Estimate;
  sameDay: BaselineFigures;
  yearMatched: BaselineFigures;
}

const ORDER: StatisticName[] = ['hitRate', 'meanR', 'priceHitRate', 'sameDayLift', 'sameDayLiftR', 'yearMatchedLift', 'yearMatchedLiftR'];

/** The figures of a group of trades (see the module comment). */
export function recordFigures(trades: readonly RecordTrade[], options: { resamples?: number; seed?: number } = {}): RecordFigures {
  const rows = weekRows([trades]);
  const totals = new Float64Array(WIDTH);
  for (let i = 0; i < rows.length; i++) totals[i % WIDTH]! += rows[i]!;
  const b = clusterBootstrap(
    rows,
    WIDTH,
    ORDER.map((name) => (t: Float64Array) => STATISTICS[name](t, 0)),
    { resamples: options.resamples ?? RECORD_BOOTSTRAP.resamples, seed: options.seed ?? RECORD_BOOTSTRAP.seed },
  );
  const [hitRate, meanR, priceHitRate, sameLift, sameLiftR, yearLift, yearLiftR] = b.map(estimate);
  const baseline = (n: number, hits: number, sumR: number, lift: Estimate, liftR: Estimate): BaselineFigures => ({ draws: n, hitRate: fin(ratio(hits, n)), meanR: fin(ratio(sumR, n)), lift, liftR });
  return {
    trades: totals[N]!,
    weeks: rows.length / WIDTH,
    hitRate: hitRate!,
    meanR: meanR!,
    scratchShare: fin(ratio(totals[SCRATCHES]!, totals[N]!)),
    priced: totals[PRICED]!,
    priceHitRate: priceHitRate!,
    sameDay: baseline(totals[SAME_N]!, totals[SAME_HITS]!, totals[SAME_SUM_R]!, sameLift!, sameLiftR!),
    yearMatched: baseline(totals[BASE_N]!, totals[BASE_HITS]!, totals[BASE_SUM_R]!, yearLift!, yearLiftR!),
  };
}

/** `recordFigures` per value of `key`, keys in `order` first (when given), then sorted. */
export function recordFiguresBy<T extends RecordTrade>(trades: readonly T[], key: (t: T) => string, order: readonly string[] = []): Record<string, RecordFigures> {
  const groups = Map.groupBy(trades, key);
  const keys = [...order.filter((k) => groups.has(k)), ...[...groups.keys()].filter((k) => !order.includes(k)).sort()];
  return Object.fromEntries(keys.map((k) => [k, recordFigures(groups.get(k)!)]));
}

/**
 * Statistic `name` of group `b` minus that of group `a`, with the interval of
 * the difference from the same resampled weeks for both (trades of a week
 * stay together across the groups).
 */
export function differenceOf(a: readonly RecordTrade[], b: readonly RecordTrade[], name: StatisticName, options: { resamples?: number; seed?: number } = {}): Estimate {
  const rows = weekRows([a, b]);
  const f = STATISTICS[name];
  const [d] = clusterBootstrap(rows, 2 * WIDTH, [(t) => f(t, WIDTH) - f(t, 0)], { resamples: options.resamples ?? RECORD_BOOTSTRAP.resamples, seed: options.seed ?? RECORD_BOOTSTRAP.seed });
  return estimate(d!);
}

/** A group's statistic `name` with its interval (bench/failure-rule and bench/alert-policy read single figures). */
export function statisticOf(trades: readonly RecordTrade[], name: StatisticName, options: { resamples?: number; seed?: number } = {}): Estimate {
  const [d] = clusterBootstrap(weekRows([trades]), WIDTH, [(t) => STATISTICS[name](t, 0)], { resamples: options.resamples ?? RECORD_BOOTSTRAP.resamples, seed: options.seed ?? RECORD_BOOTSTRAP.seed });
  return estimate(d!);
}
