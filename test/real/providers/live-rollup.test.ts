/**
 * The roll-up of Alpaca's recorded SPY minutes (2025-04-24/25, consolidated
 * tape) against another vendor's aggregates of the same trades: ThetaData's
 * SIP 5-minute bars (intraday/thetadata_spy_5m) and Yahoo's daily bar
 * (daily_spy_with_dividends). The real-data run: neither source states a
 * licence, so they stay out of test/fixtures.
 *
 * No recording holds Alpaca's own 1h or daily bars of these minutes, so the
 * vendor-against-itself check is not possible here; this is the closest one:
 * two vendors that build bars by the SIP's rules from the same tape.
 */
import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Ohlcv } from '../../../src/kernels/ohlcv';
import { rollUpBars } from '../../../src/kernels/resample';
import { newYorkToUtc } from '../../../src/providers/new-york-time';
import { bucketsOf } from '../../../src/providers/session-buckets';
import { sharedData } from '../../helpers/shared-data';

const text = (path: string) => (path.endsWith('.gz') ? gunzipSync(readFileSync(path)).toString('utf8') : readFileSync(path, 'utf8'));
const lines = (path: string) => text(path).trim().split('\n').slice(1).map((line) => line.split(','));
const columns = (rows: number[][]): Ohlcv => ({
  ts: Float64Array.from(rows, (r) => r[0]!),
  open: Float64Array.from(rows, (r) => r[1]!),
  high: Float64Array.from(rows, (r) => r[2]!),
  low: Float64Array.from(rows, (r) => r[3]!),
  close: Float64Array.from(rows, (r) => r[4]!),
  volume: Float64Array.from(rows, (r) => r[5]!),
});

/** Alpaca's minutes (`timestamp` UTC with offset). */
function alpacaMinutes(): Ohlcv {
  return columns(lines(join(sharedData('intraday', 'alpaca_spy_1min'), 'SPY_1min.csv')).map(([t, , o, h, l, c, v]) => [Date.parse(t!.replace(' ', 'T')), +o!, +h!, +l!, +c!, +v!]));
}

/** ThetaData's regular-session 5-minute bars of the two days (`timestamp` naive New York time; no-trade slots are zeros). */
function thetaFiveMinutes(): Ohlcv {
  const rows = lines(join(sharedData('intraday', 'thetadata_spy_5m'), 'spy_5m_20250401_20250430.csv.gz'))
    .filter(([t, , , , c]) => (t!.startsWith('2025-04-24') || t!.startsWith('2025-04-25')) && Number(c) > 0)
    .map(([t, o, h, l, c, v]) => [newYorkToUtc(t!.slice(0, 10), t!.slice(11, 16)), +o!, +h!, +l!, +c!, +v!]);
  const inSession = bucketsOf(Float64Array.from(rows, (r) => r[0]!), '1h');
  return columns(rows.filter((_, i) => !Number.isNaN(inSession[i]!)));
}

const FIVE = 5 * 60_000;
/** Each regular-session minute's clock 5-minute window. */
const fiveMinuteWindows = (ts: Float64Array) => {
  const session = bucketsOf(ts, '1h');
  return ts.map((t, i) => (Number.isNaN(session[i]!) ? NaN : Math.floor(t / FIVE) * FIVE));
};

function differences(mine: Ohlcv, theirs: Ohlcv): string[] {
  expect(Array.from(mine.ts)).toEqual(Array.from(theirs.ts));
  const out: string[] = [];
  for (let i = 0; i < mine.ts.length; i++) {
    for (const field of ['open', 'high', 'low', 'close', 'volume'] as const) {
      if (mine[field][i] !== theirs[field][i]) out.push(`${new Date(mine.ts[i]!).toISOString().slice(0, 16)} ${field} ${mine[field][i]} vs ${theirs[field][i]}`);
    }
  }
  return out;
}

describe('Alpaca minutes rolled up, against ThetaData’s SIP bars of the same trades', () => {
  const minutes = alpacaMinutes();
  const theta = thetaFiveMinutes();

  it('gives 150 of the 156 regular-session 5-minute bars identical in all five fields', () => {
    const mine = rollUpBars(minutes, fiveMinuteWindows(minutes.ts));
    expect(mine.ts.length).toBe(156);
    expect(differences(mine, theta)).toEqual([
      '2025-04-24T13:30 open 536.74 vs 536.715', // ThetaData opens on the opening cross print
      '2025-04-24T16:45 volume 400097 vs 400220',
      '2025-04-24T16:55 low 544.95 vs 544.787048', // a print one vendor's condition rules leave out of high/low
      '2025-04-24T19:35 volume 1063052 vs 1073552',
      '2025-04-24T19:40 volume 807549 vs 807551',
      '2025-04-25T19:40 volume 1066471 vs 1066473',
    ]);
  });

  it('gives the same session hours from either vendor’s bars, but for the hours holding those differences (the 12:55 low is not its hour’s low)', () => {
    const fromMinutes = rollUpBars(minutes, bucketsOf(minutes.ts, '1h'));
    const fromTheta = rollUpBars(theta, bucketsOf(theta.ts, '1h'));
    expect(fromMinutes.ts.length).toBe(14);
    expect(differences(fromMinutes, fromTheta)).toEqual([
      '2025-04-24T13:30 open 536.74 vs 536.715',
      '2025-04-24T16:30 volume 5198076 vs 5198199', // the 12:45 bar's 123 shares
      '2025-04-24T19:30 volume 10603371 vs 10613873', // 10,500 + 2 shares of 15:35 and 15:40
      '2025-04-25T19:30 volume 8236246 vs 8236248',
    ]);
  });

  it('meets Yahoo’s daily bar of 2025-04-24 at its high and low; the open, close and volume are the auctions’ and the extended hours’', () => {
    const daily = rollUpBars(minutes, bucketsOf(minutes.ts, 'daily'));
    const yahoo = lines(join(sharedData('daily_spy_with_dividends'), 'SPY.csv.gz')).find(([date]) => date === '2025-04-24')!.map(Number);
    const [, open, high, low, close, volume] = yahoo;
    expect(daily.high[0]!).toBeCloseTo(high!, 2);
    expect(daily.low[0]!).toBeCloseTo(low!, 2);
    expect([daily.open[0], open!.toFixed(2)]).toEqual([536.74, '536.72']); // Yahoo: the official (opening cross) open
    expect([daily.close[0], close!.toFixed(2)]).toEqual([546.54, '546.69']); // Yahoo: the closing cross, printed after 16:00:00
    expect([daily.volume[0], volume]).toEqual([51_951_692, 63_748_600]);
  });
});
