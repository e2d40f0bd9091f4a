/**
 * Live bars into held series: the store's one-bar write (`BarStore.putLast`)
 * and the cache-through layer's `applyLive` — the forming bar revised in place
 * and never stored in the database, a closed bar appended and stored up to
 * itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Database } from '../../src/db/client';
import { BarsRepository } from '../../src/db/repositories/bars';
import { createLogger } from '../../src/log';
import { MarketData } from '../../src/market-data';
import type { BarSeries, MarketDataProvider } from '../../src/providers/types';
import { BarStore } from '../../src/store';
import { openFreshDatabase } from '../helpers/db';

const HOUR = 3_600_000;
const T0 = Date.parse('2025-04-24T13:30:00Z');

function hours(n: number, capacity?: number): { store: BarStore; series: BarSeries } {
  const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
  const series: BarSeries = { symbol: 'SPY', timeframe: '1h', source: 'alpaca', ts: col((i) => T0 + i * HOUR), open: col((i) => 500 + i), high: col((i) => 501 + i), low: col((i) => 499 + i), close: col((i) => 500.5 + i), volume: col(() => 1_000) };
  return { store: new BarStore(capacity ? { capacityPerSeries: { '1h': capacity } } : {}), series };
}

describe('bar store: one bar at the end', () => {
  it('revises the last bar in place and appends a later one, keeping the revision', () => {
    const { store, series } = hours(3);
    store.put(series);
    const revision = store.revision('SPY', '1h');
    expect(revision).toBeNumber();
    expect(store.putLast('SPY', '1h', { ts: T0 + 2 * HOUR, open: 502, high: 510, low: 498, close: 509, volume: 2_000 })).toBe(true);
    expect(store.putLast('SPY', '1h', { ts: T0 + 3 * HOUR, open: 509, high: 511, low: 508, close: 510, volume: 50 })).toBe(true);
    const stored = store.get('SPY', '1h')!;
    expect(Array.from(stored.close)).toEqual([500.5, 501.5, 509, 510]);
    expect(Array.from(stored.high.subarray(2))).toEqual([510, 511]);
    expect(store.revision('SPY', '1h')).toBe(revision);
  });

  it('refuses an older bar, a full slot and a series it does not hold', () => {
    const { store, series } = hours(3, 3);
    store.put(series);
    const bar = { ts: T0, open: 1, high: 1, low: 1, close: 1, volume: 1 };
    expect(store.putLast('SPY', '1h', bar)).toBe(false); // before the last
    expect(store.putLast('SPY', '1h', { ...bar, ts: T0 + 3 * HOUR })).toBe(false); // no room
    expect(store.putLast('QQQ', '1h', bar)).toBe(false);
    expect(Array.from(store.get('SPY', '1h')!.close)).toEqual([500.5, 501.5, 502.5]);
  });
});

describe('market data: live bars', () => {
  let database: Database;
  let close: () => Promise<void>;
  const now = T0 + 3 * HOUR;
  beforeAll(async () => {
    ({ database, close } = await openFreshDatabase());
  });
  afterAll(() => close());

  it('updates the forming bar in place, stores only closed bars, and leaves series it does not hold alone', async () => {
    const { series } = hours(2);
    let asked = 0;
    const provider = { name: 'alpaca', remote: true, bars: async () => (asked++, series) } as unknown as MarketDataProvider;
    const repository = new BarsRepository(database.db);
    const data = new MarketData({ provider, repository, store: new BarStore(), ttlMs: 60_000, log: createLogger('silent'), now: () => now });
    data.applyLive({ symbol: 'SPY', timeframe: '1h', bar: { t: T0 + 2 * HOUR, o: 1, h: 1, l: 1, c: 1, v: 1 }, final: false, revised: false });
    expect(asked).toBe(0); // not held: nothing fetched, nothing written
    await data.bars('SPY', '1h');
    await data.flush();
    const forming = { t: T0 + 2 * HOUR, o: 502, h: 503, l: 501, c: 502.5, v: 300 };
    data.applyLive({ symbol: 'SPY', timeframe: '1h', bar: forming, final: false, revised: false });
    data.applyLive({ symbol: 'SPY', timeframe: '1h', bar: { ...forming, h: 504, c: 503.9, v: 700 }, final: false, revised: false });
    let held = await data.bars('SPY', '1h');
    expect(Array.from(held.close)).toEqual([500.5, 501.5, 503.9]);
    await data.flush();
    expect((await repository.load('alpaca', 'SPY', '1h')).ts.length).toBe(2); // the forming bar is not committed
    data.applyLive({ symbol: 'SPY', timeframe: '1h', bar: { ...forming, h: 504, c: 503.2, v: 900 }, final: true, revised: false });
    await data.flush();
    const stored = await repository.load('alpaca', 'SPY', '1h');
    expect(Array.from(stored.close)).toEqual([500.5, 501.5, 503.2]);
    // A correction of an older bar goes in its place.
    data.applyLive({ symbol: 'SPY', timeframe: '1h', bar: { t: T0, o: 500, h: 502, l: 499, c: 500.7, v: 1_100 }, final: true, revised: true });
    held = await data.bars('SPY', '1h');
    expect(Array.from(held.close)).toEqual([500.7, 501.5, 503.2]);
    expect(asked).toBe(1);
  });
});
