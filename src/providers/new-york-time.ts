/**
 * @module providers/new-york-time
 * Dates and New York time without Date objects on the hot paths: day numbers
 * of the proleptic Gregorian calendar by integer arithmetic (H. Hinnant,
 * "chrono-Compatible Low-Level Date Algorithms"), `YYYY-MM-DD` dates, weekdays,
 * and the US daylight-saving rules New York keeps (15 U.S.C. §260a): since
 * 2007 EDT from the second Sunday of March to the first Sunday of November;
 * 1987–2006 from the first Sunday of April to the last Sunday of October. The
 * changeover happens at 02:00 on a Sunday, so a session day has one offset.
 * The trading calendar (providers/calendar) is built on these.
 *
 * @example
 * newYorkDate(Date.UTC(2026, 10, 21, 3, 0)); // => '2026-11-20' (22:00 EST)
 * newYorkToUtc('2025-03-12', '08:30'); // => Date.parse('2025-03-12T12:30:00Z')
 */

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;

/** First and last year the rules (these and the trading calendar's) are checked for; a date outside is refused. */
export const CALENDAR_FIRST_YEAR = 2000;
export const CALENDAR_LAST_YEAR = 2035;

/**
 * Days since 1970-01-01 of a UTC calendar date (month 1–12; a month or day
 * past the end runs on into the next, as with `Date.UTC`), by integer
 * arithmetic (H. Hinnant, `days_from_civil`): the daylight-time rule asks for
 * it on every New York date made, a quote's on every /api/snapshot. Years
 * 0–99 and fractions are left to `Date.UTC` (which reads 0–99 as 1900–1999).
 */
export function dayNumber(year: number, month: number, day: number): number {
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
export function civilOf<T>(dayNo: number, into: (year: number, month: number, day: number) => T): T {
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
export const yearOf = (year: number) => year;

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

export function checkYear(year: number): void {
  if (year < CALENDAR_FIRST_YEAR || year > CALENDAR_LAST_YEAR) {
    throw new RangeError(`calendar: rules cover ${CALENDAR_FIRST_YEAR}–${CALENDAR_LAST_YEAR}, got ${year}`);
  }
}

/** 0 = Sunday … 6 = Saturday. 1970-01-01 was a Thursday. */
export function weekday(dayNo: number): number {
  return (((dayNo + 4) % 7) + 7) % 7;
}

/** Day number of the `nth` `wd` weekday of a month; `nth` = -1 is the last. */
export function nthWeekday(year: number, month: number, wd: number, nth: number): number {
  if (nth > 0) {
    const first = dayNumber(year, month, 1);
    return first + ((wd - weekday(first) + 7) % 7) + 7 * (nth - 1);
  }
  const last = dayNumber(year, month + 1, 1) - 1;
  return last - ((weekday(last) - wd + 7) % 7);
}

/** The first and last day numbers of daylight time (EDT) in `year`: the changeover Sundays. */
function daylightSundays(year: number): [start: number, end: number] {
  return year >= 2007
    ? [nthWeekday(year, 3, 0, 2), nthWeekday(year, 11, 0, 1)]
    : [nthWeekday(year, 4, 0, 1), nthWeekday(year, 10, 0, -1)];
}

/** Whether New York keeps daylight time (EDT, UTC−4) after 02:00 on the day `dayNo`. */
export function isDaylightTime(dayNo: number): boolean {
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
