import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Database } from '../../src/db/client';
import { BarsRepository } from '../../src/db/repositories/bars';
import { createLogger } from '../../src/log';
import { createCsvProvider } from '../../src/providers/csv';
import { MarketData } from '../../src/market-data';
import type { BarsQuery, MarketDataProvider, QuoteTime } from '../../src/providers/types';
import { BarStore } from '../../src/store';
import { openFreshDatabase } from '../helpers/db';
import { fixture } from '../helpers/fixtures';

/** The csv provider over real history (the committed dieperdev excerpts), posing as a remote vendor and counting how often it is asked for bars. */
function countingProvider() {
  const inner = createCsvProvider({ dir: fixture('daily_yf_dieperdev') });
  const calls: BarsQuery[] = [];
  const provider: MarketDataProvider = {
    name: inner.name,
    capabilities: inner.capabilities,
    synthetic: inner.synthetic,
    remote: true, // a vendor over the network: cached in the database
    testSymbol: inner.testSymbol,
    universe: () => inner.universe(),
    snapshot: (q) => inner.snapshot(q),
    selfCheck: () => inner.selfCheck(),
    bars: async (q) => {
      calls.push(q);
      await Bun.sleep(5);
      return inner.bars(q);
    },
  };
  return { provider, calls };
}

describe('cache-through market data', () => {
  let database: Database;
  let close: () => Promise<void>;
  let clock = Date.UTC(2026, 7, 24);
  const make = (provider: MarketDataProvider) =>
    new MarketData({ provider, repository: new BarsRepository(database.db), store: new BarStore(), ttlMs: 60_000, log: createLogger('silent'), now: () => clock });

  beforeAll(async () => {
    ({ database, close } = await openFreshDatabase());
  });
  afterAll(() => close());

  it('asks the provider once for concurrent requests and serves repeats from memory', async () => {
    const { provider, calls } = countingProvider();
    const data = make(provider);
    const results = await Promise.all(Array.from({ length: 10 }, () => data.bars('AAPL', 'daily')));
    expect(calls).toHaveLength(1);
    expect(new Set(results.map((r) => r.ts.length)).size).toBe(1);
    await data.bars('AAPL', 'daily');
    expect(calls).toHaveLength(1);
    await data.flush();
  });

  it('reads the database instead of the provider after a restart while the data is fresh', async () => {
    const { provider, calls } = countingProvider();
    const restarted = make(provider);
    const series = await restarted.bars('AAPL', 'daily');
    expect(calls).toHaveLength(0);
    expect(series.ts.length).toBe(548); // the AAPL excerpt: 2022-01-03..2024-03-08
    expect(series.source).toBe('csv');
  });

  it('asks the provider again once the data is older than the TTL', async () => {
    const { provider, calls } = countingProvider();
    const data = make(provider);
    await data.bars('AAPL', 'daily');
    clock += 61_000;
    await data.bars('AAPL', 'daily');
    expect(calls).toHaveLength(1);
    await data.flush();
  });

  it('never returns a bar after `to` (a point-in-time read)', async () => {
    const { provider } = countingProvider();
    const data = make(provider);
    const to = Date.UTC(2020, 2, 20);
    const series = await data.bars('NVDA', 'daily', { to });
    expect(series.ts[series.ts.length - 1]!).toBeLessThanOrEqual(to);
    expect(new Date(series.ts[series.ts.length - 1]!).toISOString().slice(0, 10)).toBe('2020-03-20');
    await data.flush();
  });

  it('holds what is made of a quote until the instant the provider names, then while it names the same quote time, and nothing once it moves or when it names none', async () => {
    const { provider } = countingProvider();
    const quote = await provider.snapshot({ symbol: 'AAPL' });
    let providerClock = Date.parse(quote.ts) + 1_000;
    let named: QuoteTime | undefined = { time: Date.parse(quote.ts), until: providerClock + 10_000 };
    let asked = 0;
    const data = make({ ...provider, now: () => providerClock, quoteTime: () => (asked++, named) });
    expect(data.heldQuote<string>('AAPL')).toBeUndefined();
    const made = await data.quoteToHold<string>('AAPL');
    expect(made.quote.ts).toBe(quote.ts);
    made.hold('body of the quote');
    asked = 0;
    expect(data.heldQuote<string>('AAPL')).toBe('body of the quote');
    expect(data.heldQuote<string>('MSFT')).toBeUndefined();
    providerClock += 9_999; // still before `until`: read back without asking the provider
    expect(data.heldQuote<string>('AAPL')).toBe('body of the quote');
    expect(asked).toBe(0);
    providerClock += 1; // at `until`: the provider is asked, names the same time (and a later until): still held
    named = { time: named.time, until: providerClock + 5_000 };
    expect(data.heldQuote<string>('AAPL')).toBe('body of the quote');
    expect(data.heldQuote<string>('AAPL')).toBe('body of the quote');
    expect(asked).toBe(1);
    providerClock += 5_000;
    named = { time: named.time + 60_000, until: providerClock + 1 }; // the quote moved
    expect(data.heldQuote<string>('AAPL')).toBeUndefined();
    // A made quote whose time the provider does not name (it moved meanwhile) is not held.
    (await data.quoteToHold<string>('AAPL')).hold('stale body');
    expect(data.heldQuote<string>('AAPL')).toBeUndefined();
    named = undefined; // a provider that cannot tell when its quote moves: nothing held
    (await data.quoteToHold<string>('AAPL')).hold('unheld body');
    expect(data.heldQuote<string>('AAPL')).toBeUndefined();
    // Nor one that names the time but keeps no clock to read `until` against.
    const clockless = make({ ...provider, quoteTime: () => ({ time: Date.parse(quote.ts), until: Infinity }) });
    (await clockless.quoteToHold<string>('AAPL')).hold('unheld body');
    expect(clockless.heldQuote<string>('AAPL')).toBeUndefined();
  });

  it('names the provider and symbol for an unknown symbol', async () => {
    const { provider } = countingProvider();
    await expect(make(provider).instrument('NOPE')).rejects.toThrow(/csv.*NOPE/);
  });
  it('asks a provider that makes series ahead only for those not held fresh, before they are read', async () => {
    const { provider, calls } = countingProvider();
    const asked: { symbols: string[]; timeframe: string }[] = [];
    const data = make({ ...provider, prepare: async (query) => void asked.push(query) });
    await data.bars('AAPL', 'daily');
    await data.prepare(['AAPL', 'AMZN', 'C'], 'daily');
    expect(asked).toEqual([{ symbols: ['AMZN', 'C'], timeframe: 'daily' }]);
    expect(calls.filter((c) => c.symbol !== 'AAPL')).toEqual([]); // preparing reads no bars itself
    await data.prepare(['AAPL'], 'daily');
    expect(asked).toHaveLength(1); // all held: the provider is not asked
    await data.flush();
  });
});
