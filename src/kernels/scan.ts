/**
 * @module kernels/scan
 * One symbol's scan as of a bar: indicators once, every detector, and for each
 * live setup its lifecycle state, trend and score. Pure and allocation-light,
 * so worker threads run it over the shared bar store; it reads no bar after
 * `asOf` (the indicators, the detectors and the lifecycle replay all stop there).
 * Each detector's match is first taken brief (no reason sentences, the
 * formatting being much of a match's cost); only a setup the scan lists is
 * asked for again with its sentences (with the caller's memo, no fit is
 * repeated).
 *
 * A setup is live when it broke out within the last `freshBars` bars, or has
 * not broken out yet, completed within `freshBars` bars, and the close sits
 * within `nearPivotPct` of the pivot; and it is still a trade (`stillATrade`):
 * its levels in order, the close between its stop and target1, neither level
 * reached since. Its state is the lifecycle (kernels/lifecycle) replayed over
 * the bars after the pattern, so a replay as of any date gives the state that
 * date would have shown.
 */
import { computeScanIndicators, type ScanIndicatorSet } from './indicators/scan-set';
import { TERMINAL_STATES, type BreakoutState, type RegimeReading, type TrendRegime } from '../domain/signal';
import { headBars, type Ohlcv } from './ohlcv';
import { insideLevels } from './levels';
import { advance, failureLevel, FAILURE_RULE, initialSnapshot, type FailureRule, type LifecycleBar } from './lifecycle';
import { DETECTOR_LIST } from './patterns';
import type { FitMemo, PatternDetector, PatternMatch } from './patterns/types';
import { proximityComponent, score, tightnessComponent, volumeComponent, type Score } from './scoring';
import { trendRegime, trendTemplate } from './trend';

export interface ScanOptions {
  /** Breakouts older than this many bars, and patterns completed longer ago, are not live. Default 5. */
  freshBars: number;
  /** A setup that has not broken out must close within this % of its pivot. Default 5. */
  nearPivotPct: number;
  /** Report setups whose lifecycle already ended (target hit, stopped, failed, expired). Default false. */
  includeTerminal: boolean;
}

export const DEFAULT_SCAN: ScanOptions = { freshBars: 5, nearPivotPct: 5, includeTerminal: false };

export interface ScanContext {
  /** Bar index the scan stands on. */
  asOf: number;
  /** The symbol's RS rank 1–99 in its universe, or null. */
  rsRank: number | null;
  /** The market regime as of the same date, or null. */
  regime: RegimeReading | null;
  /** Fits kept between scans of these bars at successive bars (the replay; patterns/types `FitMemo`). */
  memo?: FitMemo;
  /** False: findings without `reasons` (empty; a caller that reads the levels and scores alone: the backtest). Default true. */
  reasons?: boolean;
  /** The lifecycle's failure rule (kernels/lifecycle); default the record's, `FAILURE_RULE` (bench/failure-rule tries others). */
  failure?: FailureRule;
}

export interface SetupFinding {
  match: PatternMatch;
  state: BreakoutState;
  trendRegime: TrendRegime;
  score: Score;
  /** Close at asOf and its distance from the pivot in percent (positive = beyond it in the setup's direction). */
  close: number;
  distancePct: number;
  /** Bar index the setup counts as detected at: the breakout bar when it broke out, else the pattern's last bar. */
  detectedIndex: number;
  reasons: string[];
}

/** The bars after `from` up to `to` as lifecycle input (volume against the 50-bar average of the bar before). */
export function lifecycleBars(bars: Ohlcv, ind: ScanIndicatorSet, from: number, to: number): LifecycleBar[] {
  const out: LifecycleBar[] = [];
  for (let i = from; i <= to; i++) {
    const avg = i > 0 ? ind.avgVolume50[i - 1]! : NaN;
    out.push({ ts: bars.ts[i]!, high: bars.high[i]!, low: bars.low[i]!, close: bars.close[i]!, volumeRatio: avg > 0 ? bars.volume[i]! / avg : NaN });
  }
  return out;
}

/**
 * The lifecycle of a setup replayed over the bars after its pattern (`from` =
 * the first bar after the pattern's end) up to `asOf`; without `failLevel`,
 * the record's failure rule sets it.
 */
export function replayLifecycle(
  bars: Ohlcv,
  ind: ScanIndicatorSet,
  setup: { direction: 'long' | 'short'; trigger: number; target1: number; stopLoss: number; failLevel?: number | null },
  from: number,
  asOf: number,
) {
  return advance(initialSnapshot(setup), lifecycleBars(bars, ind, from, asOf));
}

/**
 * Whether a live setup is still a trade a reader could take at the close of
 * `asOf` (issue 14, found on real data: a KR 52-week high listed `confirmed`
 * at 55.97 above its 53.93 target, a KEY range breakout listed `forming` at
 * 23.37 below its 23.66 stop). All three must hold:
 * - its levels are in order: stop < trigger < target1 for a long, target1 <
 *   trigger < stop for a short;
 * - the close at `asOf` lies strictly between the stop and target1;
 * - no bar after the breakout bar (not yet triggered: after the pattern's
 *   last bar) up to `asOf` reached either level, high or low: a setup whose
 *   target or stop was touched has already ended, whatever the lifecycle,
 *   which watches them only once confirmed, says.
 * Reads bars up to `asOf` only.
 */
export function stillATrade(bars: Ohlcv, match: PatternMatch, asOf: number): boolean {
  const { direction, pivot, target1, stopLoss, breakout, geometry } = match;
  if (!insideLevels(direction, pivot, stopLoss, target1) || !insideLevels(direction, bars.close[asOf]!, stopLoss, target1)) return false;
  const long = direction === 'long';
  for (let i = (breakout.barIndex ?? geometry.end) + 1; i <= asOf; i++) {
    if (long ? bars.low[i]! <= stopLoss || bars.high[i]! >= target1 : bars.high[i]! >= stopLoss || bars.low[i]! <= target1) return false;
  }
  return true;
}

/** A match's failure level under `rule` (kernels/lifecycle `failureLevel`: the ATR(14) of its last bar, its depth). */
export function setupFailLevel(rule: FailureRule, match: Pick<PatternMatch, 'direction' | 'pivot' | 'geometry'>, ind: Pick<ScanIndicatorSet, 'atr14'>): number | null {
  return failureLevel(rule, { direction: match.direction, trigger: match.pivot }, { atr: ind.atr14[match.geometry.end], depthPct: match.geometry.depthPct });
}

export function scanBars(bars: Ohlcv, ctx: ScanContext, detectors: readonly PatternDetector[] = DETECTOR_LIST, options: ScanOptions = DEFAULT_SCAN): SetupFinding[] {
  const { asOf } = ctx;
  if (asOf < 0 || asOf >= bars.ts.length) return [];
  // Indicators over the bars up to asOf only: a view, so nothing later is read.
  const view = headBars(bars, asOf + 1);
  const ind = computeScanIndicators(view);
  return scanWithIndicators(view, ind, ctx, detectors, options);
}

/** As `scanBars`, with the indicators already computed over `bars[0..asOf]`. */
export function scanWithIndicators(bars: Ohlcv, ind: ScanIndicatorSet, ctx: ScanContext, detectors: readonly PatternDetector[] = DETECTOR_LIST, options: ScanOptions = DEFAULT_SCAN): SetupFinding[] {
  const { asOf } = ctx;
  const close = bars.close[asOf]!;
  const trend = trendRegime(bars.close, ind, asOf);
  const template = trendTemplate(bars.close, ind, asOf, ctx.rsRank);
  const findings: SetupFinding[] = [];
  const withReasons = ctx.reasons !== false;
  for (const detector of detectors) {
    if (asOf < detector.lookback) continue;
    // A brief match first (no sentences): most matches are not live and are dropped below.
    const brief = detector.detect({ bars, ind, asOf, memo: ctx.memo, brief: true });
    if (!brief) continue;
    let match = brief;
    const { breakout, geometry, direction, pivot } = match;
    const long = direction === 'long';
    const distancePct = (long ? close / pivot - 1 : 1 - close / pivot) * 100;
    const live = breakout.triggered
      ? asOf - breakout.barIndex! < options.freshBars
      : asOf - geometry.end < options.freshBars && distancePct >= -options.nearPivotPct;
    if (!live || !stillATrade(bars, match, asOf)) continue;
    const failLevel = setupFailLevel(ctx.failure ?? FAILURE_RULE, match, ind);
    const { snapshot } = replayLifecycle(bars, ind, { direction, trigger: pivot, target1: match.target1, stopLoss: match.stopLoss, failLevel }, geometry.end + 1, asOf);
    if (!options.includeTerminal && TERMINAL_STATES.has(snapshot.state)) continue;
    // Listed: the same match with its sentences (a detector is a pure function of its input).
    if (withReasons) match = detector.detect({ bars, ind, asOf, memo: ctx.memo })!;
    const rsComponent = ctx.rsRank === null ? null : (long ? ctx.rsRank - 1 : 99 - ctx.rsRank) / 98;
    const templateComponent = long ? template.met / 8 : trend === 'downtrend' ? 1 : trend === 'sideways' ? 0.4 : 0;
    const regimeComponent = ctx.regime === null ? null : { risk_on: long ? 1 : 0, neutral: 0.5, risk_off: long ? 0 : 1 }[ctx.regime.regime];
    const volumeRatio = breakout.triggered ? breakout.volumeRatio : null;
    const s = score({
      patternQuality: match.quality,
      breakoutVolume: volumeComponent(volumeRatio),
      rsRank: rsComponent,
      trendTemplate: templateComponent,
      proximity: proximityComponent(distancePct),
      tightness: tightnessComponent(ind.bbWidthPercentile[geometry.end] ?? NaN),
      regime: regimeComponent,
    }, direction, match.patternType);
    const reasons = [...match.reasons];
    if (withReasons) {
      if (long) reasons.push(`trend template ${template.met}/8${template.failed.length ? ` (missing: ${template.failed.join('; ')})` : ''}`);
      if (ctx.rsRank !== null) reasons.push(`RS rank ${ctx.rsRank}`);
      if (ctx.regime) reasons.push(`market ${ctx.regime.regime.replace('_', '-')}`);
    }
    findings.push({
      match,
      state: snapshot.state,
      trendRegime: trend,
      score: s,
      close,
      distancePct,
      detectedIndex: breakout.triggered ? breakout.barIndex! : geometry.end,
      reasons,
    });
  }
  return findings;
}
