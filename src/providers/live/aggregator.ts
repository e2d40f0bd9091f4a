/**
 * @module providers/live/aggregator
 * A session's minute bars, per symbol, rolled up into the 1h, 4h and daily
 * bars of the NYSE session (providers/session-buckets) as they arrive:
 *
 * - Each minute lands in its slot of the day (a revised or late minute
 *   replaces it; one a backfill brings again changes nothing), and the bar of
 *   every timeframe holding it is rolled up again from the day's slots with
 *   the roll-up kernel (kernels/resample `rollUpBars`): the forming bar,
 *   updated in place (`final: false`).
 * - A window closes for the whole universe once its end is `graceMs` past (a
 *   vendor sends a minute's bar 20–100 ms after the minute: Alpaca, "Market
 *   Data Update: Bars") and the stream has been heard from since its end
 *   (`heardSince`: a socket that died without a word must not close windows
 *   on half their minutes before its silence is noticed): every symbol's bar
 *   of it is sent `final`, then the window's close. Never earlier, and never
 *   while `held` (a gap being backfilled): then as soon as it is released.
 * - A minute for a window already closed (Alpaca's `updatedBars` ~30 s
 *   later, or a backfill) sends that bar again, `final` and `revised`.
 * - Minutes outside the session (or the extended session when configured)
 *   are not rolled up.
 */
import { newOhlcv, type Ohlcv } from '../../kernels/ohlcv';
import { rollUpBars } from '../../kernels/resample';
import type { Timeframe } from '../../domain/signal';
import { newYorkDate } from '../new-york-time';
import type { SessionCalendar, TradingDay } from '../session-buckets';
import type { VendorBar } from './bars';
import type { LiveBar, WindowClose } from './types';

const MINUTE_MS = 60_000;

/** The day's minutes by slot (minute index from `day.from`); `NaN` ts where none arrived. */
interface SymbolDay extends Ohlcv {
  day: TradingDay;
  /** The volume of the slots filled (kept as minutes arrive: a quote asks for it on every trade). */
  dayVolume: number;
}

interface OpenWindow {
  start: number;
  end: number;
  symbols: Set<string>;
}

export interface AggregatorOptions {
  timeframes: readonly Timeframe[];
  calendar: SessionCalendar;
  graceMs: number;
  /** Whether the stream has been heard from at or after `at` (epoch ms). */
  heardSince(at: number): boolean;
  emitBar(bar: LiveBar): void;
  emitClose(close: WindowClose): void;
}

export class SessionAggregator {
  /** Windows are held closed while this answers true (a gap being filled). */
  held = false;
  private readonly days = new Map<string, SymbolDay>();
  private readonly open = new Map<Timeframe, Map<number, OpenWindow>>();
  /** The end of the latest window closed, per timeframe. */
  private readonly closedThrough = new Map<Timeframe, number>();

  constructor(private readonly options: AggregatorOptions) {
    for (const timeframe of options.timeframes) this.open.set(timeframe, new Map());
  }

  /** A minute bar of `symbol` (its `t` is the minute's start). */
  add(symbol: string, minute: VendorBar): void {
    const { calendar } = this.options;
    const day = calendar.dayOf(minute.t);
    if (!day) return;
    const held = this.dayOf(symbol, day);
    const slot = Math.floor((minute.t - day.from) / MINUTE_MS);
    held.dayVolume += minute.v - (Number.isNaN(held.ts[slot]!) ? 0 : held.volume[slot]!);
    held.ts[slot] = day.from + slot * MINUTE_MS;
    held.open[slot] = minute.o;
    held.high[slot] = minute.h;
    held.low[slot] = minute.l;
    held.close[slot] = minute.c;
    held.volume[slot] = minute.v;
    for (const timeframe of this.options.timeframes) {
      const start = calendar.bucketStart(minute.t, timeframe);
      const end = calendar.bucketEnd(start, timeframe);
      const closed = end <= (this.closedThrough.get(timeframe) ?? -Infinity);
      if (!closed) {
        const windows = this.open.get(timeframe)!;
        let window = windows.get(start);
        if (!window) windows.set(start, (window = { start, end, symbols: new Set() }));
        window.symbols.add(symbol);
      }
      const bar = this.rolled(held, timeframe, start, end);
      if (bar) this.options.emitBar({ symbol, timeframe, bar, final: closed, revised: closed });
    }
  }

  /** The session's volume so far of `symbol` (its minutes of the day). */
  dayVolume(symbol: string, now: number): number {
    const held = this.days.get(symbol);
    return held && held.day.date === newYorkDate(now) ? held.dayVolume : 0;
  }

  /** Closes every window whose end is `graceMs` past `now` (unless held), in time order. */
  tick(now: number): void {
    if (this.held) return;
    const due: { timeframe: Timeframe; window: OpenWindow }[] = [];
    for (const [timeframe, windows] of this.open) {
      for (const window of windows.values()) if (window.end + this.options.graceMs <= now && this.options.heardSince(window.end)) due.push({ timeframe, window });
    }
    due.sort((a, b) => a.window.end - b.window.end);
    for (const { timeframe, window } of due) {
      this.open.get(timeframe)!.delete(window.start);
      this.closedThrough.set(timeframe, Math.max(this.closedThrough.get(timeframe) ?? -Infinity, window.end));
      for (const symbol of window.symbols) {
        const held = this.days.get(symbol);
        const bar = held && this.rolled(held, timeframe, window.start, window.end);
        if (bar) this.options.emitBar({ symbol, timeframe, bar, final: true, revised: false });
      }
      this.options.emitClose({ timeframe, start: window.start, end: window.end });
    }
  }

  /** The symbol's slots for `day`, started afresh on a new day. */
  private dayOf(symbol: string, day: TradingDay): SymbolDay {
    const held = this.days.get(symbol);
    if (held && held.day.date === day.date) return held;
    const slots = Math.ceil((day.until - day.from) / MINUTE_MS);
    const fresh: SymbolDay = { day, dayVolume: 0, ...newOhlcv(slots) };
    fresh.ts.fill(NaN);
    this.days.set(symbol, fresh);
    return fresh;
  }

  /** The `timeframe` bar of the window [start, end) from the day's minutes, or undefined when none arrived. */
  private rolled(held: SymbolDay, timeframe: Timeframe, start: number, end: number): VendorBar | undefined {
    const { day } = held;
    const from = Math.max(0, Math.floor((start - day.from) / MINUTE_MS));
    const to = Math.min(held.ts.length, Math.ceil((end - day.from) / MINUTE_MS));
    if (to <= from) return undefined;
    const view = (column: Float64Array) => column.subarray(from, to);
    const minutes = { ts: view(held.ts), open: view(held.open), high: view(held.high), low: view(held.low), close: view(held.close), volume: view(held.volume) };
    // Slots with no minute (NaN) fall in no window; the others all fall in this one.
    const rolled = rollUpBars(minutes, minutes.ts.map((t) => (Number.isNaN(t) ? NaN : start)));
    if (rolled.ts.length === 0) return undefined;
    return { t: timeframe === 'daily' ? Date.parse(`${day.date}T00:00:00Z`) : start, o: rolled.open[0]!, h: rolled.high[0]!, l: rolled.low[0]!, c: rolled.close[0]!, v: rolled.volume[0]! };
  }
}
