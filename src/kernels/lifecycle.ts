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
 * triggered | confirmed → failed   a close back inside the pattern: through the setup's
 *                         failure level (`failLevel`, set by its failure rule)
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
 *
 * Failure rules (`FailureRule`, `failureLevel`). Where a breakout counts as
 * failed is a rule of the record, changed only by DESIGN §4's protocol
 * (docs/research-protocol.md); bench/failure-rule compares the candidates
 * below and docs/failure-rule.md holds the criterion, the choice and its
 * judgement. A setup's level is fixed when it is first seen, from its trigger,
 * the ATR(14) of the pattern's last bar and the pattern's depth, so the state
 * machine reads prices only. Without a failure rule (`failLevel` null) nothing
 * but the stop or target1 ends a triggered trade, so then a triggered signal
 * also moves to `stopped` or `target_hit` (`NO_FAILURE_TRANSITIONS`): the one
 * case where a state skips `confirmed`.
 */
import { TERMINAL_STATES, type BreakoutState, type Direction } from '../domain/signal';

/** Every allowed (from, to) pair under a failure rule; nothing else may happen. */
export const TRANSITIONS: Readonly<Record<BreakoutState, readonly BreakoutState[]>> = {
  forming: ['triggered', 'expired'],
  triggered: ['confirmed', 'failed'],
  confirmed: ['target_hit', 'stopped', 'failed'],
  target_hit: [],
  stopped: [],
  failed: [],
  expired: [],
};

/** Without a failure rule (`failLevel` null) a triggered trade ends at its stop or target1 too. */
export const NO_FAILURE_TRANSITIONS: Readonly<Record<BreakoutState, readonly BreakoutState[]>> = {
  ...TRANSITIONS,
  triggered: ['confirmed', 'target_hit', 'stopped'],
  confirmed: ['target_hit', 'stopped'],
};

/**
 * Where a triggered breakout fails (a close through the level counts as back
 * inside the pattern), for a long; a short mirrors it:
 *
 * ```
 * trigger  level = trigger × (1 − buffer)               today's rule, buffer 1% (FAILURE_RULE)
 * atr      level = trigger − multiple × ATR(14)         ATR of the pattern's last bar (Wilder)
 * base     level = trigger × (1 − fraction × depth)     depth = the pattern's depth (geometry.depthPct / 100);
 *                                                       fraction ½: the middle of the base
 * none     no level: only the stop (or target1) ends a triggered trade
 * ```
 *
 * The `base` rule reads "back inside the base" as O'Neil's failed breakout that
 * falls back into its base, taken at the base's middle, between today's 1% and
 * Bulkowski's busted pattern (a close below the bottom of the pattern: "Visual
 * Guide to Chart Patterns", Wiley 2012, ch. 25), which the stop already covers.
 */
export type FailureRule = { kind: 'trigger'; buffer: number } | { kind: 'atr'; multiple: number } | { kind: 'base'; fraction: number } | { kind: 'none' };

/** The buffer of the rule the record began with: a close more than 1% back through the trigger. */
const TRIGGER_BUFFER = 0.01;

/** The record's failure rule today. */
export const FAILURE_RULE: FailureRule = { kind: 'trigger', buffer: TRIGGER_BUFFER };

/** A rule's name in words and as one token (`trigger-1%`, `atr-1.5`, `base-0.5`, `none`). */
export function failureRuleName(rule: FailureRule): string {
  switch (rule.kind) {
    case 'trigger':
      return `trigger-${+(100 * rule.buffer).toFixed(4)}%`;
    case 'atr':
      return `atr-${rule.multiple}`;
    case 'base':
      return `base-${rule.fraction}`;
    case 'none':
      return 'none';
  }
}

/**
 * The failure level of a setup under `rule` (see `FailureRule`); null for
 * `none`. `atr` is the ATR(14) of the pattern's last bar and `depthPct` the
 * pattern's depth in percent; a rule whose input is missing (not finite, or
 * not positive) falls back to the 1% trigger buffer, so a level always exists
 * under a rule that asks for one.
 * @example
 * failureLevel({ kind: 'atr', multiple: 1.5 }, { direction: 'long', trigger: 100 }, { atr: 2, depthPct: 12 }); // => 97
 */
export function failureLevel(rule: FailureRule, setup: { direction: Direction; trigger: number }, inputs: { atr?: number; depthPct?: number } = {}): number | null {
  const sign = setup.direction === 'long' ? 1 : -1;
  const { trigger } = setup;
  const fallback = trigger * (1 - sign * TRIGGER_BUFFER);
  switch (rule.kind) {
    case 'trigger':
      return trigger * (1 - sign * rule.buffer);
    case 'atr':
      return inputs.atr !== undefined && inputs.atr > 0 ? trigger - sign * rule.multiple * inputs.atr : fallback;
    case 'base':
      return inputs.depthPct !== undefined && inputs.depthPct > 0 ? trigger * (1 - (sign * rule.fraction * inputs.depthPct) / 100) : fallback;
    case 'none':
      return null;
  }
}

export interface LifecycleParams {
  /** Closes beyond the trigger (the trigger bar included) that confirm a breakout. Default 3. */
  confirmBars: number;
  /** Average volume over those bars relative to the 50-bar average. Default 1.0. */
  confirmVolumeRatio: number;
  /** Bars after detection within which a forming signal must trigger. Default 15. */
  expiryBars: number;
}

export const DEFAULT_LIFECYCLE: LifecycleParams = { confirmBars: 3, confirmVolumeRatio: 1.0, expiryBars: 15 };

/** The part of a signal the machine needs, plus its running counters. */
export interface LifecycleSnapshot {
  state: BreakoutState;
  direction: Direction;
  trigger: number;
  target1: number;
  stopLoss: number;
  /**
   * A close through this price fails a triggered or confirmed breakout; null: no
   * failure rule. Absent on snapshots stored before failure rules existed: the
   * 1% trigger buffer then, the only rule there was.
   */
  failLevel?: number | null;
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

/** A setup's first snapshot; without `failLevel`, today's rule (`FAILURE_RULE`) sets it. */
export function initialSnapshot(signal: { direction: Direction; trigger: number; target1: number; stopLoss: number; failLevel?: number | null }): LifecycleSnapshot {
  const { direction, trigger, target1, stopLoss } = signal;
  const failLevel = signal.failLevel !== undefined ? signal.failLevel : failureLevel(FAILURE_RULE, signal);
  return { state: 'forming', direction, trigger, target1, stopLoss, failLevel, barsSinceDetection: 0, holdBars: 0, holdVolumeRatioSum: 0 };
}

/** One bar's step. Returns the next snapshot and the transition it made, if any. */
export function step(s: LifecycleSnapshot, bar: LifecycleBar, p: LifecycleParams = DEFAULT_LIFECYCLE): { next: LifecycleSnapshot; transition: Transition | null } {
  if (TERMINAL_STATES.has(s.state)) return { next: s, transition: null };
  const long = s.direction === 'long';
  const beyond = long ? bar.close > s.trigger : bar.close < s.trigger;
  const level = s.failLevel === undefined ? failureLevel({ kind: 'trigger', buffer: TRIGGER_BUFFER }, s) : s.failLevel;
  const backInside = level !== null && (long ? bar.close < level : bar.close > level);
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
      if (level === null && reachedStop) return move('stopped', s.stopLoss);
      if (level === null && reachedTarget) return move('target_hit', s.target1);
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
