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
 * Sessions run 09:30–16:00 America/New_York; the day after Thanksgiving,
 * Christmas Eve and July 3 close at 13:00 when they are sessions. New York
 * time follows the US daylight-saving rules (15 U.S.C. §260a): since 2007 EDT
 * from the second Sunday of March to the first Sunday of November; 1987–2006
 * from the first Sunday of April to the last Sunday of October. The
 * changeover happens at 02:00 on a Sunday, so a session day has one offset.
 *
 * @example
 * isTradingDay('2025-01-09'); // => false (national day of mourning, President Carter)
 * nextTradingDay('2024-11-27'); // => '2024-11-29'
 * sessionOpenClose('2024-11-29').close; // => Date.UTC(2024, 10, 29, 18, 0), 13:00 EST
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** First and last year the rules here are checked for. */
export const CALENDAR_FIRST_YEAR = 2000;
export const CALENDAR_LAST_YEAR = 2035;

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

/**
 * Days since 1970-01-01 of a UTC calendar date (month 1–12; a month or day
 * past the end runs on into the next, as with `Date.UTC`), by integer
 * arithmetic (H. Hinnant, `days_from_civil`): the daylight-time rule asks for
 * it on every New York date made, a quote's on every /api/snapshot. Years
 * 0–99 and fractions are left to `Date.UTC` (which reads 0–99 as 1900–1999).
 */
function dayNumber(year: number, month: number, day: number): number {
  if (!(year >= 100 && Number.isInteger(year) && Number.isInteger(month) && Number.isInteger(day))) return Date.UTC(year, month - 1, day) / DAY_MS;
  const y = year + Math.floor((month - 1) / 12);
  const m = ((((month - 1) % 12) + 12) % 12) + 1;
  const shifted = m <= 2 ? y - 1 : y; // the year from March 1st
  const era = Math.floor(shifted / 400);
  const yoe = shifted - era * 400; // [0, 399]
  const doy = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/**
 * The proleptic Gregorian year, month (1–12) and day of an integral day
 * number, by integer arithmetic (H. Hinnant, "chrono-Compatible Low-Level
 * Date Algorithms", `civil_from_days`): no Date object, so the dates of the
 * request path (a quote's New York date on every /api/snapshot) allocate
 * nothing but their string. Calls `into(year, month, day)`.
 */
function civilOf<T>(dayNo: number, into: (year: number, month: number, day: number) => T): T {
  const z = dayNo + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097; // [0, 146096]
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365); // [0, 399]
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)); // [0, 365], from March 1st
  const mp = Math.floor((5 * doy + 2) / 153); // [0, 11], from March
  const month = mp < 10 ? mp + 3 : mp - 9;
  return into(yoe + era * 400 + (month <= 2 ? 1 : 0), month, doy - Math.floor((153 * mp + 2) / 5) + 1);
}

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const isoOf = (year: number, month: number, day: number) => `${year}-${twoDigits(month)}-${twoDigits(day)}`;
const yearOf = (year: number) => year;

/** `YYYY-MM-DD` of a day number (the day it falls in, when not integral). */
export function isoDate(dayNo: number): string {
  const day = Math.floor(dayNo);
  // Years of four digits by arithmetic; anything else (±YYYYYY, an invalid number: RangeError) as Date writes it.
  if (day >= -354_285 && day <= 2_932_896) return civilOf(day, isoOf); // 1000-01-01 .. 9999-12-31
  return new Date(dayNo * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Day number of a `YYYY-MM-DD` date.
 * @throws {RangeError} on a malformed or impossible date, or a year outside 2000–2035.
 */
export function parseIsoDate(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`calendar: expected YYYY-MM-DD, got '${date}'`);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const n = dayNumber(year, month, day);
  if (isoDate(n) !== date) throw new RangeError(`calendar: no such date '${date}'`);
  checkYear(year);
  return n;
}

function checkYear(year: number): void {
  if (year < CALENDAR_FIRST_YEAR || year > CALENDAR_LAST_YEAR) {
    throw new RangeError(`calendar: rules cover ${CALENDAR_FIRST_YEAR}–${CALENDAR_LAST_YEAR}, got ${year}`);
  }
}

/** 0 = Sunday … 6 = Saturday. 1970-01-01 was a Thursday. */
function weekday(dayNo: number): number {
  return (((dayNo + 4) % 7) + 7) % 7;
}

/** Day number of the `nth` `wd` weekday of a month; `nth` = -1 is the last. */
function nthWeekday(year: number, month: number, wd: number, nth: number): number {
  if (nth > 0) {
    const first = dayNumber(year, month, 1);
    return first + ((wd - weekday(first) + 7) % 7) + 7 * (nth - 1);
  }
  const last = dayNumber(year, month + 1, 1) - 1;
  return last - ((weekday(last) - wd + 7) % 7);
}

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

/** The first and last day numbers of daylight time (EDT) in `year`: the changeover Sundays. */
function daylightSundays(year: number): [start: number, end: number] {
  return year >= 2007
    ? [nthWeekday(year, 3, 0, 2), nthWeekday(year, 11, 0, 1)]
    : [nthWeekday(year, 4, 0, 1), nthWeekday(year, 10, 0, -1)];
}

/** Whether New York keeps daylight time (EDT, UTC−4) after 02:00 on the day `dayNo`. */
function isDaylightTime(dayNo: number): boolean {
  const [start, end] = daylightSundays(new Date(dayNo * DAY_MS).getUTCFullYear());
  return dayNo >= start && dayNo < end;
}

/**
 * The UTC offset in hours New York keeps at noon on `date`: −4 (EDT) or −5 (EST).
 * On the changeover Sundays it is the offset after 02:00.
 */
export function newYorkUtcOffset(date: string): -4 | -5 {
  return isDaylightTime(parseIsoDate(date)) ? -4 : -5;
}

/**
 * The UTC offset in hours (−4 EDT or −5 EST) New York keeps at the instant `epochMs`.
 * @example
 * newYorkOffsetHours(Date.parse('2025-03-09T07:00:00Z')); // => -4 (02:00 EST became 03:00 EDT)
 */
export function newYorkOffsetHours(epochMs: number): -4 | -5 {
  // Year boundaries sit far from either changeover, so the EST year is safe.
  const year = civilOf(Math.floor((epochMs - 5 * HOUR_MS) / DAY_MS), yearOf);
  const [start, end] = daylightSundays(year);
  // 02:00 EST on the spring Sunday is 07:00 UTC; 02:00 EDT on the autumn Sunday is 06:00 UTC.
  return epochMs >= start * DAY_MS + 7 * HOUR_MS && epochMs < end * DAY_MS + 6 * HOUR_MS ? -4 : -5;
}

/**
 * The New York calendar date (`YYYY-MM-DD`) at the instant `epochMs`.
 * @example
 * newYorkDate(Date.UTC(2026, 10, 21, 3, 0)); // => '2026-11-20' (22:00 EST)
 */
export function newYorkDate(epochMs: number): string {
  return isoDate(Math.floor((epochMs + newYorkOffsetHours(epochMs) * HOUR_MS) / DAY_MS));
}

/**
 * Epoch ms of a New York wall-clock time. The skipped spring hour (02:00–02:59)
 * is read as EST; the repeated autumn hour (01:00–01:59) as its first, EDT, pass.
 * @throws {RangeError} on a malformed or impossible date or time.
 * @example
 * newYorkToUtc('2025-03-12', '08:30'); // => Date.parse('2025-03-12T12:30:00Z')
 */
export function newYorkToUtc(date: string, time: string): number {
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  const hour = t ? Number(t[1]) : NaN;
  const minute = t ? Number(t[2]) : NaN;
  if (!(hour <= 23 && minute <= 59)) throw new RangeError(`calendar: expected HH:MM, got '${time}'`);
  const day = parseIsoDate(date);
  const [start, end] = daylightSundays(new Date(day * DAY_MS).getUTCFullYear());
  const minutes = hour * 60 + minute;
  const edt = (day > start || (day === start && minutes >= 120)) && (day < end || (day === end && minutes < 120));
  return day * DAY_MS + minutes * MINUTE_MS + (edt ? 4 : 5) * HOUR_MS;
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
