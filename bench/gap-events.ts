/**
 * bench/gap-events: how often a textbook episodic pivot yields a signal.
 *
 * An event is a daily bar b of any symbol of shared/data's daily history
 * (daily_yf_dieperdev) where
 *
 *   open[b] ≥ 1.10 × close[b − 1]                        a gap of 10% or more
 *   volume[b] ≥ 3 × the average volume of the 50 bars before b
 *   close[b] > the highest high of the 252 bars before b   through the prior 52-week high
 *
 * It yields a signal when the scan (kernels/scan, every detector, the record's
 * rules: live, still a trade, not terminal) lists any setup of the symbol
 * standing on the gap day or any of the `WINDOW` sessions after it. For each
 * event that yields none, every detector's reason is diagnosed at each of
 * those sessions (no match; matched but not live; not still a trade — and
 * which level; terminal in the lifecycle), and the events are counted by the
 * reasons of the two momentum detectors the event is for (`gap_and_go`,
 * `new_high_52w`). docs/gap-events.md has the findings.
 *
 *   bun run bench/gap-events.ts [--out gap-events.json]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { computeScanIndicators, headIndicators, type ScanIndicatorArrays } from '../src/kernels/indicators/scan-set';
import { headBars, type Ohlcv } from '../src/kernels/ohlcv';
import { DETECTOR_LIST } from '../src/kernels/patterns';
import type { PatternMatch } from '../src/kernels/patterns/types';
import { DEFAULT_SCAN, replayLifecycle, scanWithIndicators, setupFailLevel, stillATrade } from '../src/kernels/scan';
import { FAILURE_RULE } from '../src/kernels/lifecycle';
import { TERMINAL_STATES } from '../src/domain/signal';
import { csvSymbols, loadSeries } from './calibration-trades';
import { printTable, realCsvDir } from './lib';

/** Sessions after the gap day in which a signal still counts (the scan's `freshBars`). */
export const WINDOW = DEFAULT_SCAN.freshBars;

export const GAP = 0.1;
export const VOLUME_RATIO = 3;
const YEAR = 252;

/** The bars of `bars` that are events (see the module comment). */
export function gapEvents(bars: Ohlcv, ind: Pick<ScanIndicatorArrays, 'avgVolume50'>): number[] {
  const out: number[] = [];
  for (let b = YEAR + 1; b < bars.close.length; b++) {
    if (bars.open[b]! < (1 + GAP) * bars.close[b - 1]!) continue;
    const avg = ind.avgVolume50[b - 1]!;
    if (!(avg > 0) || bars.volume[b]! < VOLUME_RATIO * avg) continue;
    let high = -Infinity;
    for (let i = b - YEAR; i < b; i++) high = Math.max(high, bars.high[i]!);
    if (bars.close[b]! > high) out.push(b);
  }
  return out;
}

/** Why a detector lists nothing standing on a bar: its first failing step. */
export type Reason = 'no match' | 'not live' | 'not a trade: levels out of order' | 'not a trade: close at or past target1' | 'not a trade: close at or past the stop' | 'not a trade: a level touched since' | 'terminal' | 'listed';

/** One detector standing on `asOf`: listed, or the first step that drops it (kernels/scan `scanWithIndicators`, step by step). */
export function diagnose(bars: Ohlcv, ind: ScanIndicatorArrays, asOf: number, detector: (typeof DETECTOR_LIST)[number]): { reason: Reason; match: PatternMatch | null } {
  if (asOf < detector.lookback) return { reason: 'no match', match: null };
  const view = headBars(bars, asOf + 1);
  const vind = headIndicators(ind, asOf + 1);
  const match = detector.detect({ bars: view, ind: vind, asOf, brief: true });
  if (!match) return { reason: 'no match', match: null };
  const { breakout, geometry, direction, pivot, target1, stopLoss } = match;
  const long = direction === 'long';
  const close = view.close[asOf]!;
  const distancePct = (long ? close / pivot - 1 : 1 - close / pivot) * 100;
  const live = breakout.triggered ? asOf - breakout.barIndex! < DEFAULT_SCAN.freshBars : asOf - geometry.end < DEFAULT_SCAN.freshBars && distancePct >= -DEFAULT_SCAN.nearPivotPct;
  if (!live) return { reason: 'not live', match };
  if (!stillATrade(view, match, asOf)) {
    const sign = long ? 1 : -1;
    if (!(sign * (pivot - stopLoss) > 0 && sign * (target1 - pivot) > 0)) return { reason: 'not a trade: levels out of order', match };
    if (sign * (close - target1) >= 0) return { reason: 'not a trade: close at or past target1', match };
    if (sign * (close - stopLoss) <= 0) return { reason: 'not a trade: close at or past the stop', match };
    return { reason: 'not a trade: a level touched since', match };
  }
  const failLevel = setupFailLevel(FAILURE_RULE, match, vind);
  const { snapshot } = replayLifecycle(view, vind, { direction, trigger: pivot, target1, stopLoss, failLevel }, geometry.end + 1, asOf);
  return { reason: TERMINAL_STATES.has(snapshot.state) ? 'terminal' : 'listed', match };
}

export interface EventReport {
  symbol: string;
  date: string;
  gapPct: number;
  /** Patterns listed standing on the gap day or the sessions after (empty: no signal). */
  listed: string[];
  /** For an event without a signal: per momentum detector, its reason on each session of the window. */
  why: Record<string, Reason[]>;
}

/** Every event of one symbol and what the scan listed (see the module comment). */
export function symbolEvents(symbol: string, bars: Ohlcv): EventReport[] {
  const ind = computeScanIndicators(bars);
  return gapEvents(bars, ind).map((b) => {
    const listed = new Set<string>();
    const last = Math.min(bars.close.length - 1, b + WINDOW);
    for (let asOf = b; asOf <= last; asOf++) {
      for (const f of scanWithIndicators(headBars(bars, asOf + 1), headIndicators(ind, asOf + 1), { asOf, rsRank: null, regime: null, reasons: false })) listed.add(f.match.patternType);
    }
    const why: Record<string, Reason[]> = {};
    if (listed.size === 0) {
      for (const detector of DETECTOR_LIST.filter((d) => d.type === 'gap_and_go' || d.type === 'new_high_52w')) {
        why[detector.type] = [];
        for (let asOf = b; asOf <= last; asOf++) why[detector.type]!.push(diagnose(bars, ind, asOf, detector).reason);
      }
    }
    return { symbol, date: new Date(bars.ts[b]!).toISOString().slice(0, 10), gapPct: Math.round(1000 * (bars.open[b]! / bars.close[b - 1]! - 1)) / 10, listed: [...listed].sort(), why };
  });
}

/** Every event of shared/data's daily history, with the share that yields a signal. */
export async function allGapEvents(dir: string): Promise<{ events: EventReport[]; withSignal: number; share: number }> {
  const series = await loadSeries(dir, csvSymbols(dir).filter((s) => s !== 'SPY'));
  const events = [...series].flatMap(([symbol, bars]) => symbolEvents(symbol, bars));
  const withSignal = events.filter((e) => e.listed.length > 0).length;
  return { events, withSignal, share: events.length ? withSignal / events.length : NaN };
}

if (import.meta.main) {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { out: { type: 'string' } } });
  const real = realCsvDir();
  if (!real) {
    console.log('bench/gap-events: shared/data is not here; nothing to measure');
    process.exit(0);
  }
  const started = performance.now();
  const { events, withSignal, share } = await allGapEvents(real.dir);
  console.log(`${events.length} events (gap ≥ ${100 * GAP}%, volume ≥ ${VOLUME_RATIO}× its 50-day average, close above the prior 52-week high); ${withSignal} yield a signal on the gap day or the ${WINDOW} sessions after: ${(100 * share).toFixed(1)}%  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  const patterns = new Map<string, number>();
  for (const e of events) for (const p of e.listed) patterns.set(p, (patterns.get(p) ?? 0) + 1);
  printTable('Patterns listed (an event may list several)', [...patterns].sort((a, b) => b[1] - a[1]).map(([pattern, n]) => ({ pattern, events: n })));
  const none = events.filter((e) => e.listed.length === 0);
  for (const type of ['gap_and_go', 'new_high_52w']) {
    const counts = new Map<string, number>();
    for (const e of none) {
      // The reason on the gap day, and the most advanced reason over the window.
      const onDay = e.why[type]![0]!;
      counts.set(`gap day: ${onDay}`, (counts.get(`gap day: ${onDay}`) ?? 0) + 1);
    }
    printTable(`Events without a signal (${none.length}): ${type} on the gap day`, [...counts].sort((a, b) => b[1] - a[1]).map(([reason, n]) => ({ reason, events: n })));
  }
  printTable(
    'Events without a signal, a sample',
    none.slice(0, 25).map((e) => ({ symbol: e.symbol, date: e.date, 'gap %': e.gapPct, gap_and_go: e.why.gap_and_go!.join(' → '), new_high_52w: e.why.new_high_52w!.join(' → ') })),
  );
  if (values.out) writeFileSync(values.out, JSON.stringify({ events, withSignal, share }, null, 1));
}
