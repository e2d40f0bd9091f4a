/**
 * @module providers/session-buckets
 * Which 1h, 4h or daily bar a shorter bar (a vendor's minute or half hour)
 * belongs to, on the NYSE calendar (providers/calendar): the windows every
 * provider's intraday bars use (the synthetic market's, Yahoo's 60-minute
 * bars), so bars rolled up from a vendor's minutes line up with the rest.
 *
 * - 1h: hours from the session's open (09:30, 10:30, …, 15:30; the last one
 *   30 minutes, or 12:30–13:00 on an early-close day).
 * - 4h: 09:30–13:30 and 13:30–close (09:30–13:00 alone on an early close).
 * - daily: the session, stamped 00:00 UTC of its New York date, as every
 *   provider's daily bars are (providers/types `BarSeries`).
 *
 * Regular hours only, unless `extendedHours`: then the vendors' extended
 * session, 04:00 to 20:00 New York (Alpaca's bars and Polygon's aggregates
 * cover "pre-market, regular, and after-hours sessions"), joins the day. The
 * regular session's windows stay as they are; pre-market windows end at the
 * open (08:30–09:30, 07:30–08:30, …; 05:30–09:30 for 4h) and after-hours
 * windows start at the close (16:00–17:00, …; 16:00–20:00 for 4h).
 *
 * Vendors stamp intraday bars with the start of their window (Alpaca,
 * "Market Data Update: Bars": a 9:31–9:32 bar is labelled 9:31; Polygon's `t`
 * and `s` are the window's start), so a bar belongs where its stamp falls.
 *
 * @example
 * bucketStart(Date.parse('2025-04-24T14:45:00Z'), '1h'); // => Date.parse('2025-04-24T14:30:00Z') (10:30 EDT)
 * bucketStart(Date.parse('2025-04-24T12:00:00Z'), '1h'); // => NaN (08:00 EDT, pre-market)
 */
import type { Timeframe } from '../domain/signal';
import { isTradingDay, sessionOpenClose, type SessionTimes } from './calendar';
import { newYorkDate, newYorkToUtc } from './new-york-time';

const HOUR_MS = 3_600_000;
const WINDOW_MS: Record<Exclude<Timeframe, 'daily'>, number> = { '1h': HOUR_MS, '4h': 4 * HOUR_MS };

/** The regular session and, with extended hours, the span the day's bars may cover. */
export interface TradingDay extends SessionTimes {
  /** First instant a bar of this day may start: the open, or 04:00 New York with extended hours. */
  from: number;
  /** The instant the day's last bar must start before: the close, or 20:00 New York with extended hours. */
  until: number;
}

/**
 * Remembers the last day asked: a stream of minutes asks about the same day
 * thousands of times, and the calendar's answer for a date never changes.
 */
export class SessionCalendar {
  private day: string | undefined;
  private answer: TradingDay | null = null;

  constructor(readonly extendedHours = false) {}

  /** The trading day whose bars may include `ts`, or null on a weekend, a holiday or outside its hours. */
  dayOf(ts: number): TradingDay | null {
    const date = newYorkDate(ts);
    if (date !== this.day) {
      this.day = date;
      this.answer = tradingDay(date, this.extendedHours);
    }
    const day = this.answer;
    return day && ts >= day.from && ts < day.until ? day : null;
  }

  /** Start of the `timeframe` bar holding a bar stamped `ts`, or NaN when it belongs to none. */
  bucketStart(ts: number, timeframe: Timeframe): number {
    const day = this.dayOf(ts);
    if (!day) return NaN;
    if (timeframe === 'daily') return Date.parse(`${day.date}T00:00:00Z`);
    const size = WINDOW_MS[timeframe];
    if (ts < day.open) return day.open - Math.ceil((day.open - ts) / size) * size;
    if (ts >= day.close) return day.close + Math.floor((ts - day.close) / size) * size;
    return day.open + Math.floor((ts - day.open) / size) * size;
  }

  /**
   * When the `timeframe` bar starting at `start` ends (exclusive): a full
   * window, cut at the close (or, with extended hours, 20:00) of its day.
   */
  bucketEnd(start: number, timeframe: Timeframe): number {
    if (timeframe === 'daily') {
      const day = tradingDay(new Date(start).toISOString().slice(0, 10), this.extendedHours);
      return day ? day.until : start;
    }
    const end = start + WINDOW_MS[timeframe];
    // A pre-market window may start before 04:00 (03:30–04:30): its day is the one its end falls in.
    const day = this.dayOf(start) ?? this.dayOf(end - 1);
    if (!day) return end;
    if (start < day.open) return Math.min(end, day.open);
    if (start < day.close) return Math.min(end, day.close); // the session's last hour, 15:30–16:00
    return Math.min(end, day.until);
  }
}

/** The trading day of a New York date, or null when the exchange is shut. */
export function tradingDay(date: string, extendedHours = false): TradingDay | null {
  if (!isTradingDay(date)) return null;
  const session = sessionOpenClose(date);
  return extendedHours ? { ...session, from: newYorkToUtc(date, '04:00'), until: newYorkToUtc(date, '20:00') } : { ...session, from: session.open, until: session.close };
}

/**
 * Start of the `timeframe` bar holding a bar stamped `ts` (regular hours
 * unless `extendedHours`), or NaN when it belongs to none. For many bars keep
 * one `SessionCalendar` instead.
 */
export function bucketStart(ts: number, timeframe: Timeframe, extendedHours = false): number {
  return new SessionCalendar(extendedHours).bucketStart(ts, timeframe);
}

/** The windows of each bar's stamp, for `rollUpBars` (kernels/resample). */
export function bucketsOf(ts: Float64Array, timeframe: Timeframe, extendedHours = false): Float64Array {
  const calendar = new SessionCalendar(extendedHours);
  return ts.map((t) => calendar.bucketStart(t, timeframe));
}
