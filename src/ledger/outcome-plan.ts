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
 */
import type { BreakoutState, OutcomeItem, SignalRecord } from '../domain/signal';
import type { OutcomeResult } from '../kernels/outcome';
import { round } from '../kernels/round';

/** A recorded state change of a signal: where it went, at what price, when (ISO). */
export interface StateEvent {
  to: BreakoutState;
  price: number;
  at: string;
}

/** An item for kernels/outcome, a scratch that was never entered, or null while entry is still pending. */
export type OutcomePlan = { item: OutcomeItem } | { neverEntered: { at: string; state: BreakoutState } } | null;

const TERMINAL_SCRATCH: ReadonlySet<BreakoutState> = new Set(['failed', 'expired']);
const iso = (ts: number) => new Date(ts).toISOString();

/** The entry rule above for signal `s` with its state changes so far, oldest first. */
export function planOutcome(s: SignalRecord, events: readonly StateEvent[]): OutcomePlan {
  if (s.stopLoss === null) return null;
  const terminal = events.find((e) => TERMINAL_SCRATCH.has(e.to));
  let entry = s.priceAtDetection;
  let entryTs = Date.parse(s.surfacedAt);
  if (s.state === 'forming') {
    const triggered = events.find((e) => e.to === 'triggered');
    if (!triggered) return terminal ? { neverEntered: { at: terminal.at, state: terminal.to } } : null;
    entry = triggered.price;
    entryTs = Date.parse(triggered.at);
  }
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

/** The outcome record of a signal that failed or expired before crossing its trigger. */
export function neverEnteredOutcome(s: SignalRecord, at: string, state: BreakoutState): Record<string, unknown> {
  return {
    outcome: 'scratch',
    entered: false,
    note: `${state} before crossing its trigger: never entered`,
    entry: s.triggerPrice,
    exitPrice: s.triggerPrice,
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
