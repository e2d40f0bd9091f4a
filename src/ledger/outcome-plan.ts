/**
 * @module ledger/outcome-plan
 * How a ledger signal is entered and what its outcome record says (the rules
 * the outcome job and the replay both apply, so a replayed signal resolves
 * exactly as a live one). Entry, our rule, so the track record only counts
 * what a follower could have done after reading the signal:
 *
 * - a signal surfaced `triggered` or `confirmed` is entered at the close of the
 *   bar it was surfaced on (`priceAtDetection`), resolution from the next bar;
 * - one surfaced `forming` is entered when its lifecycle records `triggered`,
 *   at that bar's close; if it fails or expires before, it is a scratch that
 *   was never entered (R 0).
 *
 * A `failed` or `expired` state after entry makes a scratch at that bar's
 * close (kernels/outcome resolves the rest from prices).
 *
 * An entry that is not strictly between the record's stop and target1 (a long
 * entered at or above its target or at or below its stop; a record without a
 * stop) left no trade to take: the setup had already ended when a follower
 * could act. Such a record resolves at once as a scratch that was never
 * entered, at its entry price and time, R 0, with a note naming the level it
 * had passed. It counts in no hit rate or R figure (as a forming signal that
 * expired before its trigger), and is neither a win credited with a move no
 * follower could take nor a loss never risked. Issue 14 found 61 such records
 * in a replay of 2022–24 (signals surfaced `triggered`/`confirmed` with the
 * close already past target1); the scan no longer surfaces them (kernels/scan
 * `stillATrade`), but a forming signal can still trigger on a close past its
 * target, and ledgers written before keep theirs: the outcome is appended the
 * same way, never touching the record itself.
 */
import type { BreakoutState, OutcomeItem, SignalRecord } from '../domain/signal';
import { insideLevels } from '../kernels/levels';
import type { OutcomeResult } from '../kernels/outcome';
import { round } from '../kernels/round';

/** A recorded state change of a signal: where it went, at what price, when (ISO). */
export interface StateEvent {
  to: BreakoutState;
  price: number;
  at: string;
}

/** A signal resolved without a trade: never entered, at `at` (ISO), at `price` (R 0), `note` saying why. */
export interface NotEntered {
  at: string;
  price: number;
  note: string;
}

/** An item for kernels/outcome, a scratch that was never entered, or null while entry is still pending. */
export type OutcomePlan = { item: OutcomeItem } | { notEntered: NotEntered } | null;

const TERMINAL_SCRATCH: ReadonlySet<BreakoutState> = new Set(['failed', 'expired']);
const iso = (ts: number) => new Date(ts).toISOString();

/** The entry rule above for signal `s` with its state changes so far, oldest first. */
export function planOutcome(s: SignalRecord, events: readonly StateEvent[]): OutcomePlan {
  const terminal = events.find((e) => TERMINAL_SCRATCH.has(e.to));
  let entry = s.priceAtDetection;
  let entryAt = s.surfacedAt;
  if (s.state === 'forming') {
    const triggered = events.find((e) => e.to === 'triggered');
    if (!triggered) {
      return terminal ? { notEntered: { at: terminal.at, price: s.triggerPrice, note: `${terminal.to} before crossing its trigger: never entered` } } : null;
    }
    entry = triggered.price;
    entryAt = triggered.at;
  }
  if (s.stopLoss === null || !insideLevels(s.direction, entry, s.stopLoss, s.target1)) return { notEntered: { at: entryAt, price: entry, note: passedLevelNote(s, entry) } };
  const entryTs = Date.parse(entryAt);
  return {
    item: {
      signalId: s.id,
      symbol: s.symbol,
      timeframe: s.timeframe,
      direction: s.direction,
      entry,
      entryTs,
      target1: s.target1,
      stopLoss: s.stopLoss,
      ...(terminal ? { state: terminal.to, stateTs: Date.parse(terminal.at) } : {}),
    },
  };
}

/** Why an entry outside the levels left no trade: "entry 55.97 already at or beyond target1 53.93: …". */
function passedLevelNote(s: SignalRecord, entry: number): string {
  if (s.stopLoss === null) return `no stop: no risk to measure R by`;
  const long = s.direction === 'long';
  const pastTarget = long ? entry >= s.target1 : entry <= s.target1;
  const level = pastTarget ? `target1 ${s.target1}` : `its stop ${s.stopLoss}`;
  return `entry ${round(entry, 4)} already at or ${pastTarget ? 'beyond' : 'through'} ${level}: the setup had ended, no trade to take`;
}

/** The outcome record of a signal that was never entered (see `NotEntered`). */
export function notEnteredOutcome({ at, price, note }: NotEntered): Record<string, unknown> {
  return {
    outcome: 'scratch',
    entered: false,
    note,
    entry: price,
    exitPrice: price,
    exitAt: at,
    rMultiple: 0,
    mfeR: 0,
    maeR: 0,
    mfePct: 0,
    maePct: 0,
    barsHeld: 0,
    daysHeld: 0,
  };
}

/** The outcome record of an entered signal resolved by kernels/outcome (a final outcome, not `open`). */
export function enteredOutcome(item: OutcomeItem, o: OutcomeResult & { exitTs: number }): Record<string, unknown> {
  return {
    outcome: o.outcome,
    entered: true,
    entry: item.entry,
    entryAt: iso(item.entryTs),
    exitPrice: round(o.exitPrice, 4),
    exitAt: iso(o.exitTs),
    rMultiple: round(o.rMultiple, 4),
    mfeR: round(o.mfeR, 4),
    maeR: round(o.maeR, 4),
    mfePct: round(o.mfePct, 4),
    maePct: round(o.maePct, 4),
    barsHeld: o.barsHeld,
    daysHeld: o.daysHeld,
  };
}
