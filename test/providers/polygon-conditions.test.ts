/**
 * Bars from Polygon's trades (providers/polygon/conditions, ./stream, and
 * providers/live/trade-minutes): Polygon sends a trade's sale conditions as
 * numeric ids, mapped to the SIPs' letters so the rule Alpaca's bars follow
 * keeps the same prints out. No trades were recorded, so each of Polygon's
 * recorded 5-minute aggregates of XLK (test/fixtures/intraday/polygon_5m, an
 * excerpt of ../shared/data/intraday/polygon_5m) is turned into the `T`
 * events that make it — open, high, low, close, sizes summing to its volume,
 * with no conditions or with Intermarket Sweep + Trade Thru Exempt (14, 41),
 * all within its window's first minute — plus prints the rule excludes, at
 * prices and sizes that would show if they counted: odd lot (37), Form T
 * (12), average price (2), official close (15), qualified contingent (53),
 * derivatively priced (10), prior reference price (22). Parsed from the wire
 * and aggregated, the bars must be the recorded ones.
 */
import { describe, expect, it } from 'bun:test';
import { TradeMinutes } from '../../src/providers/live/trade-minutes';
import type { VendorBar } from '../../src/providers/live/types';
import { sipConditions } from '../../src/providers/polygon/conditions';
import { PolygonStream } from '../../src/providers/polygon/stream';
import { polygonFiveMinutes, type RecordedBar } from '../helpers/vendors/recordings';

/** The `T` events that make `bar` (out of execution order), the excluded prints among them. */
function eventsOf(bar: RecordedBar) {
  const { t, o, h, l, c, v, symbol } = bar;
  const part = Math.floor(v / 4);
  const trade = (p: number, s: number, at: number, conditions?: number[]) => ({ ev: 'T', sym: symbol, x: 4, i: `${at}`, z: 2, p, s, t: t + at, ...(conditions ? { c: conditions } : {}) });
  return [
    trade(c, v - 3 * part, 59_000, [14, 41]),
    trade(h + 5, 37, 30_000, [37]),
    trade(h, part, 20_000),
    trade(l - 5, 5_000, 59_500, [12]),
    trade(o, part, 1_000, [14, 41]),
    trade(h + 1, 10_000, 10_000, [2]),
    trade(l, part, 40_000),
    trade(o - 1, 900, 100, [15]),
    trade(c + 2, 2_000, 59_900, [53]),
    trade(h + 3, 700, 45_000, [10]),
    trade(l - 3, 800, 50_000, [22]),
  ];
}

describe('Polygon trade conditions', () => {
  it('maps Polygon’s ids to the SIPs’ letters, and keeps ids without one visible', () => {
    expect(sipConditions([14, 41])).toEqual(['F', 'polygon:41']);
    expect(sipConditions([37, 12, 2, 15, 53, 10, 22, 4, 5, 7, 16, 20, 21, 29, 38])).toEqual(['I', 'T', 'W', 'M', '7', '4', 'P', 'B', 'G', 'C', 'Q', 'N', 'H', 'R', '9']);
    expect(sipConditions(undefined)).toBeUndefined();
  });

  it('builds Polygon’s recorded bars from their trades, leaving out the prints the SIP rule excludes', () => {
    const day = polygonFiveMinutes('XLK').filter((b) => b.t >= Date.parse('2023-11-22T14:30:00Z') && b.t < Date.parse('2023-11-22T21:00:00Z'));
    expect(day.length).toBeGreaterThan(20); // a whole regular session of the recording
    const made = new Map<number, VendorBar>();
    const minutes = new TradeMinutes({ emit: (_symbol, bar) => made.set(bar.t, { ...bar }), lateMs: 0 });
    const wire = new PolygonStream({ apiKey: 'k', streamUrl: 'ws://127.0.0.1:1' });
    for (const bar of day) {
      for (const message of wire.parse(JSON.stringify(eventsOf(bar)))) if (message.kind === 'trade') minutes.add(message.trade);
    }
    minutes.flush(Infinity);
    expect([...made.values()]).toEqual(day.map(({ t, o, h, l, c, v }) => ({ t, o, h, l, c, v })));
    expect(minutes.excluded).toBe(7 * day.length);
  });
});
