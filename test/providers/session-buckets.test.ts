/**
 * The NYSE windows a vendor's minutes roll up into (providers/session-buckets),
 * and the roll-up of the recorded Alpaca minutes (SPY, 2025-04-24/25; volumes
 * are the consolidated tape's) into the session's 1h, 4h and daily bars. The
 * expected numbers were summed from the committed CSV with Python's `csv`
 * module, independently of this code; the cross-check against another
 * vendor's SIP bars of the same minutes is test/real/providers/live-rollup.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { rollUpBars } from '../../src/kernels/resample';
import { bucketsOf, bucketStart, SessionCalendar } from '../../src/providers/session-buckets';
import { alpacaMinutes, columnsOf, polygonFiveMinutes } from '../helpers/vendors/recordings';

const at = (iso: string) => Date.parse(iso);

describe('session windows', () => {
  it('cuts the regular session into hours from 09:30, the last one half an hour', () => {
    expect(bucketStart(at('2025-04-24T13:30:00Z'), '1h')).toBe(at('2025-04-24T13:30:00Z')); // 09:30 EDT
    expect(bucketStart(at('2025-04-24T14:29:00Z'), '1h')).toBe(at('2025-04-24T13:30:00Z'));
    expect(bucketStart(at('2025-04-24T19:59:00Z'), '1h')).toBe(at('2025-04-24T19:30:00Z')); // 15:59 → 15:30
    const calendar = new SessionCalendar();
    expect(calendar.bucketEnd(at('2025-04-24T19:30:00Z'), '1h')).toBe(at('2025-04-24T20:00:00Z'));
    expect(calendar.bucketEnd(at('2025-04-24T17:30:00Z'), '4h')).toBe(at('2025-04-24T20:00:00Z'));
    expect(calendar.bucketEnd(at('2025-04-24T00:00:00Z'), 'daily')).toBe(at('2025-04-24T20:00:00Z'));
  });

  it('leaves out pre-market, after-hours, weekends and holidays unless extended hours are asked for', () => {
    expect(bucketStart(at('2025-04-24T13:29:00Z'), '1h')).toBeNaN(); // 09:29
    expect(bucketStart(at('2025-04-24T20:00:00Z'), 'daily')).toBeNaN(); // 16:00
    expect(bucketStart(at('2025-04-26T15:00:00Z'), 'daily')).toBeNaN(); // a Saturday
    expect(bucketStart(at('2025-04-18T15:00:00Z'), 'daily')).toBeNaN(); // Good Friday
    // Extended: pre-market hours end at the open, after-hours hours start at the close.
    expect(bucketStart(at('2025-04-24T13:29:00Z'), '1h', true)).toBe(at('2025-04-24T12:30:00Z'));
    expect(bucketStart(at('2025-04-24T08:00:00Z'), '1h', true)).toBe(at('2025-04-24T07:30:00Z')); // 04:00 → 03:30–04:30
    expect(bucketStart(at('2025-04-24T20:00:00Z'), '1h', true)).toBe(at('2025-04-24T20:00:00Z'));
    expect(bucketStart(at('2025-04-24T21:15:00Z'), '4h', true)).toBe(at('2025-04-24T20:00:00Z'));
    expect(bucketStart(at('2025-04-25T00:00:00Z'), '1h', true)).toBeNaN(); // 20:00, the extended session is over
    expect(bucketStart(at('2025-04-24T07:59:00Z'), 'daily', true)).toBeNaN(); // 03:59
  });

  it('follows the early close and the change to daylight time', () => {
    // 2023-11-24 closes at 13:00 EST: the 4h day is one window, 09:30–13:00.
    const calendar = new SessionCalendar();
    expect(calendar.bucketStart(at('2023-11-24T17:55:00Z'), '4h')).toBe(at('2023-11-24T14:30:00Z'));
    expect(calendar.bucketEnd(at('2023-11-24T14:30:00Z'), '4h')).toBe(at('2023-11-24T18:00:00Z'));
    expect(calendar.bucketStart(at('2023-11-24T18:00:00Z'), '4h')).toBeNaN();
    // 09:30 is 14:30 UTC on Friday 2024-03-08 (EST) and 13:30 UTC on Monday 2024-03-11 (EDT).
    expect(calendar.bucketStart(at('2024-03-08T14:30:00Z'), '1h')).toBe(at('2024-03-08T14:30:00Z'));
    expect(calendar.bucketStart(at('2024-03-11T13:30:00Z'), '1h')).toBe(at('2024-03-11T13:30:00Z'));
    expect(calendar.bucketStart(at('2024-03-11T13:29:00Z'), '1h')).toBeNaN();
  });
});

describe('the recorded Alpaca minutes rolled up on the session', () => {
  const minutes = columnsOf(alpacaMinutes());

  it('gives the regular sessions of 2025-04-24 and 2025-04-25 as daily bars', () => {
    const daily = rollUpBars(minutes, bucketsOf(minutes.ts, 'daily'));
    expect(Array.from(daily.ts)).toEqual([at('2025-04-24T00:00:00Z'), at('2025-04-25T00:00:00Z')]);
    // Summed in Python from the 390 regular-hours rows of each day.
    expect([daily.open[0], daily.high[0], daily.low[0], daily.close[0], daily.volume[0]]).toEqual([536.74, 547.43, 535.4504, 546.54, 51_951_692]);
    expect([daily.open[1], daily.high[1], daily.low[1], daily.close[1], daily.volume[1]]).toEqual([546.65, 551.05, 543.69, 550.52, 49_924_055]);
  });

  it('gives seven session hours and two 4h blocks a day', () => {
    const hours = rollUpBars(minutes, bucketsOf(minutes.ts, '1h'));
    expect(hours.ts.length).toBe(14);
    expect([hours.open[0], hours.high[0], hours.low[0], hours.close[0], hours.volume[0]]).toEqual([536.74, 542.33, 535.4504, 542.2342, 9_628_299]);
    expect(hours.ts[6]).toBe(at('2025-04-24T19:30:00Z')); // 15:30–16:00
    expect([hours.open[6], hours.close[6], hours.volume[6]]).toEqual([544.89, 546.54, 10_603_371]);
    const blocks = rollUpBars(minutes, bucketsOf(minutes.ts, '4h'));
    expect(Array.from(blocks.ts.subarray(0, 2))).toEqual([at('2025-04-24T13:30:00Z'), at('2025-04-24T17:30:00Z')]);
    expect([blocks.open[0], blocks.high[0], blocks.low[0], blocks.close[0], blocks.volume[0]]).toEqual([536.74, 545.8479, 535.4504, 544.98, 29_081_511]);
    expect([blocks.open[1], blocks.high[1], blocks.low[1], blocks.close[1], blocks.volume[1]]).toEqual([544.98, 547.43, 544.28, 546.54, 22_870_181]);
  });

  it('rolls hours into the same blocks and days as the minutes do (the windows nest)', () => {
    const hours = rollUpBars(minutes, bucketsOf(minutes.ts, '1h'));
    expect(rollUpBars(hours, bucketsOf(hours.ts, '4h'))).toEqual(rollUpBars(minutes, bucketsOf(minutes.ts, '4h')));
    expect(rollUpBars(hours, bucketsOf(hours.ts, 'daily'))).toEqual(rollUpBars(minutes, bucketsOf(minutes.ts, 'daily')));
  });

  it('takes in the extended session when asked: 04:00–20:00 New York', () => {
    const daily = rollUpBars(minutes, bucketsOf(minutes.ts, 'daily', true));
    expect(daily.volume[0]).toBe(64_139_008); // every 2025-04-24 row of the file (it starts at 04:00 EDT)
    const preMarket = rollUpBars(minutes, bucketsOf(minutes.ts, '1h', true));
    const i = preMarket.ts.indexOf(at('2025-04-24T12:30:00Z')); // 08:30–09:30
    expect([preMarket.open[i], preMarket.close[i], preMarket.volume[i]]).toEqual([534.88, 536.74, 982_956]);
  });
});

describe('the recorded Polygon 5-minute aggregates rolled up on the session', () => {
  it('keeps the early close of 2023-11-24 to 09:30–13:00 and starts 2024-03-11 an hour earlier in UTC', () => {
    const xlk = columnsOf(polygonFiveMinutes('XLK'));
    const hours = rollUpBars(xlk, bucketsOf(xlk.ts, '1h'));
    const day = (iso: string) => Array.from(hours.ts).filter((t) => new Date(t).toISOString().startsWith(iso));
    expect(day('2023-11-24').map((t) => new Date(t).toISOString().slice(11, 16))).toEqual(['14:30', '15:30', '16:30', '17:30']);
    expect(day('2024-03-08')[0]).toBe(at('2024-03-08T14:30:00Z'));
    expect(day('2024-03-11')[0]).toBe(at('2024-03-11T13:30:00Z'));
    expect(day('2024-03-11').length).toBe(7);
  });
});
