/**
 * @module providers/csv/timestamps
 * Reads the date and time cells found in vendor OHLCV exports without a regular
 * expression per row (a file holds tens of thousands of them):
 *
 * - ISO 8601 calendar dates `YYYY-MM-DD` (Yahoo, Alpha Vantage, Stooq-style `YYYYMMDD`),
 * - ISO 8601 date-times `YYYY-MM-DD[ T]HH:MM[:SS[.fff]]` with an optional offset
 *   `Z`, `±HH:MM`, `±HHMM` or `±HH` (pandas writes `2024-01-02 00:00:00-05:00`),
 * - US `M/D/YYYY[ HH:MM[:SS]]` (spreadsheet exports) and `YYYY/MM/DD`,
 * - epoch seconds (10 digits) or milliseconds (13 digits).
 *
 * A daily bar keeps the calendar date *as written*: a tz-aware
 * `1998-12-22 00:00:00-05:00` is the 1998-12-22 session, not 05:00 UTC of it.
 * An intraday bar is an instant; a naive wall time is read in the zone given to
 * {@link zoneOffsetReader} (UTC when none is set).
 *
 * @example
 * parseTimestamp('2023-06-30', true, utc);                 // => Date.UTC(2023, 5, 30)
 * parseTimestamp('2024-08-02 09:30:00-04:00', false, utc); // => Date.UTC(2024, 7, 2, 13, 30)
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Maps a naive wall-clock time (its fields read as if UTC) to that zone's offset from UTC in ms. */
export type ZoneOffset = (wallMs: number) => number;

/** Naive times are UTC. */
export const utc: ZoneOffset = () => 0;

/** The value of the decimal digits `s[from, to)`, or NaN if any is missing or not a digit. */
function digits(s: string, from: number, to: number): number {
  if (to > s.length || from >= to) return NaN;
  let value = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    value = value * 10 + d;
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** 00:00 UTC of a calendar date, or NaN when the fields do not name a real date. */
function calendarDay(year: number, month: number, day: number): number {
  if (!(year >= 1800 && year <= 9999 && month >= 1 && month <= 12 && day >= 1)) return NaN;
  if (day > daysInMonth(year, month)) return NaN;
  return daysFromCivil(year, month, day) * DAY;
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date, H. Hinnant's
 * `days_from_civil` (https://howardhinnant.github.io/date_algorithms.html);
 * equals `Date.UTC(y, m - 1, d) / 864e5` without the native call per row.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * Reads `HH:MM[:SS[.fff]][offset]` starting at `at`; returns the time of day in
 * ms plus, through `zone`, whether an explicit offset was found.
 */
function timeOfDay(s: string, at: number, zone: { offsetMs: number; explicit: boolean }): number {
  zone.explicit = false;
  zone.offsetMs = 0;
  const hh = digits(s, at, at + 2);
  const mm = s.charCodeAt(at + 2) === 58 ? digits(s, at + 3, at + 5) : NaN; // ':'
  if (!(hh <= 24 && mm <= 59)) return NaN;
  let ms = hh * HOUR + mm * MINUTE;
  let i = at + 5;
  if (s.charCodeAt(i) === 58) {
    const ss = digits(s, i + 1, i + 3);
    if (!(ss <= 60)) return NaN;
    ms += ss * 1000;
    i += 3;
    if (s.charCodeAt(i) === 46) { // '.' fractional seconds: keep milliseconds
      let j = i + 1;
      let scale = 100;
      while (j < s.length && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) {
        ms += (s.charCodeAt(j) - 48) * scale;
        scale /= 10;
        j++;
      }
      ms = Math.round(ms);
      i = j;
    }
  }
  if (i >= s.length) return ms;
  const sign = s[i];
  if ((sign === 'Z' || sign === 'z') && i + 1 === s.length) {
    zone.explicit = true;
    return ms;
  }
  if (sign !== '+' && sign !== '-') return NaN;
  const oh = digits(s, i + 1, i + 3);
  const rest = s.length - (i + 3);
  const om = rest === 0 ? 0 : rest === 3 && s[i + 3] === ':' ? digits(s, i + 4, i + 6) : rest === 2 ? digits(s, i + 3, i + 5) : NaN;
  if (!(oh <= 14 && om <= 59)) return NaN;
  zone.explicit = true;
  zone.offsetMs = (sign === '-' ? -1 : 1) * (oh * HOUR + om * MINUTE);
  return ms;
}

const scratch = { offsetMs: 0, explicit: false };

/**
 * Epoch ms of one date/time cell: for `daily`, 00:00 UTC of the calendar date as
 * written; otherwise the instant. NaN when the cell is not a supported format.
 *
 * @param text the cell, already trimmed of quotes
 * @param daily keep the written session date rather than the instant
 * @param zone offset of naive wall times (intraday only)
 */
export function parseTimestamp(text: string, daily: boolean, zone: ZoneOffset): number {
  const s = text.charCodeAt(0) === 32 || text.charCodeAt(text.length - 1) === 32 ? text.trim() : text;
  return timestampIn(s, 0, s.length, daily, zone);
}

/** {@link parseTimestamp} of `line[from, to)`, read in place (the parser's hot path). */
export function timestampIn(line: string, from: number, to: number, daily: boolean, zone: ZoneOffset): number {
  if (from !== 0 || to !== line.length) {
    // Only the ISO date fast path reads in place; other layouts are rare enough to slice.
    if (to - from === 10 && line.charCodeAt(from + 4) === 45 && line.charCodeAt(from + 7) === 45) {
      const day = calendarDay(digits(line, from, from + 4), digits(line, from + 5, from + 7), digits(line, from + 8, from + 10));
      return daily || Number.isNaN(day) ? day : day - zone(day);
    }
    return parseTimestamp(line.slice(from, to), daily, zone);
  }
  const s = line;
  let day: number;
  let timeAt: number;
  if (s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45) { // YYYY-MM-DD
    day = calendarDay(digits(s, 0, 4), digits(s, 5, 7), digits(s, 8, 10));
    timeAt = 11;
  } else {
    const slash1 = s.indexOf('/');
    if (slash1 > 0) { // M/D/YYYY
      const slash2 = s.indexOf('/', slash1 + 1);
      if (slash2 < 0) return NaN;
      const space = s.indexOf(' ', slash2);
      const end = space < 0 ? s.length : space;
      day = slash1 === 4 // YYYY/MM/DD, else the US order
        ? calendarDay(digits(s, 0, 4), digits(s, 5, slash2), digits(s, slash2 + 1, end))
        : calendarDay(digits(s, slash2 + 1, end), digits(s, 0, slash1), digits(s, slash1 + 1, slash2));
      timeAt = space < 0 ? s.length : space + 1;
    } else {
      const n = digits(s, 0, s.length);
      if (Number.isNaN(n)) return NaN;
      if (s.length === 8) day = calendarDay(Math.floor(n / 10_000), Math.floor(n / 100) % 100, n % 100); // YYYYMMDD
      else if (s.length === 10 || s.length === 13) { // epoch seconds / ms
        const instant = s.length === 10 ? n * 1000 : n;
        return daily ? instant - (((instant % DAY) + DAY) % DAY) : instant;
      } else return NaN;
      timeAt = s.length;
    }
  }
  if (Number.isNaN(day)) return NaN;
  if (timeAt < s.length) {
    const sep = s.charCodeAt(timeAt - 1);
    if (sep !== 32 && sep !== 84 && sep !== 116) return NaN; // ' ', 'T', 't'
    const ms = timeOfDay(s, timeAt, scratch);
    if (Number.isNaN(ms)) return NaN;
    if (daily) return day;
    const wall = day + ms;
    return scratch.explicit ? wall - scratch.offsetMs : wall - zone(wall);
  }
  return daily ? day : day - zone(day);
}

/**
 * The offset of an IANA time zone (e.g. `America/New_York`, where yfinance
 * writes naive intraday times) for naive wall times, via `Intl` and cached per
 * hour. The wall time is resolved by the usual two-step guess, so a time in the
 * spring-forward gap lands an hour later and a repeated autumn hour takes its
 * first occurrence's offset only when the guess falls there.
 */
export function zoneOffsetReader(timeZone: string): ZoneOffset {
  if (timeZone.toUpperCase() === 'UTC') return utc;
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const byHour = new Map<number, number>();
  /** Offset (ms) of the zone at a true instant. */
  const offsetAt = (instant: number): number => {
    const key = Math.floor(instant / HOUR);
    let cached = byHour.get(key);
    if (cached === undefined) {
      const at = key * HOUR;
      const p: Record<string, number> = {};
      for (const part of format.formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
      const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
      cached = wall - at;
      byHour.set(key, cached);
    }
    return cached;
  };
  return (wallMs) => offsetAt(wallMs - offsetAt(wallMs));
}
