/**
 * @module kernels/backtest/signals
 * A symbol's signals at each bar, point in time: for every bar `asOf` in
 * `[from, to]`, what the live daily scan (kernels/scan `scanWithIndicators`:
 * every detector, the lifecycle replay, trend and scoring) lists when it
 * stands on that bar. This is the one place the backtest asks "what did the
 * service show then?", and it walks the bars the way the replay engine does
 * (issue 14): one fit memo (patterns/types `FitMemo`) for the whole walk, so
 * each pattern end is fitted once, not again at every later bar that looks
 * back at it; the same detectors, scoring and lifecycle as the live scan.
 * A signal here carries no sentences, so the scan writes none (`reasons:
 * false`). Equal to a scan from scratch at each bar:
 * test/kernels/backtest/signals-equivalence.test.ts.
 *
 * Point in time: the scan's indicators are computed once over `bars[0..to]`,
 * or handed in already computed (the store's incremental state), a value at
 * bar i reading bars 0..i only (kernels/indicators/set); each scan gets views
 * that end at `asOf` (bars and indicators), so no detector can read a later
 * bar. The score's cross-sectional inputs come from `context`: the RS rank (a
 * universe run ranks every symbol at every bar) and the market regime (from
 * the benchmark, with the universe's breadth when there is one); absent, they
 * count as missing, as in /api/forecast.
 *
 * @example
 * const perBar = signalsAtEachBar(bars, 300, 420, { regimeAt: (i) => readings[i] ?? null });
 * perBar[0]; // => the setups the scan listed at bar 300, each with its state, levels and score
 */
import type { BreakoutState, Direction, PatternFamily, PatternType, RegimeReading, ScoreBand } from '../../domain/signal';
import { computeScanIndicators, headIndicators, type ScanIndicatorSet } from '../indicators/scan-set';
import { headBars, type Ohlcv } from '../ohlcv';
import { FitMemo } from '../patterns/types';
import { scanWithIndicators } from '../scan';

/** One live setup as the scan listed it at bar `asOf`. */
export interface BarSignal {
  asOf: number;
  patternType: PatternType;
  patternFamily: PatternFamily;
  direction: Direction;
  state: BreakoutState;
  pivot: number;
  target1: number;
  stopLoss: number;
  finalScore: number;
  band: ScoreBand;
  /** First bar that closed beyond the pivot, or null while forming. */
  breakoutIndex: number | null;
  /** The pattern's first and last bar. */
  patternStart: number;
  patternEnd: number;
}

export interface PointInTimeContext {
  /** RS rank 1–99 of the symbol in its universe at bar i, or null. */
  rsRankAt?: (i: number) => number | null;
  /** The market regime at bar i, or null. */
  regimeAt?: (i: number) => RegimeReading | null;
}

/**
 * The signals the scan lists at each bar of `[from, to]`: element k holds
 * those of bar `from + k`. Reads no bar after `to`. `indicators`, when given,
 * are the scan's indicators over (at least) `bars[0..to]` already computed —
 * the store's incremental state (store/scan-state), equal to
 * `computeScanIndicators` bit for bit; else they are computed here.
 * @throws {RangeError} `from` or `to` outside the bars, or `from > to`, or
 *   `indicators` shorter than `to + 1`.
 */
export function signalsAtEachBar(bars: Ohlcv, from: number, to: number, context: PointInTimeContext = {}, indicators?: ScanIndicatorSet): BarSignal[][] {
  const n = bars.close.length;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to >= n || from > to) {
    throw new RangeError(`signalsAtEachBar: need integers 0 ≤ from ≤ to < ${n}, got from ${from}, to ${to}`);
  }
  if (indicators && indicators.sma50.length <= to) throw new RangeError(`signalsAtEachBar: indicators over ${indicators.sma50.length} bars, need ${to + 1}`);
  const upTo = headBars(bars, to + 1);
  const ind = indicators ? headIndicators(indicators, to + 1) : computeScanIndicators(upTo);
  // Successive bars look back at the same pattern ends: each is fitted once.
  const memo = new FitMemo();
  const out: BarSignal[][] = [];
  for (let asOf = from; asOf <= to; asOf++) {
    const view = headBars(upTo, asOf + 1);
    const ctx = { asOf, rsRank: context.rsRankAt?.(asOf) ?? null, regime: context.regimeAt?.(asOf) ?? null, memo, reasons: false };
    out.push(
      scanWithIndicators(view, headIndicators(ind, asOf + 1), ctx).map(({ match, state, score }) => ({
        asOf,
        patternType: match.patternType,
        patternFamily: match.patternFamily,
        direction: match.direction,
        state,
        pivot: match.pivot,
        target1: match.target1,
        stopLoss: match.stopLoss,
        finalScore: score.finalScore,
        band: score.band,
        breakoutIndex: match.breakout.barIndex,
        patternStart: match.geometry.start,
        patternEnd: match.geometry.end,
      })),
    );
  }
  return out;
}
