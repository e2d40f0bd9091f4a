/**
 * Minute bars made from trades (providers/live/trade-minutes), for a feed
 * subscribed to trades only (`ALPACA_BARS_FROM=trades`). No trades were
 * recorded, so each recorded SPY minute of 2025-04-24 (Alpaca's own bars) is
 * turned into the trades that make it — its open first, its high, its low,
 * its close last, their sizes summing to its volume, sent out of execution
 * order — plus prints Alpaca's rule keeps out of a bar (odd lot `I`, Form T
 * `T`, average price `W`, official close `M`, qualified contingent `7`) at
 * prices and sizes that would show if they were counted. The bars made must
 * be the recorded ones, and their roll-up the recorded minutes' hour.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import type { AlpacaProvider } from '../../src/providers/alpaca';
import { countsInBar, TRADE_LATE_MS, TradeMinutes } from '../../src/providers/live/trade-minutes';
import type { LiveTrade, VendorBar } from '../../src/providers/live/types';
import type { WireTrade } from '../helpers/vendors/alpaca-stream';
import { loopbackAlpaca, startAlpacaServer, type AlpacaServer } from '../helpers/vendors/alpaca-server';
import { expectedBar, keptLog, recordFeed, TestClock } from '../helpers/vendors/live';
import { until } from '../helpers/until';
import { alpacaMinutes, type RecordedBar } from '../helpers/vendors/recordings';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;
const recorded = alpacaMinutes();
const hour = recorded.filter((m) => m.t >= at('2025-04-24T13:30:00Z') && m.t < at('2025-04-24T14:30:00Z'));

/** The trades that make `minute`, out of execution order, with prints the rule excludes among them. */
function tradesOf(minute: RecordedBar, symbol = 'SPY'): WireTrade[] {
  const { t, o, h, l, c, v } = minute;
  const part = Math.floor(v / 4);
  const counted = [
    { price: c, size: v - 3 * part, ts: t + 59_000 },
    { price: h, size: part, ts: t + 20_000 },
    { price: o, size: part, ts: t + 1_000 },
    { price: l, size: part, ts: t + 40_000 },
  ].map((trade) => ({ ...trade, symbol, conditions: ['@', 'F'] }));
  const excluded = [
    { price: h + 5, size: 37, ts: t + 30_000, conditions: ['@', 'I'] }, // odd lot
    { price: l - 5, size: 5_000, ts: t + 59_500, conditions: ['@', 'T'] }, // Form T
    { price: h + 1, size: 10_000, ts: t + 10_000, conditions: ['W'] }, // average price
    { price: o - 1, size: 900, ts: t + 100, conditions: ['@', 'M'] }, // official close
    { price: c + 2, size: 2_000, ts: t + 59_900, conditions: ['@', '7'] }, // QCT
  ].map((trade) => ({ ...trade, symbol }));
  return [counted[0]!, excluded[0]!, counted[1]!, excluded[1]!, counted[2]!, excluded[2]!, counted[3]!, excluded[3]!, excluded[4]!];
}

const asLive = (trade: WireTrade): LiveTrade => ({ symbol: trade.symbol, price: trade.price, size: trade.size, ts: trade.ts, conditions: trade.conditions });
const ohlcv = (bar: VendorBar | RecordedBar) => ({ t: bar.t, o: bar.o, h: bar.h, l: bar.l, c: bar.c, v: bar.v });

describe('trade → minute aggregation', () => {
  it('counts regular and intermarket-sweep trades, and none of the conditions Alpaca keeps out of its bars', () => {
    expect(countsInBar(undefined)).toBe(true);
    expect(countsInBar(['@'])).toBe(true);
    expect(countsInBar(['@', 'F'])).toBe(true);
    for (const excluded of ['B', 'W', '4', '7', '9', 'C', 'G', 'H', 'I', 'M', 'N', 'P', 'Q', 'R', 'T']) expect(countsInBar(['@', excluded])).toBe(false);
  });

  it('makes the recorded minutes of the 09:30 hour from their trades, each once its reporting window has passed', () => {
    const made: VendorBar[] = [];
    const minutes = new TradeMinutes({ emit: (_symbol, bar) => made.push({ ...bar }) });
    for (const minute of hour) {
      for (const trade of tradesOf(minute)) minutes.add(asLive(trade));
      minutes.flush(minute.t + MINUTE + TRADE_LATE_MS - 1);
      expect(made.at(-1)?.t ?? 0).toBeLessThan(minute.t); // still within its reporting window
    }
    minutes.flush(hour.at(-1)!.t + MINUTE + TRADE_LATE_MS);
    expect(made.map(ohlcv)).toEqual(hour.map(ohlcv));
    expect(minutes.excluded).toBe(hour.length * 5);
  });

  it('counts a trade reported late within the window, and not one after its minute was finished', () => {
    const made: VendorBar[] = [];
    const minutes = new TradeMinutes({ emit: (_symbol, bar) => made.push({ ...bar }) });
    const t = at('2025-04-24T13:31:00Z');
    minutes.add({ symbol: 'SPY', price: 10, size: 100, ts: t + 5_000 });
    minutes.add({ symbol: 'SPY', price: 11, size: 100, ts: t + 55_000 }); // executed 9:31:55, reported at 9:32:04
    minutes.flush(t + MINUTE + TRADE_LATE_MS);
    minutes.add({ symbol: 'SPY', price: 50, size: 100, ts: t + 58_000 }); // after the minute was finished
    minutes.flush(t + 10 * MINUTE);
    expect(made.map(ohlcv)).toEqual([{ t, o: 10, h: 11, l: 10, c: 11, v: 200 }]);
    expect(minutes.late).toBe(1);
  });
});

describe('alpaca feed with bars from trades', () => {
  let server: AlpacaServer | undefined;
  let provider: AlpacaProvider | undefined;
  afterEach(async () => {
    await provider?.live!.stop();
    server?.stop();
  });

  it('subscribes the universe’s trades and no bars, and rolls the 09:30 hour up from them, closing it after the reporting window', async () => {
    const clock = new TestClock(at('2025-04-24T13:29:00Z'));
    server = startAlpacaServer({ now: clock.now });
    const { log } = keptLog();
    provider = loopbackAlpaca(server, { clock: clock.now, live: { log, silentMs: 60_000, graceMs: 200, backoff: { baseMs: 20, maxMs: 100 }, barsFromTrades: true } });
    const live = provider.live!;
    const { bars, closes } = recordFeed(live);
    live.setUniverse(['SPY']);
    live.start();
    const vendor = server;
    await until('SPY trades subscribed', () => [...vendor.stream.sockets].some((ws) => ws.data.authenticated && ws.data.trades.has('SPY')));
    expect([...[...vendor.stream.sockets][0]!.data.bars]).toEqual([]);
    for (const minute of hour) {
      clock.set(minute.t + MINUTE);
      vendor.trades(tradesOf(minute));
      await until(`the trades of ${new Date(minute.t).toISOString()}`, () => live.status().lastMessageAt === minute.t + MINUTE);
    }
    const end = at('2025-04-24T14:30:00Z');
    clock.set(end + 1_000); // the hour's last minute is still within its reporting window
    await Bun.sleep(300);
    expect(closes.filter((c) => c.timeframe === '1h')).toEqual([]);
    clock.set(end + TRADE_LATE_MS + 300);
    vendor.trades([{ symbol: 'SPY', price: 1, size: 1, ts: end + TRADE_LATE_MS, conditions: ['@', 'I'] }]); // the stream heard from after the window's end
    await until('the hour to close', () => closes.some((c) => c.timeframe === '1h'));
    const final = bars.find((b) => b.timeframe === '1h' && b.final && b.bar.t === at('2025-04-24T13:30:00Z'))!;
    expect(final.bar).toEqual({ t: at('2025-04-24T13:30:00Z'), ...expectedBar(recorded, at('2025-04-24T13:30:00Z'), end) });
  });
});
