import { describe, expect, it } from 'bun:test';
import { createSyntheticProvider } from '../../../src/providers/synthetic';
import { sessionOpenClose } from '../../../src/providers/calendar';
import { HOUR, isoDay, NOW, provider } from './fixtures';

const SECOND = 1000;

/** A provider whose clock the test moves. */
function movingClock(start: number) {
  const clock = { now: start };
  return { clock, market: createSyntheticProvider({ seed: 42, now: () => clock.now }) };
}

describe('quotes while the market is open', () => {
  it('ticks: the price changes within a minute for nearly every symbol', async () => {
    const { clock, market } = movingClock(NOW + 7 * 60 * SECOND);
    let moving = 0;
    const symbols = ['AAPL', 'MSFT', 'SPY', 'XLE', 'KO', 'TSLA', 'JPM', 'PFE', 'F', 'T', 'NVDA', 'QQQ', 'IWM', 'O', 'DUK', 'AMZN', 'META', 'XOM', 'WMT', 'BAC'];
    for (const symbol of symbols) {
      const seen = new Set<number>();
      for (let s = 0; s < 60; s++) {
        clock.now = NOW + 7 * 60 * SECOND + s * SECOND;
        const q = await market.snapshot({ symbol });
        expect(q.marketOpen).toBe(true);
        seen.add(q.price);
      }
      if (seen.size >= 3) moving++;
    }
    expect(moving).toBeGreaterThanOrEqual(18);
  });

  it('moves continuously: one-second steps are a small fraction of the price', async () => {
    const market = provider();
    let previous = (await market.snapshot({ symbol: 'AAPL', at: NOW - 30 * 60 * SECOND })).price;
    for (let t = NOW - 30 * 60 * SECOND + SECOND; t <= NOW; t += SECOND) {
      const { price } = await market.snapshot({ symbol: 'AAPL', at: t });
      expect(Math.abs(price / previous - 1)).toBeLessThan(0.005);
      previous = price;
    }
  });

  it('agrees with the bars: the quote is the last close, the day fields are the partial daily bar', async () => {
    const market = provider();
    for (const symbol of ['AAPL', 'SPY', 'XLK']) {
      const q = await market.snapshot({ symbol });
      const daily = await market.bars({ symbol, timeframe: 'daily' });
      const h1 = await market.bars({ symbol, timeframe: '1h' });
      const i = daily.ts.length - 1;
      expect(q.price).toBe(daily.close[i]!);
      expect(q.price).toBe(h1.close.at(-1)!);
      expect([q.open, q.dayHigh, q.dayLow, q.volume]).toEqual([daily.open[i]!, daily.high[i]!, daily.low[i]!, daily.volume[i]!]);
      expect(q.previousClose).toBe(daily.close[i - 1]!);
      expect(q.change).toBeCloseTo(q.price - q.previousClose, 6);
      expect(q.changePercent).toBeCloseTo((100 * (q.price - q.previousClose)) / q.previousClose, 3);
      expect(q.ts).toBe(new Date(NOW).toISOString());
      expect(q.source).toBe('synthetic');
    }
  });

  it('never quotes outside the high and low of the hour bar the quote falls in', async () => {
    const market = provider();
    const { open } = sessionOpenClose('2026-11-20');
    const h1 = await market.bars({ symbol: 'NVDA', timeframe: '1h' });
    const k = Array.from(h1.ts).indexOf(open + HOUR); // the 10:30 bar, complete at 13:00
    for (let t = open + HOUR; t <= open + 2 * HOUR; t += SECOND) {
      const { price } = await market.snapshot({ symbol: 'NVDA', at: t });
      expect(price).toBeGreaterThanOrEqual(h1.low[k]!);
      expect(price).toBeLessThanOrEqual(h1.high[k]!);
    }
    expect((await market.snapshot({ symbol: 'NVDA', at: open + HOUR })).price).toBe(h1.open[k]!);
    expect((await market.snapshot({ symbol: 'NVDA', at: open + 2 * HOUR })).price).toBe(h1.close[k]!);
  });

  it('keeps the running day range and volume monotone as the session goes on', async () => {
    const market = provider();
    let last = await market.snapshot({ symbol: 'TSLA', at: NOW - 20 * 60 * SECOND });
    for (let t = NOW - 20 * 60 * SECOND + 7 * SECOND; t <= NOW; t += 7 * SECOND) {
      const q = await market.snapshot({ symbol: 'TSLA', at: t });
      expect(q.dayHigh).toBeGreaterThanOrEqual(Math.max(last.dayHigh, q.price));
      expect(q.dayLow).toBeLessThanOrEqual(Math.min(last.dayLow, q.price));
      expect(q.volume).toBeGreaterThanOrEqual(last.volume);
      last = q;
    }
  });
});

describe('quotes while the market is shut', () => {
  it('is flat and reports the last close on a Saturday', async () => {
    const saturday = Date.UTC(2026, 10, 21, 16, 0);
    const { clock, market } = movingClock(saturday);
    const daily = await provider(42, saturday).bars({ symbol: 'AAPL', timeframe: 'daily' });
    const prices = new Set<number>();
    for (let s = 0; s < 30; s++) {
      clock.now = saturday + s * SECOND;
      const q = await market.snapshot({ symbol: 'AAPL' });
      expect(q.marketOpen).toBe(false);
      expect(q.ts).toBe(new Date(sessionOpenClose('2026-11-20').close).toISOString());
      prices.add(q.price);
    }
    expect([...prices]).toEqual([daily.close.at(-1)!]);
    expect(isoDay(daily.ts.at(-1)!)).toBe('2026-11-20');
  });

  it('is the previous close before the bell and the day\'s close after it', async () => {
    const before = await provider(42, Date.UTC(2026, 10, 20, 14, 0)).snapshot({ symbol: 'MSFT' });
    const after = await provider(42, Date.UTC(2026, 10, 20, 21, 5)).snapshot({ symbol: 'MSFT' });
    const daily = await provider(42, Date.UTC(2026, 10, 20, 21, 5)).bars({ symbol: 'MSFT', timeframe: 'daily' });
    expect(before.marketOpen).toBe(false);
    expect(after.marketOpen).toBe(false);
    expect(before.price).toBe(daily.close.at(-2)!);
    expect(after.price).toBe(daily.close.at(-1)!);
    expect(after.previousClose).toBe(before.price);
  });

  it('has no quote and no bars before the first simulated session', async () => {
    const early = provider(42, Date.UTC(2018, 11, 31, 18, 0));
    expect((await early.bars({ symbol: 'SPY', timeframe: 'daily' })).ts.length).toBe(0);
    expect(await early.snapshot({ symbol: 'SPY' }).catch((e) => e.code)).toBe('unavailable');
  });
});

describe('quotes while bars are drawn in worker threads', () => {
  it("answers a held symbol's quote without waiting for its 1h and 4h bars being drawn (issue 27: a universe's draw on a busy pool aged quotes by seconds)", async () => {
    const market = provider(42);
    const first = await market.snapshot({ symbol: 'AAPL' }); // its daily path is held from here on
    const order: string[] = [];
    const intraday = market.prepareIntraday({ symbols: ['AAPL', 'MSFT', 'SPY'] }).then(() => order.push('1h and 4h bars drawn'));
    const quote = market.snapshot({ symbol: 'AAPL' }).then((q) => (order.push('quote'), q));
    expect(await quote).toEqual(first); // the same instant, the same quote
    await intraday;
    expect(order).toEqual(['quote', '1h and 4h bars drawn']);
  });
});
