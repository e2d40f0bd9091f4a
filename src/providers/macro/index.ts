/**
 * @module providers/macro
 * The published US macro release calendar as data: FOMC statements, CPI,
 * the Employment Situation (jobs report) and GDP estimates, from
 * `events.csv` beside this file. Times are the agencies' Eastern-Time release
 * times (FOMC 14:00, BLS and BEA 08:30) and become UTC instants with the US
 * DST rule (`providers/calendar`).
 *
 * Sources, per row in the `source` column:
 * - FOMC 2015-2026: `fomc_dates_2015_2026_mayherprog.csv` (shared data, from the
 *   Fed's FOMC calendars and historical pages). The two unscheduled 2020
 *   meetings keep their real statement times: 2020-03-03 10:00 and Sunday
 *   2020-03-15 17:00. 2027: the Fed's tentative schedule of 2025-09-05.
 * - CPI 2015-2026: `cpi_release_dates_2015_2026_mayherprog.csv` (shared data,
 *   from bls.gov/schedule; no October 2025 CPI was published).
 * - Jobs 2022-01 .. 2026-05: bls.gov/schedule (empsit and CPS release calendars,
 *   including the post-shutdown dates 2025-11-20 and 2025-12-16, the cancelled
 *   October 2025 release, and the 2026-02-11 date moved by the funding lapse).
 * - GDP 2023-01 .. 2026-02: bea.gov/news/schedule (advance, second and third
 *   estimates; Q3 2025 had one "initial" estimate on 2025-12-23 after the
 *   advance estimate was cancelled).
 * Dates that could not be confirmed were left out rather than guessed.
 *
 * @example
 * const fomc = proximity(Date.now()).fomc;
 * if (fomc.within1Day) warn(`FOMC statement at ${fomc.next!.at}`);
 */
import { z } from 'zod';
import eventsCsv from './events.csv' with { type: 'text' };
import { newYorkDate, newYorkToUtc } from '../new-york-time';

export const MACRO_EVENT_TYPES = ['fomc', 'cpi', 'jobs', 'gdp'] as const;
export type MacroEventType = (typeof MACRO_EVENT_TYPES)[number];

/** One row of `events.csv`, and the event it becomes (with its UTC instant). */
export const macroEventSchema = z
  .object({
    /** Release date in New York, `YYYY-MM-DD`. */
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    /** Release time in New York, `HH:MM`. */
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
    type: z.enum(MACRO_EVENT_TYPES),
    title: z.string().min(1),
    /** Where the date comes from: an agency schedule page or a shared-data file. */
    source: z.string().min(1),
  })
  .transform((row) => {
    const ts = newYorkToUtc(row.date, row.time);
    return { ...row, ts, at: new Date(ts).toISOString() };
  });

/** A scheduled release; `at` is ISO 8601 UTC and `ts` the same instant in epoch ms. */
export type MacroEvent = z.output<typeof macroEventSchema>;

export interface MacroProximity {
  type: MacroEventType;
  /** The first event of this type at or after `now`, or `null` past the end of the data. */
  next: MacroEvent | null;
  /** New York calendar days from today to the event's date (0 = today). */
  calendarDays: number | null;
  /** Hours from `now` to the release, to two decimals. */
  hoursUntil: number | null;
  /** The release is today or tomorrow (New York calendar). */
  within1Day: boolean;
  /** The release is within the next 5 New York calendar days. */
  within5Days: boolean;
}

const COLUMNS = ['date', 'time', 'type', 'title', 'source'];
const DAY = 86_400_000;

/**
 * Parses calendar CSV text into events sorted by release time.
 * @throws {Error} naming the line of a malformed row.
 */
export function parseMacroEvents(text: string): MacroEvent[] {
  const lines = text.trim().split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines[0] !== COLUMNS.join(',')) throw new Error(`macro: header must be '${COLUMNS.join(',')}'`);
  const events = lines.slice(1).map((line, i) => {
    const cells = line.split(',');
    if (cells.length !== COLUMNS.length) throw new Error(`macro: line ${i + 2} has ${cells.length} cells`);
    let parsed;
    try {
      parsed = macroEventSchema.safeParse(Object.fromEntries(COLUMNS.map((c, k) => [c, cells[k]])));
    } catch (err) {
      throw new Error(`macro: line ${i + 2} is invalid: ${(err as Error).message}`);
    }
    if (!parsed.success) throw new Error(`macro: line ${i + 2} is invalid: ${parsed.error.message}`);
    return parsed.data;
  });
  return events.sort((a, b) => a.ts - b.ts);
}

let cached: MacroEvent[] | undefined;

/** Every event in the calendar, oldest first (parsed once). */
export function macroEvents(): MacroEvent[] {
  cached ??= parseMacroEvents(eventsCsv as string);
  return cached.slice();
}

function checkNow(now: number): void {
  if (!Number.isFinite(now)) throw new RangeError(`macro: now must be epoch ms, got ${now}`);
}

/** Index of the first event with `ts >= now` (binary search). */
function firstAtOrAfter(events: MacroEvent[], now: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.ts < now) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The next `n` releases at or after `now` (epoch ms), soonest first.
 * @throws {RangeError} when `now` is not finite or `n` is not a positive integer.
 * @example
 * nextEvents(Date.parse('2025-03-11T12:00:00Z'), 1)[0]!.at; // => '2025-03-12T12:30:00.000Z' (CPI)
 */
export function nextEvents(now: number, n = 5): MacroEvent[] {
  checkNow(now);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`macro: n must be a positive integer, got ${n}`);
  const events = macroEvents();
  const start = firstAtOrAfter(events, now);
  return events.slice(start, start + n);
}

/**
 * Per event type, the next release and how close it is: calendar days (New
 * York dates), hours, and whether it falls within 1 and within 5 calendar days.
 * @throws {RangeError} when `now` is not finite.
 */
export function proximity(now: number): Record<MacroEventType, MacroProximity> {
  checkNow(now);
  const events = macroEvents();
  const start = firstAtOrAfter(events, now);
  const today = Date.parse(`${newYorkDate(now)}T00:00:00Z`);
  const out = {} as Record<MacroEventType, MacroProximity>;
  for (const type of MACRO_EVENT_TYPES) {
    const next = events.slice(start).find((e) => e.type === type) ?? null;
    const calendarDays = next ? Math.round((Date.parse(`${next.date}T00:00:00Z`) - today) / DAY) : null;
    out[type] = {
      type,
      next,
      calendarDays,
      hoursUntil: next ? Math.round((next.ts - now) / 36_000) / 100 : null,
      within1Day: calendarDays !== null && calendarDays <= 1,
      within5Days: calendarDays !== null && calendarDays <= 5,
    };
  }
  return out;
}
