import { describe, expect, it } from 'bun:test';
import type { BarsRepository } from '../../src/db/repositories/bars';
import { createLogger } from '../../src/log';
import { MarketData } from '../../src/market-data';
import { snapshot, snapshotBody } from '../../src/modules/market/service';
import { newYorkToUtc } from '../../src/providers/new-york-time';
import { SyntheticProvider } from '../../src/providers/synthetic';
import type { MarketDataProvider } from '../../src/providers/types';
import { BarStore } from '../../src/store';

/** Market data over `provider` (the synthetic one reads no database: nothing of the repository is used). */
const marketDataOf = (provider: MarketDataProvider) =>
  new MarketData({ provider, repository: {} as BarsRepository, store: new BarStore(), ttlMs: 60_000, log: createLogger('silent') });

/** The held answer and a fresh computation at the same instant. */
async function both(data: MarketData, symbol: string) {
  const held = await snapshotBody(data, symbol);
  const fresh = JSON.stringify(await snapshot(data, symbol));
  return { held, fresh };
}

describe('the held /api/snapshot answer', () => {
  it('is the fresh answer at every instant, held while the quote has not moved and renewed when it ticks', async () => {
    let clock = newYorkToUtc('2026-11-24', '10:00');
    const data = marketDataOf(new SyntheticProvider({ now: () => clock }));
    const instants = [
      ['10:00', 0],
      ['10:00', 1], // a millisecond later: a live quote's time is the instant
      ['10:00', 1_000],
      ['10:00', 60_000],
      ['15:59', 59_999],
      ['16:00', 0], // the close
      ['17:30', 0],
      ['23:59', 0],
      ['23:59', 59_999], // the last millisecond of the day the world was built for
      ['23:59', 3_600_000], // past New York midnight: the world of the next day
      ['09:29', 86_400_000 + 59_999], // the last millisecond before the next open
      ['09:30', 86_400_000], // the next open, to the millisecond
      ['09:30', 86_400_000 + 1_000], // the next session
    ] as const;
    const texts: string[] = [];
    for (const [time, plus] of instants) {
      clock = newYorkToUtc('2026-11-24', time) + plus;
      const first = await both(data, 'AAPL');
      expect(first.held.text).toBe(first.fresh);
      // Asked again at the same instant: the same held answer (no new quote made), still the fresh one.
      const again = await both(data, 'AAPL');
      expect(again.held).toBe(first.held);
      expect(again.held.text).toBe(again.fresh);
      expect(first.held.etag).toMatch(/^"[0-9a-z]+"$/);
      texts.push(first.held.text);
    }
    expect(texts).toHaveLength(instants.length);
    const quotes = texts.map((text) => JSON.parse(text) as { ts: string; price: number; marketOpen: boolean });
    // Inside the session every instant is its own quote (a tick changes the answer); after the close it stands until the next open.
    expect(new Set(texts.slice(0, 5)).size).toBe(5);
    expect(quotes[1]!.ts).not.toBe(quotes[0]!.ts);
    expect(quotes.slice(0, 5).every((q) => q.marketOpen)).toBe(true);
    expect(new Set(texts.slice(5, 11)).size).toBe(1);
    expect(quotes[5]!.marketOpen).toBe(false);
    expect(texts[11]).not.toBe(texts[10]);
    expect(quotes[11]!.marketOpen).toBe(true);
    expect(texts[12]).not.toBe(texts[11]);
  });

  it('names a closed market\'s quote until the next open or the next New York midnight, a live one for its millisecond', async () => {
    let clock = newYorkToUtc('2026-11-24', '17:30');
    const provider = new SyntheticProvider({ now: () => clock });
    const data = marketDataOf(provider);
    expect(provider.quoteTime('AAPL')).toBeUndefined(); // nothing built yet
    await snapshotBody(data, 'AAPL');
    expect(provider.quoteTime('AAPL')).toEqual({ time: newYorkToUtc('2026-11-24', '16:00'), until: newYorkToUtc('2026-11-25', '00:00') });
    clock = newYorkToUtc('2026-11-25', '03:00');
    expect(provider.quoteTime('AAPL')).toBeUndefined(); // the world of the day before
    await snapshotBody(data, 'AAPL');
    expect(provider.quoteTime('AAPL')).toEqual({ time: newYorkToUtc('2026-11-24', '16:00'), until: newYorkToUtc('2026-11-25', '09:30') });
    clock = newYorkToUtc('2026-11-25', '11:00') + 7;
    expect(provider.quoteTime('AAPL')).toEqual({ time: clock, until: clock + 1 });
    expect(provider.now()).toBe(clock);
  });

  it('holds the quote of a closed market across asks, and the answer of another symbol apart', async () => {
    const clock = newYorkToUtc('2026-11-24', '18:00');
    const data = marketDataOf(new SyntheticProvider({ now: () => clock }));
    const aapl = await snapshotBody(data, 'AAPL');
    const msft = await snapshotBody(data, 'MSFT');
    expect(await snapshotBody(data, 'AAPL')).toBe(aapl);
    expect(await snapshotBody(data, 'MSFT')).toBe(msft);
    expect(msft.text).not.toBe(aapl.text);
    expect(JSON.parse(msft.text).symbol).toBe('MSFT');
  });

  it('holds nothing for a provider that cannot tell when its quote moves', async () => {
    const clock = newYorkToUtc('2026-11-24', '18:00');
    const inner = new SyntheticProvider({ now: () => clock });
    const provider: MarketDataProvider = {
      name: inner.name,
      capabilities: inner.capabilities,
      synthetic: inner.synthetic,
      remote: inner.remote,
      testSymbol: inner.testSymbol,
      universe: () => inner.universe(),
      snapshot: (q) => inner.snapshot(q),
      selfCheck: () => inner.selfCheck(),
      bars: (q) => inner.bars(q),
    };
    const data = marketDataOf(provider);
    const first = await snapshotBody(data, 'AAPL');
    const second = await snapshotBody(data, 'AAPL');
    expect(second).not.toBe(first);
    expect(second.text).toBe(first.text);
  });
});
