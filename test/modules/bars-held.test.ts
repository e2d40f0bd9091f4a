import { describe, expect, it } from 'bun:test';
import type { BarsRepository } from '../../src/db/repositories/bars';
import { createLogger } from '../../src/log';
import { MarketData } from '../../src/market-data';
import { barsJson, heldBarsJson } from '../../src/modules/market/service';
import { newYorkToUtc } from '../../src/providers/new-york-time';
import { SyntheticProvider } from '../../src/providers/synthetic';
import { BarStore } from '../../src/store';

describe('the /api/bars answer read at once (heldBarsJson)', () => {
  it('is the answer barsJson gives while the series is fresh, and nothing once barsJson would look further', async () => {
    let clock = newYorkToUtc('2026-11-24', '18:00');
    const provider = new SyntheticProvider({ now: () => clock });
    // The synthetic provider reads no database: nothing of the repository is used.
    const data = new MarketData({ provider, repository: {} as BarsRepository, store: new BarStore(), ttlMs: 60_000, log: createLogger('silent'), now: () => clock });
    const query = { symbol: 'AAPL', timeframe: 'daily', range: '1mo' } as const;
    expect(heldBarsJson(data, query, '1.1.0')).toBeUndefined(); // nothing read yet
    const made = await barsJson(data, query, '1.1.0');
    const held = heldBarsJson(data, query, '1.1.0');
    expect(held).toBe(made);
    expect(await barsJson(data, query, '1.1.0')).toBe(held!);
    expect(JSON.parse(held!).bars.length).toBeGreaterThan(15);
    // Another window, a refused query, an unknown symbol: not held.
    expect(heldBarsJson(data, { ...query, range: '3mo' }, '1.1.0')).toBeUndefined();
    expect(heldBarsJson(data, { symbol: 'AAPL', timeframe: 'daily' }, '1.1.0')).toBeUndefined();
    expect(heldBarsJson(data, { ...query, from: '2026-11-20', to: '2026-11-01' }, '1.1.0')).toBeUndefined();
    expect(heldBarsJson(data, { ...query, symbol: 'ZZZZZ' }, '1.1.0')).toBeUndefined();
    // The series goes stale: barsJson refreshes it, and the answer read at once is the new one.
    clock += 60_000;
    expect(heldBarsJson(data, query, '1.1.0')).toBeUndefined();
    const refreshed = await barsJson(data, query, '1.1.0');
    expect(heldBarsJson(data, query, '1.1.0')).toBe(refreshed);
    // The next session's bars change the answer.
    clock = newYorkToUtc('2026-11-25', '18:00');
    const nextDay = await barsJson(data, query, '1.1.0');
    expect(nextDay).not.toBe(refreshed);
    expect(heldBarsJson(data, query, '1.1.0')).toBe(nextDay);
  });
});
