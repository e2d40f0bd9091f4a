/**
 * @module test/kernels/patterns/real-data — the checks every pattern detector's
 * real-history tests run, written once: the match on a named day with its bars
 * as dates, silence through a stretch where the pattern cannot exist, no
 * look-ahead on real bars, and the firing rate across the large caps. Each test
 * keeps its own expectations (dates, prices, rates); only the machinery is here.
 *
 * @example
 * const { match, dates } = await matchOn(vcp, DIEPERDEV, 'CRM', '2015-04-29');
 * expect(dates).toEqual({ start: '2015-02-26', end: '2015-04-28', breakout: '2015-04-29' });
 */
import { expect } from 'bun:test';
import type { PatternDetector, PatternMatch } from '../../../src/kernels/patterns/types';
import { fixture } from '../../helpers/fixtures';
import { detectOn, expectNoLookAhead, history, type History } from './builders';

/** The committed excerpts of daily_yf_dieperdev (test/fixtures; the full files are in the real-data run). */
export const DIEPERDEV = fixture('daily_yf_dieperdev');

/**
 * The 18 large caps that daily_yf_dieperdev keeps as plain CSV (history to
 * 2024-03-08): leaders that spent much of 2010–2024 in Stage 2, where O'Neil
 * and Minervini look for their bases.
 */
export const LARGE_CAPS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'GOOGL', 'GOOG', 'TSLA', 'AMD', 'SMCI', 'AVGO', 'JPM', 'LLY', 'NFLX', 'COST', 'XOM', 'UNH', 'V'] as const;

/** A pattern's span and breakout bar as `yyyy-mm-dd`. */
export interface MatchDates {
  start: string;
  end: string;
  breakout: string | null;
}

/** The match on a named day, its bars as dates, and the history it was found in. */
export interface MatchOnDay extends History {
  match: PatternMatch | null;
  dates: MatchDates | null;
}

/** Runs `detector` on `symbol`'s history in the csv folder `dir` at the bar dated `day`. */
export async function matchOn(detector: PatternDetector, dir: string, symbol: string, day: string): Promise<MatchOnDay> {
  const h = await history(dir, symbol);
  const match = detectOn(detector, h, day);
  const dates = match && {
    start: h.date(match.geometry.start),
    end: h.date(match.geometry.end),
    breakout: match.breakout.barIndex === null ? null : h.date(match.breakout.barIndex),
  };
  return { ...h, match, dates };
}

/** Asserts `detector` finds nothing on any bar from `from` to `to` (both dates of bars, `from` first). */
export function expectNoMatchBetween(detector: PatternDetector, h: History, from: string, to: string): void {
  const first = h.at(from);
  const last = h.at(to);
  expect(last).toBeGreaterThan(first);
  for (let i = first; i <= last; i++) expect(detector.detect({ bars: h.bars, ind: h.ind, asOf: i })).toBeNull();
}

/**
 * No look-ahead on real bars: on each of `days`, the match equals the one found
 * on the bars cut after that day, and on the bars with wild ones appended. At
 * least one of the days must have a match, or the check proves little.
 */
export function expectNoLookAheadOn(detector: PatternDetector, h: History, days: string[]): void {
  let matched = 0;
  for (const day of days) {
    const match = detectOn(detector, h, day);
    expect(expectNoLookAhead(detector, h.bars, h.at(day))).toEqual(match);
    if (match) matched++;
  }
  expect(matched).toBeGreaterThan(0);
}

/** How often a detector fires. */
export interface FiringRate {
  /** Distinct breakout bars per symbol-year (252 sessions). */
  breakoutsPerYear: number;
  /** Share of the days scanned on which the detector returned a match. */
  shareOfDays: number;
}

/**
 * Runs `detector` on every bar from `from` on, for each symbol, and counts the
 * days with a match and the distinct breakout bars (a breakout reported on
 * several days counts once).
 */
export async function firingRate(detector: PatternDetector, symbols: readonly string[], { dir, from = '2010-01-04' }: { dir: string; from?: string }): Promise<FiringRate> {
  const start = Date.parse(`${from}T00:00:00Z`);
  let years = 0, breakouts = 0, days = 0, withMatch = 0;
  for (const symbol of symbols) {
    const { bars, ind } = await history(dir, symbol);
    const first = bars.ts.findIndex((t) => t >= start);
    expect(first).toBeGreaterThanOrEqual(0);
    let last = -1;
    for (let i = first; i < bars.ts.length; i++) {
      const m = detector.detect({ bars, ind, asOf: i });
      days++;
      if (!m) continue;
      withMatch++;
      if (m.breakout.barIndex !== null && m.breakout.barIndex !== last) {
        breakouts++;
        last = m.breakout.barIndex;
      }
    }
    years += (bars.ts.length - first) / 252;
  }
  expect(days).toBeGreaterThan(0);
  return { breakoutsPerYear: breakouts / years, shareOfDays: withMatch / days };
}
