/**
 * @module domain/signal-id
 * A signal's id (DESIGN §4): `SYMBOL-pattern-detectedAt`, where `detectedAt`
 * is the ISO string of the signal's bar time. That is unique for daily
 * signals, not for intraday ones: the 4h and the 1h bars that open a session
 * start at the same instant, so `ARM-range_breakdown-2025-06-02T13:30:00.000Z`
 * named a 4h and a 1h signal at once, and their two scans moved one stored
 * state back and forth every cycle (issue 26 item 9).
 *
 * An intraday id therefore ends with the bar's length as an ISO 8601
 * duration: `detectedAt/PT4H`, `detectedAt/PT1H` (together an ISO 8601 time
 * interval `start/duration`: the bar the signal was detected on). It still
 * parses with DESIGN's `^(.+)-([a-z0-9_]+)-(\d{4}-\d\d-\d\dT.+)$` (the
 * interval is the third group), and unambiguously: `/` occurs in no symbol,
 * pattern or ISO instant. Daily ids are unchanged.
 *
 * Nothing stored is rewritten: intraday signals stored before carry the bare
 * form. Reads take either form ({@link signalIdForms}), and a scan keeps
 * tracking such a signal under its stored id (db/repositories/scans
 * `storedIdsOf`).
 *
 * @example
 * signalId('ARM', 'range_breakdown', '2025-06-02T13:30:00.000Z', '4h'); // => 'ARM-range_breakdown-2025-06-02T13:30:00.000Z/PT4H'
 * signalId('NVDA', 'flat_base', '2026-11-18T00:00:00.000Z', 'daily'); // => 'NVDA-flat_base-2026-11-18T00:00:00.000Z'
 */
import type { Timeframe } from './signal';

/** DESIGN §4's pattern of an id (either form): `SYMBOL-pattern-detectedAt`, in printable characters (a control character is in no id, and PostgreSQL refuses NUL in text). */
export const SIGNAL_ID_PATTERN = '^([^\\u0000-\\u001f\\u007f]+)-([a-z0-9_]+)-(\\d{4}-\\d\\d-\\d\\dT[^\\u0000-\\u001f\\u007f]+)$';

/** The ISO 8601 duration an intraday timeframe's ids end with (none for daily). */
const BAR_DURATION: Readonly<Record<Timeframe, string | null>> = { daily: null, '4h': 'PT4H', '1h': 'PT1H' };
const INTRADAY_LONGEST_FIRST: readonly Timeframe[] = ['4h', '1h'];
const TIMEFRAME_OF_DURATION = new Map(Object.entries(BAR_DURATION).flatMap(([timeframe, duration]) => (duration ? [[duration, timeframe as Timeframe]] : [])));

/** The id of a signal of `timeframe`: DESIGN's form, with `/PT4H` or `/PT1H` after `detectedAt` for an intraday one. */
export function signalId(symbol: string, patternType: string, detectedAt: string, timeframe: Timeframe): string {
  const duration = BAR_DURATION[timeframe];
  return duration ? `${symbol}-${patternType}-${detectedAt}/${duration}` : `${symbol}-${patternType}-${detectedAt}`;
}

/** The id in DESIGN's bare form (`detectedAt` alone), and the timeframe its suffix names (null: none). */
export function bareSignalId(id: string): { bare: string; timeframe: Timeframe | null } {
  const slash = id.lastIndexOf('/');
  const timeframe = slash < 0 ? undefined : TIMEFRAME_OF_DURATION.get(id.slice(slash + 1));
  return timeframe ? { bare: id.slice(0, slash), timeframe } : { bare: id, timeframe: null };
}

/**
 * The ids a signal named `id` may be stored under, in the order they are
 * tried, each with the timeframe its stored row must have (null: any):
 * - the id itself;
 * - for an intraday id, its bare form stored by that timeframe (before ids
 *   carried the timeframe);
 * - for a bare id, the 4h and then the 1h signal of the same symbol, pattern
 *   and bar time (the spec's `SYMBOL-pattern-detectedAt` written from a
 *   signal's fields names the daily signal first, else the longer timeframe).
 */
export function signalIdForms(id: string): { id: string; timeframe: Timeframe | null }[] {
  const { bare, timeframe } = bareSignalId(id);
  if (timeframe) return [{ id, timeframe: null }, { id: bare, timeframe }];
  return [{ id, timeframe: null }, ...INTRADAY_LONGEST_FIRST.map((tf) => ({ id: `${bare}/${BAR_DURATION[tf]}`, timeframe: null }))];
}
