/**
 * @module kernels/baseline-same-day
 * The same-day matched baseline: a trade entered at the close of date d is
 * set beside random entries at the close of the same date d, in other members
 * of the index that day, in the same ATR(14)% quintile of that day's
 * cross-section, with the trade's own direction and its stop and target1
 * distances as fractions of the entry (kernels/baseline `Geometry`). The
 * year-matched baseline (kernels/baseline) draws from the whole calendar year,
 * so a trade taken in a sell-off is compared with entries from the year's
 * calm months too: it credits market timing as edge. Drawn on the same day,
 * the market's move is in both, and only the choice of stock is judged.
 *
 * - Cross-section of a date: every member with a bar on that date and a
 *   finite ATR(14)% there (Wilder's ATR over bars up to that bar only:
 *   nothing after the entry date is read to match).
 * - Quintile: the 20/40/60/80% cut points of that day's ATR% values (the
 *   nearest-rank rule, kernels/baseline `quantileCuts`); the trade's own ATR%
 *   is bucketed by the same cuts.
 * - Draws: `k` with replacement from the same-bucket members other than the
 *   trade's symbol, from the caller's seeded generator (kernels/random), so a
 *   seed names the same draws on every run. A day with no other member in the
 *   bucket gives no draws.
 *
 * @example
 * const day = crossSection([{ column: 0, bar: 10, atrPct: 1.2 }, { column: 1, bar: 12, atrPct: 1.3 }, …]);
 * sampleSameDay(day, 0, 1.2, 5, seededRandom(7)); // => 5 members of day (not column 0) in 1.2's quintile
 */
import { bucketOf, quantileCuts } from './baseline';

/** One member on one date: its column (the caller's symbol index), its bar index on that date, its ATR(14)% there. */
export interface DayMember {
  column: number;
  bar: number;
  atrPct: number;
}

/** A date's cross-section: the members, the day's quintile cuts and each member's bucket. */
export interface CrossSection {
  members: readonly DayMember[];
  cuts: number[];
  /** Per bucket (0..4), the indices into `members`. */
  byBucket: number[][];
}

const QUINTILES = [0.2, 0.4, 0.6, 0.8] as const;

/** The cross-section of one date from its members (those without a finite ATR% are left out). */
export function crossSection(members: readonly DayMember[]): CrossSection {
  const kept = members.filter((m) => Number.isFinite(m.atrPct));
  const cuts = quantileCuts(
    kept.map((m) => m.atrPct),
    QUINTILES,
  );
  const byBucket: number[][] = Array.from({ length: QUINTILES.length + 1 }, () => []);
  kept.forEach((m, i) => byBucket[bucketOf(m.atrPct, cuts)]!.push(i));
  return { members: kept, cuts, byBucket };
}

/**
 * `k` draws (with replacement) from the members of `day` in the bucket of
 * `atrPct`, other than `column`; none when the trade's ATR% is not finite or
 * no other member shares its bucket.
 */
export function sampleSameDay(day: CrossSection, column: number, atrPct: number, k: number, random: () => number): DayMember[] {
  const bucket = bucketOf(atrPct, day.cuts);
  if (bucket < 0) return [];
  const pool = day.byBucket[bucket]!.filter((i) => day.members[i]!.column !== column);
  if (pool.length === 0) return [];
  return Array.from({ length: k }, () => day.members[pool[Math.floor(random() * pool.length)]!]!);
}
