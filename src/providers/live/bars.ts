/**
 * @module providers/live/bars
 * A market-data vendor's bars (Alpaca's and Polygon's both carry a window
 * start `t` and `o`, `h`, `l`, `c`, `v`) made into the standard `BarSeries`:
 *
 * - daily: stamped 00:00 UTC of the session's New York date, as every
 *   provider's daily bars are (Alpaca stamps a day at its New York midnight,
 *   `2022-04-11T04:00:00Z`; Polygon at the same instant in epoch ms).
 * - 1h and 4h: rolled up on the NYSE session (providers/session-buckets) from
 *   the vendor's half hours. Neither vendor's own hour bars fit: both align
 *   hours to the clock (Alpaca's `1Hour` bar stamped 13:00Z runs 09:00–10:00
 *   New York, half of it pre-market), while our hours start at the 09:30 open
 *   like Yahoo's and the simulator's; half hours nest in both grids.
 *
 * @example
 * dailySeries('SPY', [{ t: Date.parse('2022-04-11T04:00:00Z'), o: 1, h: 2, l: 0.5, c: 1.5, v: 10 }], 'alpaca').ts[0];
 * // => Date.parse('2022-04-11T00:00:00Z')
 */
import { newOhlcv } from '../../kernels/ohlcv';
import { rollUpBars } from '../../kernels/resample';
import type { Timeframe } from '../../domain/signal';
import { newYorkDate } from '../new-york-time';
import { bucketsOf } from '../session-buckets';
import type { BarSeries } from '../types';
import type { VendorBar } from './types';

export type { VendorBar } from './types';

/** The bars as a series, oldest first, one bar a stamp (a repeated stamp keeps the later bar: a vendor's correction). */
export function seriesOf(symbol: string, timeframe: Timeframe, bars: readonly VendorBar[], source: string): BarSeries {
  const sorted = [...bars].sort((a, b) => a.t - b.t);
  const kept = sorted.filter((bar, i) => i === sorted.length - 1 || sorted[i + 1]!.t !== bar.t);
  const out = newOhlcv(kept.length);
  kept.forEach((bar, i) => {
    out.ts[i] = bar.t;
    out.open[i] = bar.o;
    out.high[i] = bar.h;
    out.low[i] = bar.l;
    out.close[i] = bar.c;
    out.volume[i] = bar.v;
  });
  return { symbol, timeframe, source, ...out };
}

/** Daily bars stamped 00:00 UTC of their New York session date. */
export function dailySeries(symbol: string, bars: readonly VendorBar[], source: string): BarSeries {
  return seriesOf(symbol, 'daily', bars.map((bar) => ({ ...bar, t: Date.parse(`${newYorkDate(bar.t)}T00:00:00Z`) })), source);
}

/** Session 1h or 4h bars rolled up from shorter bars (half hours, minutes) that nest in the session's windows. */
export function sessionSeries(symbol: string, timeframe: Exclude<Timeframe, 'daily'>, bars: readonly VendorBar[], source: string, extendedHours = false): BarSeries {
  const short = seriesOf(symbol, timeframe, bars, source);
  return { symbol, timeframe, source, ...rollUpBars(short, bucketsOf(short.ts, timeframe, extendedHours)) };
}
