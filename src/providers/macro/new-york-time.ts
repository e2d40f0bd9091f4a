/**
 * @module providers/macro/new-york-time
 * Wall-clock time in America/New_York <-> UTC, by the US daylight-saving rule
 * in force since 2007 (Energy Policy Act of 2005, 15 U.S.C. §260a): EDT
 * (UTC−4) from 02:00 local on the second Sunday of March to 02:00 local on
 * the first Sunday of November, EST (UTC−5) otherwise. Release calendars are
 * published in Eastern Time, so this is all the time-zone logic they need;
 * the tests hold it to the runtime's IANA zone data.
 *
 * @example
 * new Date(newYorkToUtc('2025-03-12', '08:30')).toISOString(); // => '2025-03-12T12:30:00.000Z'
 */

const HOUR = 3_600_000;

/** Day of the month of the `nth` Sunday of `month` (1-12) in `year`. */
function nthSunday(year: number, month: number, nth: number): number {
  const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return 1 + ((7 - firstWeekday) % 7) + 7 * (nth - 1);
}

function checkYear(year: number): void {
  if (!Number.isInteger(year) || year < 2007) {
    throw new RangeError(`new-york-time: the DST rule here holds from 2007 on, got year ${year}`);
  }
}

/**
 * Epoch ms of a New York wall-clock time. The skipped spring hour (02:00-02:59)
 * is read as EST; the repeated autumn hour (01:00-01:59) as its first, EDT, pass.
 * @param date `YYYY-MM-DD`
 * @param time `HH:MM`, 24-hour
 * @throws {RangeError} on a malformed date or time, or a year before 2007.
 */
export function newYorkToUtc(date: string, time: string): number {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) throw new RangeError(`new-york-time: expected YYYY-MM-DD and HH:MM, got '${date}' '${time}'`);
  const [year, month, day, hour, minute] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as [
    number, number, number, number, number,
  ];
  checkYear(year);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(wall);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1 || hour > 23 || minute > 59) {
    throw new RangeError(`new-york-time: no such wall time '${date} ${time}'`);
  }
  const minutes = hour * 60 + minute;
  let edt: boolean;
  if (month > 3 && month < 11) edt = true;
  else if (month === 3) {
    const start = nthSunday(year, 3, 2);
    edt = day > start || (day === start && minutes >= 120);
  } else if (month === 11) {
    const end = nthSunday(year, 11, 1);
    edt = day < end || (day === end && minutes < 120);
  } else edt = false;
  return wall + (edt ? 4 : 5) * HOUR;
}

/** The UTC offset in hours (−4 or −5) New York observes at instant `epochMs`. */
export function newYorkOffsetHours(epochMs: number): -4 | -5 {
  // Year boundaries sit far from either transition, so EST is safe for finding the year.
  const year = new Date(epochMs - 5 * HOUR).getUTCFullYear();
  checkYear(year);
  const start = Date.UTC(year, 2, nthSunday(year, 3, 2), 7); // 02:00 EST
  const end = Date.UTC(year, 10, nthSunday(year, 11, 1), 6); // 02:00 EDT
  return epochMs >= start && epochMs < end ? -4 : -5;
}

/** The New York calendar date (`YYYY-MM-DD`) at instant `epochMs`. */
export function newYorkDate(epochMs: number): string {
  return new Date(epochMs + newYorkOffsetHours(epochMs) * HOUR).toISOString().slice(0, 10);
}
