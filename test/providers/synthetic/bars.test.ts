import { describe, expect, it } from 'bun:test';
import { isTradingDay, sessionOpenClose, tradingDays } from '../../../src/providers/calendar';
import { INTRADAY_SESSIONS } from '../../../src/providers/synthetic';
import { loadInstruments } from '../../../src/providers/universe';
import { ProviderError, type BarSeries } from '../../../src/providers/types';
import type { Timeframe } from '../../../src/domain/signal';
import { HOUR, isoDay, NOW, provider } from './fixtures';

const market = provider();
const ALL = loadInstruments().map((i) => i.symbol);

/** Bars of `s` whose New York session date is `date`. */
function sessionBars(s: BarSeries, date: string): number[] {
  const { open, close } = sessionOpenClose(date);
  const idx: number[] = [];
  for (let i = 0; i < s.ts.length; i++) if (s.ts[i]! >= open && s.ts[i]! < close) idx.push(i);
  return idx;
}

function expectWellFormed(s: BarSeries): void {
  for (let i = 0; i < s.ts.length; i++) {
    const [o, h, l, c, v] = [s.open[i]!, s.high[i]!, s.low[i]!, s.close[i]!, s.volume[i]!];
    if (!(l > 0 && l <= Math.min(o, c) && Math.max(o, c) <= h && Number.isInteger(v) && v > 0)) {
      throw new Error(`${s.symbol} ${s.timeframe} bar ${new Date(s.ts[i]!).toISOString()}: o=${o} h=${h} l=${l} c=${c} v=${v}`);
    }
    if (i > 0 && !(s.ts[i]! > s.ts[i - 1]!)) throw new Error(`${s.symbol} ${s.timeframe}: ts not increasing at ${i}`);
  }
}

describe('bar invariants', () => {
  it('keeps 0 < low ≤ min(open, close) ≤ max(open, close) ≤ high and positive integer volume on every symbol and timeframe', async () => {
    for (const symbol of ALL) {
      for (const timeframe of ['daily', '1h', '4h'] as Timeframe[]) {
        const s = await market.bars({ symbol, timeframe });
        expect(s.source).toBe('synthetic');
        expect(s.symbol).toBe(symbol);
        expect(s.ts.length).toBeGreaterThan(0);
        expectWellFormed(s);
      }
    }
  });

  it('prices stocks at realistic levels: starts between $20 and $500, never below $1', async () => {
    for (const i of loadInstruments().filter((x) => x.kind === 'stock')) {
      const s = await market.bars({ symbol: i.symbol, timeframe: 'daily' });
      expect(s.open[0]!).toBeGreaterThan(15);
      expect(s.open[0]!).toBeLessThan(600);
      expect(Math.min(...s.low)).toBeGreaterThan(1);
    }
  });
});

describe('trading calendar', () => {
  it('has a daily bar for every session from 2019-01-02 to today and nothing else, at 00:00 UTC', async () => {
    const expected = tradingDays('2019-01-02', '2026-11-20');
    for (const symbol of ['SPY', 'AAPL', 'XLRE']) {
      const s = await market.bars({ symbol, timeframe: 'daily' });
      expect(Array.from(s.ts, isoDay)).toEqual(expected);
      for (const ts of s.ts) expect(ts % 86_400_000).toBe(0);
    }
  });

  it('opens 1h bars at 09:30, 10:30, …, 15:30 New York and 4h bars at 09:30 and 13:30, on sessions only', async () => {
    const yesterdayEvening = Date.UTC(2026, 10, 19, 23, 0);
    const h1 = await market.bars({ symbol: 'MSFT', timeframe: '1h', to: yesterdayEvening });
    const h4 = await market.bars({ symbol: 'MSFT', timeframe: '4h', to: yesterdayEvening });
    const dates = [...new Set(Array.from(h1.ts, (t) => isoDay(t - 5 * HOUR)))];
    expect(dates).toHaveLength(INTRADAY_SESSIONS);
    for (const date of dates) {
      expect(isTradingDay(date)).toBe(true);
      const { open } = sessionOpenClose(date);
      expect(sessionBars(h1, date).map((i) => (h1.ts[i]! - open) / HOUR)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(sessionBars(h4, date).map((i) => (h4.ts[i]! - open) / HOUR)).toEqual([0, 4]);
    }
  });

  it('cuts early-close sessions at 13:00: four 1h bars and one 4h bar', async () => {
    const yearEnd = provider(42, Date.UTC(2025, 11, 31, 22, 0));
    const h1 = await yearEnd.bars({ symbol: 'AAPL', timeframe: '1h' });
    const h4 = await yearEnd.bars({ symbol: 'AAPL', timeframe: '4h' });
    for (const date of ['2025-07-03', '2025-11-28', '2025-12-24']) {
      const { open, close, earlyClose } = sessionOpenClose(date);
      expect(earlyClose).toBe(true);
      expect(sessionBars(h1, date).map((i) => (h1.ts[i]! - open) / HOUR)).toEqual([0, 1, 2, 3]);
      expect(sessionBars(h4, date)).toHaveLength(1);
      expect(close - open).toBe(3.5 * HOUR);
    }
  });
});

describe('intraday adds up to daily', () => {
  it('aggregates 1h bars to the daily bar of each session (first open, last close, max, min, summed volume)', async () => {
    for (const symbol of ['AAPL', 'SPY', 'XLE', 'BRK.B', 'TSLA', 'KO']) {
      const daily = await market.bars({ symbol, timeframe: 'daily' });
      const h1 = await market.bars({ symbol, timeframe: '1h' });
      const h4 = await market.bars({ symbol, timeframe: '4h' });
      const days = new Map(Array.from(daily.ts, (t, i) => [isoDay(t), i]));
      const sessions = new Set(Array.from(h1.ts, (t) => isoDay(t - 5 * HOUR)));
      expect(sessions.size).toBeGreaterThan(0);
      for (const date of sessions) {
        const d = days.get(date)!;
        for (const s of [h1, h4]) {
          const idx = sessionBars(s, date);
          expect(s.open[idx[0]!]).toBe(daily.open[d]!);
          expect(s.close[idx.at(-1)!]).toBe(daily.close[d]!);
          expect(Math.max(...idx.map((i) => s.high[i]!))).toBe(daily.high[d]!);
          expect(Math.min(...idx.map((i) => s.low[i]!))).toBe(daily.low[d]!);
          expect(idx.reduce((sum, i) => sum + s.volume[i]!, 0)).toBe(daily.volume[d]!);
        }
      }
    }
  });

  it('builds each 4h bar from its 1h bars', async () => {
    const h1 = await market.bars({ symbol: 'NVDA', timeframe: '1h' });
    const h4 = await market.bars({ symbol: 'NVDA', timeframe: '4h' });
    expect(h4.ts.length).toBeGreaterThan(0);
    for (let k = 0; k < h4.ts.length; k++) {
      const end = k + 1 < h4.ts.length ? h4.ts[k + 1]! : Infinity;
      const idx = [];
      for (let i = 0; i < h1.ts.length; i++) if (h1.ts[i]! >= h4.ts[k]! && h1.ts[i]! < end && h1.ts[i]! < h4.ts[k]! + 4 * HOUR) idx.push(i);
      expect(h1.ts[idx[0]!]).toBe(h4.ts[k]!);
      expect(h4.open[k]).toBe(h1.open[idx[0]!]!);
      expect(h4.close[k]).toBe(h1.close[idx.at(-1)!]!);
      expect(h4.high[k]).toBe(Math.max(...idx.map((i) => h1.high[i]!)));
      expect(h4.low[k]).toBe(Math.min(...idx.map((i) => h1.low[i]!)));
      expect(h4.volume[k]).toBe(idx.reduce((s, i) => s + h1.volume[i]!, 0));
    }
  });
});

describe('the clock', () => {
  it('returns nothing after now', async () => {
    for (const symbol of ['AAPL', 'QQQ']) {
      for (const timeframe of ['daily', '1h', '4h'] as Timeframe[]) {
        const s = await market.bars({ symbol, timeframe, to: NOW + 30 * 86_400_000 });
        expect(s.ts.at(-1)!).toBeLessThanOrEqual(NOW);
      }
    }
  });

  it('serves a partial session while the market is open (13:00 New York)', async () => {
    const daily = await market.bars({ symbol: 'AAPL', timeframe: 'daily' });
    const h1 = await market.bars({ symbol: 'AAPL', timeframe: '1h' });
    const h4 = await market.bars({ symbol: 'AAPL', timeframe: '4h' });
    expect(isoDay(daily.ts.at(-1)!)).toBe('2026-11-20');
    expect(sessionBars(h1, '2026-11-20')).toHaveLength(4); // 09:30, 10:30, 11:30 and the 12:30 bar in progress
    expect(sessionBars(h4, '2026-11-20')).toHaveLength(1);
    const full = await provider(42, NOW + 86_400_000).bars({ symbol: 'AAPL', timeframe: 'daily' });
    const i = daily.ts.length - 1;
    expect(full.ts[i]).toBe(daily.ts[i]!);
    expect(daily.open[i]).toBe(full.open[i]!);
    expect(daily.volume[i]!).toBeLessThan(full.volume[i]!);
    expect(daily.high[i]!).toBeLessThanOrEqual(full.high[i]!);
    expect(daily.low[i]!).toBeGreaterThanOrEqual(full.low[i]!);
    expect(Array.from(daily.close.subarray(0, i))).toEqual(Array.from(full.close.subarray(0, i)));
  });

  it('has no bar for today before the open and the finished bar after the close', async () => {
    const beforeOpen = await provider(42, Date.UTC(2026, 10, 20, 14, 0)).bars({ symbol: 'AAPL', timeframe: 'daily' });
    expect(isoDay(beforeOpen.ts.at(-1)!)).toBe('2026-11-19');
    const afterClose = await provider(42, Date.UTC(2026, 10, 20, 21, 30)).bars({ symbol: 'AAPL', timeframe: 'daily' });
    const nextWeek = await provider(42, Date.UTC(2026, 10, 27, 21, 30)).bars({ symbol: 'AAPL', timeframe: 'daily' });
    const i = afterClose.ts.length - 1;
    expect(isoDay(afterClose.ts[i]!)).toBe('2026-11-20');
    expect([afterClose.open[i], afterClose.high[i], afterClose.low[i], afterClose.close[i], afterClose.volume[i]]).toEqual([
      nextWeek.open[i], nextWeek.high[i], nextWeek.low[i], nextWeek.close[i], nextWeek.volume[i],
    ]);
  });

  it('bounds bars inclusively by from and to', async () => {
    const all = await market.bars({ symbol: 'AAPL', timeframe: 'daily' });
    const some = await market.bars({ symbol: 'AAPL', timeframe: 'daily', from: all.ts[100]!, to: all.ts[110]! });
    expect(some.ts.length).toBe(11);
    expect(some.ts[0]).toBe(all.ts[100]!);
    expect(some.ts.at(-1)).toBe(all.ts[110]!);
    expect(some.close[5]).toBe(all.close[105]!);
  });
});

describe('provider surface', () => {
  it('throws unknown_symbol naming the provider and symbol', async () => {
    const error = await market.bars({ symbol: 'NOPE', timeframe: 'daily' }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('unknown_symbol');
    expect(error.provider).toBe('synthetic');
    expect(error.symbol).toBe('NOPE');
    expect(await market.snapshot({ symbol: 'NOPE' }).catch((e) => e.code)).toBe('unknown_symbol');
  });

  it('serves dotted symbols and reads lower case as the listed symbol', async () => {
    expect((await market.bars({ symbol: 'BRK.B', timeframe: 'daily' })).ts.length).toBeGreaterThan(1000);
    expect((await market.bars({ symbol: 'aapl', timeframe: 'daily' })).symbol).toBe('AAPL');
  });

  it('lists the instrument universe and passes its self-check on SPY', async () => {
    expect(await market.universe()).toEqual(loadInstruments());
    const check = await market.selfCheck();
    expect(check).toMatchObject({ status: 'ok', provider: 'synthetic', symbol: 'SPY' });
    expect(check.latencyMs).toBeGreaterThanOrEqual(0);
    expect(market.synthetic).toBe(true);
    expect(market.capabilities.has('bars')).toBe(true);
  });
});

describe('longestSeries (the bar store packs 1h and 4h slots to it)', () => {
  it('no session is longer than a regular one, and no 1h or 4h answer is longer than the bound, whatever the clock', async () => {
    const { buildWorld } = await import('../../../src/providers/synthetic/market');
    const { LONGEST_SESSION_MS } = await import('../../../src/providers/synthetic/intraday');
    const world = buildWorld(42, isoDay(NOW));
    expect(world.openTs.length).toBeGreaterThan(1000);
    let longest = 0;
    for (let t = 0; t < world.openTs.length; t++) longest = Math.max(longest, world.closeTs[t]! - world.openTs[t]!);
    expect(longest).toBe(LONGEST_SESSION_MS);
    const bound = market.longestSeries;
    expect(bound).toEqual({ '1h': INTRADAY_SESSIONS * 7, '4h': INTRADAY_SESSIONS * 2 });
    // Mid-session, a minute before the close, after it, a weekend, the day after Thanksgiving's early close.
    const clocks = [NOW, Date.UTC(2026, 10, 20, 20, 59), Date.UTC(2026, 10, 20, 23, 0), Date.UTC(2026, 10, 22, 12, 0), Date.UTC(2026, 10, 27, 17, 30)];
    const seen = { '1h': 0, '4h': 0 };
    for (const clock of clocks) {
      const at = provider(42, clock);
      for (const timeframe of ['1h', '4h'] as const) {
        const n = (await at.bars({ symbol: 'SPY', timeframe })).ts.length;
        expect(n).toBeLessThanOrEqual(bound[timeframe]);
        seen[timeframe] = Math.max(seen[timeframe], n);
      }
    }
    // The bound is reached, not only respected: the store keeps no room a series never fills.
    expect(seen['4h']).toBe(bound['4h']);
    expect(seen['1h']).toBeGreaterThan(bound['1h'] - 7);
  });
});
