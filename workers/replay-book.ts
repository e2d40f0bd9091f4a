/**
 * One symbol's part of a replay, session by session, as a worker runs it: the
 * scan standing on the session's bar, then what a persisted live run does with
 * it (src/jobs/runs `persist`), for this symbol:
 *
 * 1. the alert policy over the symbol's signals in rank order (every rule of
 *    it reads one signal or one symbol, kernels/alert-policy), the cooldown
 *    read from the replay's own alert log;
 * 2. a signal seen for the first time is surfaced (a `signal` record); one seen
 *    before in another state moves (an `event` at the session's time);
 * 3. signals surfaced earlier that the scan no longer lists, and not in a
 *    terminal state, are tracked: their lifecycle over the bars since the
 *    pattern, with the levels they were surfaced with, and every transition
 *    after the recorded state is recorded (jobs/runs `trackOpenSignals`);
 * 4. every signal without an outcome is resolved (ledger/outcome-plan for the
 *    entry, kernels/outcome for the rest) as of the session's bar, and a final
 *    outcome is recorded (jobs/outcomes).
 *
 * Nothing reads a bar after the session's: the scan, the tracking and the
 * outcomes all take views that end at it. The book (what the symbol's earlier
 * sessions left behind) is plain data, handed in and out with every chunk of
 * sessions, so any worker can carry on, and a replay can be resumed from it.
 *
 * The tracking is incremental: a tracked lifecycle is kept and advanced over
 * the new bars, not replayed from the pattern's end each session (the state
 * machine is a fold over bars, so both give the same states and transitions).
 */
import type { BookSignal, SymbolBook } from '../src/domain/replay';
import type { AlertNote, BreakoutState, OutcomeItem, RegimeReading, Signal, Timeframe } from '../src/domain/signal';
import { TERMINAL_STATES } from '../src/domain/signal';
import { bareSignalId } from '../src/domain/signal-id';
import { evaluateAlerts, ALERT_THRESHOLDS, type AlertEvaluation } from '../src/kernels/alert-policy';
import type { ScanIndicatorSet } from '../src/kernels/indicators';
import { advance, failureLevel, FAILURE_RULE, initialSnapshot, type FailureRule } from '../src/kernels/lifecycle';
import type { Ohlcv } from '../src/kernels/ohlcv';
import type { FitMemo } from '../src/kernels/patterns/types';
import { DEFAULT_SCAN, lifecycleBars } from '../src/kernels/scan';
import { toSignal } from '../src/kernels/signal';
import { enteredOutcome, notEnteredOutcome, planOutcome, type OutcomePlan } from '../src/ledger/outcome-plan';
import { tradingDaysToNext } from '../src/providers/calendar';
import { resolveItem } from './outcomes';
import { dollarVolume50, findingsAt, standingOn } from './scan';
import { indexAtOrBefore } from './store';

const iso = (ts: number) => new Date(ts).toISOString();
const NO_ALERTS: AlertEvaluation = { candidates: [], blocked: [], summary: { eligible: 0, candidates: 0, blocked: 0, byReason: {} } };
const COOLDOWN_MS = ALERT_THRESHOLDS.cooldownHours * 3_600_000;

export type { BookSignal, SymbolBook };

export const emptyBook = (): SymbolBook => ({ signals: [], alerts: [] });

export type { AlertNote };

/** A record the session produced, in the order a live run appends: surfaced, listed moves, tracked moves, outcomes. */
export type BookRecord =
  | { kind: 'signal'; session: number; signal: Signal; surfacedAt: string; regime: string | null; alert: AlertNote }
  | { kind: 'event'; session: number; phase: 'listed' | 'tracked'; signalId: string; rankScore: number; from: BreakoutState; to: BreakoutState; price: number; at: string }
  | { kind: 'outcome'; session: number; signalId: string; surfacedAt: string; patternType: string; scoreBand: string; finalScore: number; detectedAt: string; data: Record<string, unknown> };

/** The session inputs the book reads for one symbol. */
export interface SessionInputs {
  /** Session index (in the replay) and bar time. */
  session: number;
  ts: number;
  /** Whether the symbol is in the universe this session (scanned); signals are tracked either way. */
  inUniverse: boolean;
  rsRank: number | null;
  regime: RegimeReading | null;
}

export interface BookContext {
  symbol: string;
  timeframe: Timeframe;
  source: string;
  /** Report dates of the symbol (YYYY-MM-DD, ascending), when the provider knows them. */
  earnings: readonly string[] | null;
  /** The detectors' fits kept from session to session (the same bars, one more each session). */
  memo?: FitMemo;
  /** Outcome plans kept from session to session (`plans`). */
  plans?: OutcomePlans;
  /** The lifecycle's failure rule; default the record's (`FAILURE_RULE`; bench/failure-rule tries others). */
  failure?: FailureRule;
}

/**
 * Each followed signal's outcome plan, kept while its recorded events are
 * unchanged (the plan reads the record and the events only), and for an
 * entered one the bar its resolution was last found open at: it stays open
 * until a later bar reaches the stop or target1, so only the new bars are
 * looked at until one does (then it is resolved in full, as the job would).
 */
export type OutcomePlans = WeakMap<BookSignal, { events: number; planned: OutcomePlan; openThrough: number }>;

/** Counts of what the session did, for the replay's summary. */
export interface SessionTally {
  scanned: number;
  listed: number;
  unresolvable: number;
}

/** Ranking order of signals: finalScore, best first, then id (jobs/runs `byRank`). */
const byRank = (a: Signal, b: Signal) => b.finalScore - a.finalScore || a.id.localeCompare(b.id);

/**
 * A signal the book holds under its id's bare form keeps that id (an intraday
 * replay resumed from books recorded before ids carried the timeframe:
 * domain/signal-id), as a live run keeps a stored signal's (ScansRepository.storedIdsOf).
 */
function asHeld(book: SymbolBook, s: Signal): Signal {
  const { bare, timeframe } = bareSignalId(s.id);
  return timeframe !== null && book.signals.some((b) => b.record.id === bare) ? { ...s, id: bare } : s;
}

/**
 * Runs one session for one symbol: scans (when in the universe), evaluates
 * alerts, surfaces and moves signals, tracks and resolves the rest. Returns
 * the symbol's ranked listing of the session (empty when not scanned).
 */
export function runSession(book: SymbolBook, ctx: BookContext, bars: Ohlcv, ind: ScanIndicatorSet, at: SessionInputs, out: BookRecord[], tally: SessionTally): Signal[] {
  const asOf = indexAtOrBefore(bars.ts, at.ts);
  if (asOf < 0) return [];
  const surfacedAt = iso(at.ts);
  // What this session may read: the bars and indicators up to its bar, nothing later.
  const view = standingOn(bars, ind, asOf);
  let listed: Signal[] = [];
  if (at.inUniverse) {
    tally.scanned++;
    const findings = findingsAt(ctx.symbol, view, { rsRank: at.rsRank, regime: at.regime, memo: ctx.memo, ...(ctx.failure ? { failure: ctx.failure } : {}) });
    if (findings.length > 0) {
      const liquidity = dollarVolume50(view.bars, asOf);
      listed = findings.map((f) => asHeld(book, toSignal(f, ctx.timeframe, at.rsRank, liquidity))).sort(byRank);
    }
  }
  tally.listed += listed.length;
  const alerts = alertsOf(book, ctx, listed, at);
  const verdicts = new Map<string, AlertNote>();
  for (const s of alerts.candidates) verdicts.set(s.id, { verdict: 'candidate', codes: [] });
  for (const b of alerts.blocked) verdicts.set(b.signal.id, { verdict: 'blocked', codes: b.codes });

  // 2. surfaced and moved (jobs/runs → ScansRepository.saveRun)
  const known = listed.length ? new Map(book.signals.map((b) => [b.record.id, b])) : undefined;
  const moves: BookRecord[] = [];
  for (const s of listed) {
    const held = known!.get(s.id);
    if (!held) {
      const entry = surfacedEntry(s, ctx, surfacedAt, at.regime, view);
      book.signals.push(entry);
      known!.set(s.id, entry);
      out.push({ kind: 'signal', session: at.session, signal: s, surfacedAt, regime: at.regime?.regime ?? null, alert: verdicts.get(s.id) ?? { verdict: 'not_eligible', codes: [] } });
    } else if (held.state !== s.breakoutState) {
      moves.push({ kind: 'event', session: at.session, phase: 'listed', signalId: s.id, rankScore: s.finalScore, from: held.state, to: s.breakoutState, price: s.price, at: surfacedAt });
      held.events.push({ to: s.breakoutState, price: s.price, at: surfacedAt });
      held.state = s.breakoutState;
    }
  }
  out.push(...moves);
  for (const s of alerts.candidates) if (!book.alerts.some((a) => a.id === s.id)) book.alerts.push({ id: s.id, ts: at.ts });

  // 3. tracked (jobs/runs trackOpenSignals)
  const listedIds = listed.length ? new Set(listed.map((s) => s.id)) : undefined;
  for (const b of book.signals) {
    if (TERMINAL_STATES.has(b.state) || listedIds?.has(b.record.id)) continue;
    const t = track(b, view.bars, view.ind, asOf);
    if (!t) continue;
    const from = t.transitions.findIndex((x) => x.from === b.state);
    if (t.snapshot.state === b.state || from < 0) continue;
    for (const x of t.transitions.slice(from)) {
      out.push({ kind: 'event', session: at.session, phase: 'tracked', signalId: b.record.id, rankScore: b.record.finalScore, from: x.from, to: x.to, price: x.price, at: iso(x.ts) });
      b.events.push({ to: x.to, price: x.price, at: iso(x.ts) });
    }
    b.state = t.snapshot.state;
  }

  // 4. outcomes (jobs/outcomes resolveOutcomes)
  for (const b of book.signals) {
    if (b.outcome !== 'pending') continue;
    let plan = ctx.plans?.get(b);
    if (!plan || plan.events !== b.events.length) {
      plan = { events: b.events.length, planned: planOutcome(b.record, b.events), openThrough: -1 };
      ctx.plans?.set(b, plan);
    }
    const { planned } = plan;
    if (planned === null) continue;
    let data: Record<string, unknown> | null = null;
    if ('notEntered' in planned) {
      data = notEnteredOutcome(planned.notEntered);
    } else if (plan.openThrough >= 0 && plan.openThrough <= asOf && !mayEnd(planned.item, view.bars, plan.openThrough + 1, asOf)) {
      plan.openThrough = asOf;
    } else {
      const r = resolveItem(planned.item, view.bars, asOf);
      if ('error' in r) {
        b.outcome = 'unresolvable';
        tally.unresolvable++;
      } else if (r.result.outcome !== 'open') {
        data = enteredOutcome(planned.item, r.result);
      } else {
        plan.openThrough = asOf;
      }
    }
    if (data) {
      b.outcome = 'resolved';
      const s = b.record;
      out.push({ kind: 'outcome', session: at.session, signalId: s.id, surfacedAt: s.surfacedAt, patternType: s.patternType, scoreBand: s.scoreBand, finalScore: s.finalScore, detectedAt: s.detectedAt, data });
    }
  }
  return listed;
}

/**
 * Whether a bar in [from, to] could end an open trade: its range reaches the
 * stop or target1 (kernels/outcome's test; a gap through a level is within the
 * range too), or it has a missing price (the kernel refuses those). Only a
 * price-resolved item asks: a failed or expired state resolves it at once.
 */
function mayEnd(item: OutcomeItem, bars: Ohlcv, from: number, to: number): boolean {
  const long = item.direction === 'long';
  for (let i = from; i <= to; i++) {
    const o = bars.open[i]!;
    const h = bars.high[i]!;
    const l = bars.low[i]!;
    const c = bars.close[i]!;
    if (!Number.isFinite(o) || !Number.isFinite(h) || !Number.isFinite(l) || !Number.isFinite(c)) return true;
    if (long ? l <= item.stopLoss || h >= item.target1 : h >= item.stopLoss || l <= item.target1) return true;
  }
  return false;
}

/** The alert policy over the symbol's ranked listing, the cooldown from the book's alert log (jobs/alerts alertsAt). */
function alertsOf(book: SymbolBook, ctx: BookContext, listed: Signal[], at: SessionInputs): AlertEvaluation {
  if (listed.length === 0) return NO_ALERTS;
  const recent = new Set(book.alerts.filter((a) => a.ts >= at.ts - COOLDOWN_MS && a.ts <= at.ts).map((a) => a.id));
  const today = iso(at.ts).slice(0, 10);
  const earnings = ctx.earnings;
  return evaluateAlerts(listed, {
    regime: at.regime?.regime ?? null,
    earningsInTradingDays: earnings ? () => tradingDaysToNext(earnings, today) : undefined,
    recentAlerts: new Map([[ctx.symbol, recent]]),
  });
}

function surfacedEntry(s: Signal, ctx: BookContext, surfacedAt: string, regime: RegimeReading | null, view: { bars: Ohlcv; ind: ScanIndicatorSet }): BookSignal {
  // The failure level the scan listed it with (kernels/scan `setupFailLevel`): the ATR of the pattern's last bar, its depth.
  const end = indexAtOrBefore(view.bars.ts, Date.parse(s.geometry.end));
  const failLevel = failureLevel(ctx.failure ?? FAILURE_RULE, { direction: s.direction, trigger: s.triggerPrice }, { atr: end >= 0 ? view.ind.atr14[end] : undefined, depthPct: s.geometry.depthPct });
  return {
    record: {
      id: s.id,
      symbol: s.symbol,
      timeframe: s.timeframe,
      patternType: s.patternType,
      direction: s.direction,
      detectedAt: s.detectedAt,
      surfacedAt,
      state: s.breakoutState,
      triggerPrice: s.triggerPrice,
      target1: s.target1,
      stopLoss: s.stopLoss,
      finalScore: s.finalScore,
      scoreBand: s.scoreBand,
      priceAtDetection: s.price,
      regime: regime?.regime ?? null,
      source: ctx.source,
    },
    state: s.breakoutState,
    events: [],
    patternEndTs: Date.parse(s.geometry.end),
    failLevel,
    detectedTs: Date.parse(s.detectedAt),
    outcome: 'pending',
  };
}

/**
 * The signal's lifecycle from the bar after its pattern through `asOf`, with
 * its surfaced levels: continued from where it was last tracked, or replayed
 * from the pattern's end the first time.
 */
function track(b: BookSignal, bars: Ohlcv, ind: ScanIndicatorSet, asOf: number): BookSignal['track'] {
  const r = b.record;
  if (b.track) {
    const through = indexAtOrBefore(bars.ts, b.track.through);
    if (bars.ts[through] === b.track.through && through <= asOf) {
      if (through < asOf) {
        const more = advance(b.track.snapshot, lifecycleBars(bars, ind, through + 1, asOf));
        b.track = { snapshot: more.snapshot, transitions: more.transitions.length ? [...b.track.transitions, ...more.transitions] : b.track.transitions, through: bars.ts[asOf]! };
      }
      return b.track;
    }
  }
  const end = indexAtOrBefore(bars.ts, b.patternEndTs);
  if (end < 0) return undefined;
  const setup = { direction: r.direction, trigger: r.triggerPrice, target1: r.target1, stopLoss: r.stopLoss ?? Number.NaN, ...(b.failLevel !== undefined ? { failLevel: b.failLevel } : {}) };
  const replayed = advance(initialSnapshot(setup), lifecycleBars(bars, ind, end + 1, asOf));
  b.track = { ...replayed, through: bars.ts[asOf]! };
  return b.track;
}

/**
 * Forgets what can no longer matter (after a chunk of sessions; nothing a
 * session does reads what it drops): a signal in a terminal state with its
 * outcome settled, detected long enough ago that no scan can list it again (a
 * listed setup broke out, or its pattern ended, within `freshBars` bars), and
 * alerts older than the cooldown whose signal is forgotten too (the alert log
 * keeps a signal's first alert, so one listed again must still find it).
 */
export function prune(book: SymbolBook, ts: number, bars: Ohlcv, asOf: number): void {
  const relistable = bars.ts[Math.max(0, asOf - DEFAULT_SCAN.freshBars)]!;
  book.signals = book.signals.filter((b) => !(TERMINAL_STATES.has(b.state) && b.outcome !== 'pending' && b.detectedTs < relistable));
  const followed = new Set(book.signals.map((b) => b.record.id));
  book.alerts = book.alerts.filter((a) => a.ts >= ts - COOLDOWN_MS || followed.has(a.id));
}
