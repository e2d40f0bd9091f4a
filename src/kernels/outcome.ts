/**
 * @module kernels/outcome
 * A signal's outcome for the ledger (DESIGN §4), resolved from the bars after
 * its detection as of a given bar. The product owner's rules:
 *
 * ```
 * win      target1 is reached before the stop
 * loss     the stop is reached first; a bar that reaches both counts as the stop
 * scratch  the lifecycle failed or expired: exit at the close of that bar
 * open     none of these yet: marked to market at the close of the `asOf` bar
 * ```
 *
 * Only bars `detectedIndex + 1 … asOf` are read (the detection bar's `ts` is
 * the one exception, for `daysHeld`), so an outcome as of a past bar never
 * sees a later one.
 *
 * Fills (our rule, the way resting stop and limit orders fill): a stop or
 * target is filled at its level, unless the bar opens already beyond it (a
 * gap), when it is filled at the open. A gap through the stop loses more than
 * 1R; a gap through the target wins more than planned.
 *
 * ```
 * R          = (exit − entry) / (entry − stop)        longs
 *            = (entry − exit) / (stop − entry)        shorts
 * mfeR, maeR = the largest move for / against the position from entry, over
 *              the bars held, in R (≥ 0; maeR = 1 means it touched the stop)
 * mfePct, …  = the same moves in percent of entry
 * ```
 *
 * Excursions read highs and lows (Sweeney, "Maximum Adverse Excursion", Wiley
 * 1997, ch. 2). On a bar that exits at the stop or target the order of prices
 * inside the bar is unknown, so it is read conservatively: the favourable side
 * counts only prices surely seen while held (the open and a target fill), the
 * adverse side the bar's whole range up to a stop fill. A fill at the open
 * counts the open only. A scratch or open position held the whole of its last
 * bar, so that bar counts in full.
 *
 * The `state` is authoritative for scratches: a failed or expired signal is a
 * scratch even if an earlier bar touched its stop or target (the lifecycle
 * does not watch them before confirmation), so the ledger agrees with the
 * lifecycle's terminal state. Other states are resolved from prices alone.
 *
 * @example
 * // long from 100, stop 95, target 110; the second bar after detection reaches 110
 * resolveOutcome({ direction: 'long', entry: 100, target1: 110, stopLoss: 95, detectedIndex: 0 }, bars, 5);
 * // => { outcome: 'win', exitPrice: 110, exitIndex: 2, rMultiple: 2, … }
 */
import type { Ohlcv } from './ohlcv';
import type { Direction } from '../domain/signal';

export const OUTCOMES = ['open', 'win', 'loss', 'scratch'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Lifecycle states that end a signal as a scratch. */
export const SCRATCH_STATES: ReadonlySet<string> = new Set(['failed', 'expired']);

export interface OutcomeSignal {
  direction: Direction;
  /** The price R is measured from: the price at detection, or the trigger. */
  entry: number;
  target1: number;
  stopLoss: number;
  /** Index of the detection bar; resolution starts at the bar after it. */
  detectedIndex: number;
  /** The lifecycle state if known; `failed` and `expired` make a scratch. */
  state?: string;
  /** Index of the bar on which the lifecycle reached `state` (the scratch's exit bar). Default `asOf`. */
  stateIndex?: number;
}

export interface OutcomeResult {
  outcome: Outcome;
  /** The fill, the scratch close, or (open) the mark: the `asOf` close, or `entry` before any bar. */
  exitPrice: number;
  exitIndex: number;
  rMultiple: number;
  mfeR: number;
  maeR: number;
  mfePct: number;
  maePct: number;
  /** Bars from detection to exit (or `asOf`): `exitIndex − detectedIndex`. */
  barsHeld: number;
  /** UTC calendar days between the detection bar and the exit bar (Friday → Monday is 3). */
  daysHeld: number;
}

const DAY_MS = 86_400_000;

function checkSignal(s: OutcomeSignal): void {
  if (s.direction !== 'long' && s.direction !== 'short') throw new RangeError(`outcome: direction must be 'long' or 'short', got ${String(s.direction)}`);
  for (const key of ['entry', 'target1', 'stopLoss'] as const) {
    if (!Number.isFinite(s[key]) || s[key] <= 0) throw new RangeError(`outcome: ${key} must be a positive finite price, got ${s[key]}`);
  }
  const long = s.direction === 'long';
  if (long ? s.stopLoss >= s.entry : s.stopLoss <= s.entry) {
    throw new RangeError(`outcome: a ${s.direction}'s stop must be ${long ? 'below' : 'above'} entry, got stop ${s.stopLoss}, entry ${s.entry}`);
  }
  if (long ? s.target1 <= s.entry : s.target1 >= s.entry) {
    throw new RangeError(`outcome: a ${s.direction}'s target1 must be ${long ? 'above' : 'below'} entry, got target1 ${s.target1}, entry ${s.entry}`);
  }
}

function checkIndex(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`outcome: ${name} must be an integer in [${min}, ${max}], got ${value}`);
}

/**
 * Resolves `signal` over `bars` as of bar `asOf`.
 *
 * @throws {RangeError} a stop or target on the wrong side of entry, a
 * non-finite or non-positive price, an index outside the bars or out of order
 * (`detectedIndex ≤ asOf`, `detectedIndex < stateIndex ≤ asOf`), or a
 * non-finite open/high/low/close on a bar it reads.
 */
export function resolveOutcome(signal: OutcomeSignal, bars: Ohlcv, asOf: number): OutcomeResult {
  checkSignal(signal);
  const { ts, open, high, low, close } = bars;
  const n = close.length;
  if (ts.length !== n || open.length !== n || high.length !== n || low.length !== n) throw new RangeError('outcome: bar columns differ in length');
  const { entry, target1, stopLoss, detectedIndex } = signal;
  checkIndex('detectedIndex', detectedIndex, 0, n - 1);
  checkIndex('asOf', asOf, detectedIndex, n - 1);
  const scratch = signal.state !== undefined && SCRATCH_STATES.has(signal.state);
  const lastIndex = scratch ? (signal.stateIndex ?? asOf) : asOf;
  if (scratch) checkIndex('stateIndex', lastIndex, detectedIndex + 1, asOf);

  const long = signal.direction === 'long';
  const sign = long ? 1 : -1;
  const risk = Math.abs(entry - stopLoss);
  // Excursions in price units, positive in the named direction, from entry.
  let favourable = 0;
  let adverse = 0;
  const seeFavourable = (price: number) => (favourable = Math.max(favourable, sign * (price - entry)));
  const seeAdverse = (price: number) => (adverse = Math.max(adverse, sign * (entry - price)));

  const result = (outcome: Outcome, exitPrice: number, exitIndex: number): OutcomeResult => ({
    outcome,
    exitPrice,
    exitIndex,
    rMultiple: (sign * (exitPrice - entry)) / risk,
    mfeR: favourable / risk,
    maeR: adverse / risk,
    mfePct: (100 * favourable) / entry,
    maePct: (100 * adverse) / entry,
    barsHeld: exitIndex - detectedIndex,
    daysHeld: Math.floor(ts[exitIndex]! / DAY_MS) - Math.floor(ts[detectedIndex]! / DAY_MS),
  });

  for (let i = detectedIndex + 1; i <= lastIndex; i++) {
    const o = open[i]!;
    const h = high[i]!;
    const l = low[i]!;
    const c = close[i]!;
    if (!Number.isFinite(o) || !Number.isFinite(h) || !Number.isFinite(l) || !Number.isFinite(c)) {
      throw new RangeError(`outcome: bar ${i} has a non-finite open, high, low or close`);
    }
    const bestPrice = long ? h : l;
    const worstPrice = long ? l : h;
    if (!scratch) {
      const stopGapped = long ? o <= stopLoss : o >= stopLoss;
      const stopHit = long ? l <= stopLoss : h >= stopLoss;
      if (stopHit) {
        const fill = stopGapped ? o : stopLoss;
        seeFavourable(o);
        seeAdverse(fill);
        return result('loss', fill, i);
      }
      const targetGapped = long ? o >= target1 : o <= target1;
      const targetHit = long ? h >= target1 : l <= target1;
      if (targetHit) {
        const fill = targetGapped ? o : target1;
        seeFavourable(fill);
        seeAdverse(targetGapped ? o : worstPrice);
        return result('win', fill, i);
      }
    }
    seeFavourable(bestPrice);
    seeAdverse(worstPrice);
  }

  if (scratch) return result('scratch', close[lastIndex]!, lastIndex);
  return result('open', asOf > detectedIndex ? close[asOf]! : entry, asOf);
}
