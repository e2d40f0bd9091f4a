/**
 * @module kernels/lifecycle
 * The breakout state machine of DESIGN §4 as a pure function of (previous
 * state, new bars). The only transitions:
 *
 * ```
 * forming   → triggered   a close beyond the trigger (above for a long, below for a short)
 * triggered → confirmed   it holds: `confirmBars` closes beyond the trigger since the
 *                         trigger bar, on average volume ≥ `confirmVolumeRatio` × the 50-bar average
 * confirmed → target_hit  the bar's range reaches target1
 * confirmed → stopped     the bar's range reaches the stop (a bar touching both counts
 *                         as stopped: the conservative reading, as the ledger's outcome rule)
 * triggered | confirmed → failed   a close back inside the pattern (beyond the trigger
 *                         the wrong way by more than `failBuffer`)
 * forming   → expired     invalidated (a close through the stop before triggering) or not
 *                         triggered within `expiryBars` bars of detection
 * ```
 *
 * Terminal: target_hit, stopped, failed, expired. One bar makes at most one
 * transition, checked in the order above for the current state; a state never
 * skips (a triggered signal that runs to its target first becomes confirmed on
 * the bar it holds, then target_hit on a later bar, or fails). The confirmation
 * window follows O'Neil's follow-through idea (a breakout must hold on volume);
 * the 3-bar default and the 1.0× volume bar are our choices.
 */
import { TERMINAL_STATES, type BreakoutState, type Direction } from '../domain/signal';

/** Every allowed (from, to) pair; nothing else may happen. */
export const TRANSITIONS: Readonly<Record<BreakoutState, readonly BreakoutState[]>> = {
  forming: ['triggered', 'expired'],
  triggered: ['confirmed', 'failed'],
  confirmed: ['target_hit', 'stopped', 'failed'],
  target_hit: [],
  stopped: [],
  failed: [],
  expired: [],
};

export interface LifecycleParams {
  /** Closes beyond the trigger (the trigger bar included) that confirm a breakout. Default 3. */
  confirmBars: number;
  /** Average volume over those bars relative to the 50-bar average. Default 1.0. */
  confirmVolumeRatio: number;
  /** Bars after detection within which a forming signal must trigger. Default 15. */
  expiryBars: number;
  /** A close this fraction beyond the trigger the wrong way counts as back inside. Default 0.01 (1%). */
  failBuffer: number;
}

export const DEFAULT_LIFECYCLE: LifecycleParams = { confirmBars: 3, confirmVolumeRatio: 1.0, expiryBars: 15, failBuffer: 0.01 };

/** The part of a signal the machine needs, plus its running counters. */
export interface LifecycleSnapshot {
  state: BreakoutState;
  direction: Direction;
  trigger: number;
  target1: number;
  stopLoss: number;
  /** Bars seen since detection (the detection bar is 0). */
  barsSinceDetection: number;
  /** Closes beyond the trigger since it triggered, and the volume-ratio sum over them. */
  holdBars: number;
  holdVolumeRatioSum: number;
}

export interface LifecycleBar {
  ts: number;
  high: number;
  low: number;
  close: number;
  /** Volume over the 50-bar average as of the bar before (NaN when unknown). */
  volumeRatio: number;
}

export interface Transition {
  from: BreakoutState;
  to: BreakoutState;
  ts: number;
  /** The price that made it: the close, or the target/stop level touched. */
  price: number;
}

export function initialSnapshot(signal: { direction: Direction; trigger: number; target1: number; stopLoss: number }): LifecycleSnapshot {
  return { state: 'forming', ...signal, barsSinceDetection: 0, holdBars: 0, holdVolumeRatioSum: 0 };
}

/** One bar's step. Returns the next snapshot and the transition it made, if any. */
export function step(s: LifecycleSnapshot, bar: LifecycleBar, p: LifecycleParams = DEFAULT_LIFECYCLE): { next: LifecycleSnapshot; transition: Transition | null } {
  if (TERMINAL_STATES.has(s.state)) return { next: s, transition: null };
  const long = s.direction === 'long';
  const beyond = long ? bar.close > s.trigger : bar.close < s.trigger;
  const backInside = long ? bar.close < s.trigger * (1 - p.failBuffer) : bar.close > s.trigger * (1 + p.failBuffer);
  const reachedStop = long ? bar.low <= s.stopLoss : bar.high >= s.stopLoss;
  const reachedTarget = long ? bar.high >= s.target1 : bar.low <= s.target1;
  const closedThroughStop = long ? bar.close <= s.stopLoss : bar.close >= s.stopLoss;
  const next: LifecycleSnapshot = { ...s, barsSinceDetection: s.barsSinceDetection + 1 };
  const move = (to: BreakoutState, price: number) => {
    const from = s.state;
    next.state = to;
    return { next, transition: { from, to, ts: bar.ts, price } };
  };
  const ratio = Number.isFinite(bar.volumeRatio) ? bar.volumeRatio : 0;

  switch (s.state) {
    case 'forming':
      if (beyond) {
        next.holdBars = 1;
        next.holdVolumeRatioSum = ratio;
        return move('triggered', bar.close);
      }
      if (closedThroughStop || next.barsSinceDetection > p.expiryBars) return move('expired', bar.close);
      return { next, transition: null };
    case 'triggered':
      if (backInside) return move('failed', bar.close);
      if (beyond) {
        next.holdBars = s.holdBars + 1;
        next.holdVolumeRatioSum = s.holdVolumeRatioSum + ratio;
        if (next.holdBars >= p.confirmBars && next.holdVolumeRatioSum / next.holdBars >= p.confirmVolumeRatio) return move('confirmed', bar.close);
      }
      return { next, transition: null };
    case 'confirmed':
      if (reachedStop) return move('stopped', s.stopLoss);
      if (reachedTarget) return move('target_hit', s.target1);
      if (backInside) return move('failed', bar.close);
      return { next, transition: null };
    default:
      return { next, transition: null };
  }
}

/** Runs the machine over new bars in order; the transitions it made, oldest first. */
export function advance(s: LifecycleSnapshot, bars: readonly LifecycleBar[], p: LifecycleParams = DEFAULT_LIFECYCLE): { snapshot: LifecycleSnapshot; transitions: Transition[] } {
  let snapshot = s;
  const transitions: Transition[] = [];
  for (const bar of bars) {
    if (TERMINAL_STATES.has(snapshot.state)) break;
    const { next, transition } = step(snapshot, bar, p);
    snapshot = next;
    if (transition) transitions.push(transition);
  }
  return { snapshot, transitions };
}
