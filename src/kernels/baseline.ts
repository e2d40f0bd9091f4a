/**
 * @module kernels/baseline
 * The matched random baseline of a signal's track record: the same entry,
 * stop and target geometry applied at random entries that share the signal's
 * universe, period, direction and volatility bucket. A signal's edge is its
 * hit rate (or R) minus the baseline's; in a rising market a raw long hit rate
 * proves nothing.
 *
 * - Geometry: the stop and target1 as fractions of the entry price
 *   (`stopFrac = |entry − stop| / entry`, `targetFrac = |target1 − entry| / entry`),
 *   re-applied at a random bar's close: a long from close c has its stop at
 *   c(1 − stopFrac) and target at c(1 + targetFrac); a short the mirror.
 * - Volatility: Wilder's ATR(14) over the close, in percent (`atrPercent`),
 *   bucketed by cut points (`bucketOf`, e.g. the quintiles of the signals'
 *   own values).
 * - Resolution: kernels/outcome from the bar after the entry, prices only (no
 *   lifecycle, so never a scratch): `win` when target1 is reached before the
 *   stop, `loss` when the stop is (a bar reaching both counts as the stop),
 *   `open` when the data ends first.
 * - Matching: `sampleMatches` draws `k` candidates with the key of the trade
 *   (with replacement, seeded, so a run is reproducible). kernels/baseline-same-day
 *   draws from the entry date's cross-section instead (kernels/baseline-match
 *   runs both).
 * - Managed resolution (`resolveManagedAt`, for judging a lifecycle failure
 *   rule): the same entry held as the ledger holds a triggered trade — a close
 *   through the failure level (`failFrac` of the entry on the wrong side) exits
 *   at that close as a scratch, checked before the bar's stop or target (the
 *   lifecycle records the failure before the outcome job reads the bar).
 *
 * @example
 * const g = geometryOf('long', 100, 95, 110); // => { direction: 'long', stopFrac: 0.05, targetFrac: 0.1 }
 * resolveAt(g, bars, 40); // => { outcome: 'win', rMultiple: 2, … } for a series that rises 10% before it falls 5%
 */
import type { Direction } from '../domain/signal';
import { atr1d } from './indicators/atr';
import type { Ohlcv } from './ohlcv';
import { resolveOutcome, type OutcomeResult } from './outcome';

export interface Geometry {
  direction: Direction;
  stopFrac: number;
  targetFrac: number;
}

/** The geometry of a trade entered at `entry` with `stopLoss` and `target1`; null when a level is not on its side of the entry. */
export function geometryOf(direction: Direction, entry: number, stopLoss: number, target1: number): Geometry | null {
  const sign = direction === 'long' ? 1 : -1;
  const stopFrac = (sign * (entry - stopLoss)) / entry;
  const targetFrac = (sign * (target1 - entry)) / entry;
  return stopFrac > 0 && targetFrac > 0 && Number.isFinite(stopFrac) && Number.isFinite(targetFrac) ? { direction, stopFrac, targetFrac } : null;
}

/** The geometry entered at bar `index`'s close and resolved, prices only, through the last bar (see the module comment). */
export function resolveAt(g: Geometry, bars: Ohlcv, index: number): OutcomeResult {
  const entry = bars.close[index]!;
  const sign = g.direction === 'long' ? 1 : -1;
  return resolveOutcome(
    { direction: g.direction, entry, stopLoss: entry * (1 - sign * g.stopFrac), target1: entry * (1 + sign * g.targetFrac), detectedIndex: index },
    bars,
    bars.close.length - 1,
  );
}

/**
 * The geometry entered at bar `index`'s close and held as the ledger holds a
 * triggered trade under a failure rule (see the module comment): a scratch at
 * the first close through entry × (1 ∓ `failFrac`), unless the stop or target
 * was reached on an earlier bar; `failFrac` null: prices only (`resolveAt`).
 */
export function resolveManagedAt(g: Geometry, bars: Ohlcv, index: number, failFrac: number | null): OutcomeResult {
  if (failFrac === null) return resolveAt(g, bars, index);
  const entry = bars.close[index]!;
  const sign = g.direction === 'long' ? 1 : -1;
  const level = entry * (1 - sign * failFrac);
  const last = bars.close.length - 1;
  let failAt = -1;
  for (let j = index + 1; j <= last; j++) {
    if (sign * (bars.close[j]! - level) < 0) {
      failAt = j;
      break;
    }
  }
  const signal = { direction: g.direction, entry, stopLoss: entry * (1 - sign * g.stopFrac), target1: entry * (1 + sign * g.targetFrac), detectedIndex: index };
  if (failAt < 0) return resolveOutcome(signal, bars, last);
  const before = resolveOutcome(signal, bars, failAt - 1);
  return before.outcome === 'open' ? resolveOutcome({ ...signal, state: 'failed', stateIndex: failAt }, bars, failAt) : before;
}

/** ATR(14) (Wilder) as a percent of the close at every bar; NaN before the first ATR value. */
export function atrPercent(bars: Ohlcv): Float64Array {
  const out = new Float64Array(bars.close.length);
  atr1d(bars.high, bars.low, bars.close, out);
  for (let i = 0; i < out.length; i++) out[i] = (100 * out[i]!) / bars.close[i]!;
  return out;
}

/** The bucket of `value` among ascending `cuts`: 0 below the first cut, `cuts.length` at or above the last; −1 for NaN. */
export function bucketOf(value: number, cuts: readonly number[]): number {
  if (!Number.isFinite(value)) return -1;
  let b = 0;
  while (b < cuts.length && value >= cuts[b]!) b++;
  return b;
}

/** The `q` quantiles (e.g. [0.2, 0.4, 0.6, 0.8]) of `values`, by the nearest-rank rule on the sorted finite values. */
export function quantileCuts(values: ArrayLike<number>, q: readonly number[]): number[] {
  const sorted = Array.from(values).filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  return q.map((p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!);
}

/** `k` draws (with replacement) from the candidates filed under `key`; none when there are none. */
export function sampleMatches<T>(candidates: ReadonlyMap<string, readonly T[]>, key: string, k: number, random: () => number): T[] {
  const pool = candidates.get(key);
  if (!pool || pool.length === 0) return [];
  return Array.from({ length: k }, () => pool[Math.floor(random() * pool.length)]!);
}
