/**
 * @module providers/calendar
 * The New York Stock Exchange trading calendar for 2000–2035, computed by rule:
 * which dates have a regular session, when each session opens and closes in
 * epoch milliseconds, and which close early.
 *
 * Holidays follow NYSE Rule 7.2 and the exchange's published holiday lists
 * (https://www.nyse.com/markets/hours-calendars): New Year's Day, Martin Luther
 * King Jr. Day, Washington's Birthday, Good Friday, Memorial Day, Juneteenth
 * (from 2022), Independence Day, Labor Day, Thanksgiving and Christmas. A
 * holiday on a Saturday is observed the Friday before and one on a Sunday the
 * Monday after — except New Year's Day on a Saturday, which is not observed
 * (the Friday before closes a fiscal year). Good Friday needs Easter Sunday,
 * from the anonymous Gregorian computus (Meeus, *Astronomical Algorithms*,
 * 2nd ed., ch. 8). Unscheduled closures are listed by date.
 *
 * Sessions run 09:30–16:00 America/New_York (its time: providers/new-york-time);
 * the day after Thanksgiving, Christmas Eve and July 3 close at 13:00 when
 * they are sessions.
 *
 * @example
 * isTradingDay('2025-01-09'); // => false (national day of mourning, President Carter)
 * nextTradingDay('2024-11-27'); // => '2024-11-29'
 * sessionOpenClose('2024-11-29').close; // => Date.UTC(2024, 10, 29, 18, 0), 13:00 EST
 */
import { checkYear, civilOf, DAY_MS, dayNumber, HOUR_MS, isDaylightTime, isoDate, MINUTE_MS, newYorkDate, nthWeekday, parseIsoDate, weekday, yearOf } from './new-york-time';

/** A regular trading session in epoch milliseconds. */
export interface SessionTimes {
  /** `YYYY-MM-DD`, the session date in New York. */
  date: string;
  /** 09:30 New York. */
  open: number;
  /** 16:00 New York, or 13:00 on an early-close day. */
  close: number;
  earlyClose: boolean;
}

/** A market holiday or unscheduled closure. */
export interface Closure {
  date: string;
  name: string;
}

/**
 * Days the exchange closed outside the holiday rules: the September 11
 * attacks, the funerals of Presidents Reagan, Ford, George H. W. Bush and
 * Carter, and Hurricane Sandy.
 */
const SPECIAL_CLOSURES: readonly Closure[] = [
  { date: '2001-09-11', name: 'September 11 attacks' },
  { date: '2001-09-12', name: 'September 11 attacks' },
  { date: '2001-09-13', name: 'September 11 attacks' },
  { date: '2001-09-14', name: 'September 11 attacks' },
  { date: '2004-06-11', name: 'National day of mourning (Reagan)' },
  { date: '2007-01-02', name: 'National day of mourning (Ford)' },
  { date: '2012-10-29', name: 'Hurricane Sandy' },
  { date: '2012-10-30', name: 'Hurricane Sandy' },
  { date: '2018-12-05', name: 'National day of mourning (G. H. W. Bush)' },
  { date: '2025-01-09', name: 'National day of mourning (Carter)' },
];

/** Easter Sunday by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return isoDate(dayNumber(year, month, day));
}

/** NYSE observance: Saturday → the Friday before, Sunday → the Monday after. */
function observed(dayNo: number): number {
  const wd = weekday(dayNo);
  return wd === 6 ? dayNo - 1 : wd === 0 ? dayNo + 1 : dayNo;
}

const holidayCache = new Map<number, Closure[]>();

/**
 * The exchange's full-day closures in `year`, in date order.
 * @throws {RangeError} for a year outside 2000–2035.
 */
export function marketHolidays(year: number): Closure[] {
  checkYear(year);
  const hit = holidayCache.get(year);
  if (hit) return hit;
  const list: Array<[number, string]> = [];
  const newYear = dayNumber(year, 1, 1);
  if (weekday(newYear) !== 6) list.push([observed(newYear), "New Year's Day"]);
  list.push([nthWeekday(year, 1, 1, 3), 'Martin Luther King Jr. Day']);
  list.push([nthWeekday(year, 2, 1, 3), "Washington's Birthday"]);
  list.push([parseIsoDate(easterSunday(year)) - 2, 'Good Friday']);
  list.push([nthWeekday(year, 5, 1, -1), 'Memorial Day']);
  if (year >= 2022) list.push([observed(dayNumber(year, 6, 19)), 'Juneteenth National Independence Day']);
  list.push([observed(dayNumber(year, 7, 4)), 'Independence Day']);
  list.push([nthWeekday(year, 9, 1, 1), 'Labor Day']);
  list.push([nthWeekday(year, 11, 4, 4), 'Thanksgiving Day']);
  list.push([observed(dayNumber(year, 12, 25)), 'Christmas Day']);
  for (const c of SPECIAL_CLOSURES) if (c.date.startsWith(`${year}-`)) list.push([parseIsoDate(c.date), c.name]);
  const closures = list.sort((x, y) => x[0] - y[0]).map(([n, name]) => ({ date: isoDate(n), name }));
  holidayCache.set(year, closures);
  return closures;
}

const closedDays = new Map<number, Set<number>>();

/** The day numbers of `year`'s closures (each falls in its own year: observed dates never cross New Year, see marketHolidays). */
function closedIn(year: number): Set<number> {
  let set = closedDays.get(year);
  if (!set) {
    set = new Set(marketHolidays(year).map((c) => parseIsoDate(c.date)));
    closedDays.set(year, set);
  }
  return set;
}

function isClosed(dayNo: number): boolean {
  return closedIn(new Date(dayNo * DAY_MS).getUTCFullYear()).has(dayNo);
}

/**
 * Monday-to-Friday days before day number `n`, counted from the Monday
 * 1970-01-05 (day 4; negative before it): weekdays in [a, b) are
 * `weekdaysBefore(b) − weekdaysBefore(a)`, whole weeks at 5 each.
 */
function weekdaysBefore(n: number): number {
  const k = n - 4;
  const weeks = Math.floor(k / 7);
  return weeks * 5 + Math.min(k - weeks * 7, 5);
}

function isSessionDay(dayNo: number): boolean {
  const wd = weekday(dayNo);
  return wd !== 0 && wd !== 6 && !isClosed(dayNo);
}

/**
 * Whether the exchange holds a regular session on `date` (`YYYY-MM-DD`).
 * @throws {RangeError} on a malformed date or a year outside 2000–2035.
 * @example
 * isTradingDay('2023-06-19'); // => false (Juneteenth)
 */
export function isTradingDay(date: string): boolean {
  return isSessionDay(parseIsoDate(date));
}

/**
 * Every session date from `from` to `to`, both inclusive, oldest first.
 * @example
 * tradingDays('2024-12-23', '2024-12-27'); // => ['2024-12-23', '2024-12-24', '2024-12-26', '2024-12-27']
 */
export function tradingDays(from: string, to: string): string[] {
  const out: string[] = [];
  for (let n = parseIsoDate(from), end = parseIsoDate(to); n <= end; n++) if (isSessionDay(n)) out.push(isoDate(n));
  return out;
}

/**
 * Sessions strictly after `from` up to and including `to` — how many trading
 * days away `to` is (0 when `to` is `from`; negative when `to` is earlier).
 * @example
 * tradingDaysUntil('2024-12-20', '2024-12-26'); // => 3 (23rd, 24th, 26th)
 * tradingDaysUntil('2024-12-21', '2024-12-23'); // => 1 (from a Saturday)
 */
export function tradingDaysUntil(from: string, to: string): number {
  if (to < from) return -tradingDaysUntil(to, from);
  // Weekdays by arithmetic, less the closures on weekdays in the range: a
  // year apart costs the same as a day (it was a walk of every day, each a
  // Date, per listed report of /api/earnings — issue 27).
  const start = parseIsoDate(from);
  const end = parseIsoDate(to);
  let count = weekdaysBefore(end + 1) - weekdaysBefore(start + 1);
  for (let year = civilOf(start + 1, yearOf), last = civilOf(end, yearOf); year <= last; year++) {
    for (const n of closedIn(year)) if (n > start && n <= end && weekday(n) !== 0 && weekday(n) !== 6) count--;
  }
  return count;
}

/** Trading days from `today` to the first of `dates` (YYYY-MM-DD, ascending) on or after it; null when none is. */
export function tradingDaysToNext(dates: readonly string[], today: string): number | null {
  const next = dates.find((d) => d >= today);
  return next === undefined ? null : tradingDaysUntil(today, next);
}

/** The first session strictly after `date`. */
export function nextTradingDay(date: string): string {
  let n = parseIsoDate(date) + 1;
  while (!isSessionDay(n)) n++;
  return isoDate(n);
}

/** The last session strictly before `date`. */
export function previousTradingDay(date: string): string {
  let n = parseIsoDate(date) - 1;
  while (!isSessionDay(n)) n--;
  return isoDate(n);
}

/**
 * Whether the session on `date` closes at 13:00: the day after Thanksgiving,
 * and Christmas Eve and July 3 when they are sessions.
 */
export function isEarlyClose(date: string): boolean {
  const n = parseIsoDate(date);
  if (!isSessionDay(n)) return false;
  const md = date.slice(5);
  if (md === '12-24' || md === '07-03') return true;
  const year = Number(date.slice(0, 4));
  return n === nthWeekday(year, 11, 4, 4) + 1;
}

/**
 * Open and close of the session on `date` in epoch ms.
 * @throws {RangeError} when `date` is not a trading day.
 * @example
 * sessionOpenClose('2026-07-02'); // => { open: Date.UTC(2026, 6, 2, 13, 30), close: Date.UTC(2026, 6, 2, 20), ... }
 */
export function sessionOpenClose(date: string): SessionTimes {
  const n = parseIsoDate(date);
  if (!isSessionDay(n)) throw new RangeError(`calendar: ${date} is not a trading day`);
  const offsetMs = (isDaylightTime(n) ? 4 : 5) * HOUR_MS;
  const midnight = n * DAY_MS + offsetMs;
  const earlyClose = isEarlyClose(date);
  return {
    date,
    open: midnight + 9 * HOUR_MS + 30 * MINUTE_MS,
    close: midnight + (earlyClose ? 13 : 16) * HOUR_MS,
    earlyClose,
  };
}

/** The session in progress at `epochMs` (open ≤ t < close), or `null` when the market is shut. */
export function sessionAt(epochMs: number): SessionTimes | null {
  const date = newYorkDate(epochMs);
  if (!isTradingDay(date)) return null;
  const session = sessionOpenClose(date);
  return epochMs >= session.open && epochMs < session.close ? session : null;
}
