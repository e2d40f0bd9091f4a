/**
 * The replay's universe at a date: point-in-time S&P 500 membership
 * (fja05680/sp500) where it is known, intersected with what the data source
 * has, and the survivorship statement that goes with each kind of universe.
 */
import { describe, expect, it } from 'bun:test';
import { openDatabase } from '../../src/db/client';
import { BarsRepository } from '../../src/db/repositories/bars';
import { replayUniverse } from '../../src/jobs/replay/universe';
import { createLogger } from '../../src/log';
import { MarketData } from '../../src/market-data';
import { createSyntheticProvider } from '../../src/providers/synthetic';
import { sp500Membership } from '../../src/providers/universe/membership';
import { BarStore } from '../../src/store';

const database = await openDatabase({ dataDir: ':memory:' });
const marketData = new MarketData({ provider: createSyntheticProvider({ seed: 1, now: () => Date.UTC(2026, 0, 5, 22) }), repository: new BarsRepository(database.db), store: new BarStore(), ttlMs: 60_000, log: createLogger('silent') });

describe('S&P 500 membership', () => {
  it('knows who was in the index on a date, a change date counting for the one added', () => {
    const m = sp500Membership();
    expect(m.isMember('PCG', '2019-01-17')).toBe(true);
    expect(m.isMember('PCG', '2019-01-18')).toBe(false); // removed that day (sp500_changes_since_2019: TFX for PCG)
    expect(m.isMember('TFX', '2019-01-18')).toBe(true);
    expect(m.isMember('PCG', '2022-10-03')).toBe(true); // back in
    expect(m.isMember('TSLA', '2020-12-18')).toBe(false);
    expect(m.isMember('TSLA', '2020-12-21')).toBe(true);
    expect(m.membersOn('2008-01-02')).toContain('BSC');
    const on = m.membersOn('2015-06-01').length;
    expect(on).toBeGreaterThanOrEqual(495);
    expect(on).toBeLessThanOrEqual(510);
  });
});

describe('the replay universe', () => {
  it('scans the S&P 500 of each date that the data source has, and says what the missing members mean', async () => {
    const u = await replayUniverse({ kind: 'sp500' }, marketData, '2019-01-02', '2021-12-31');
    expect(u.symbols).toContain('TSLA');
    expect(u.symbols).toContain('XOM');
    expect(u.isMember('TSLA', '2020-06-01')).toBe(false);
    expect(u.isMember('TSLA', '2021-06-01')).toBe(true);
    // The synthetic market simulates today's members only: the ones that left since have no data.
    const dates = ['2019-01-02', '2019-06-03', '2020-01-02', '2020-06-01', '2021-01-04', '2021-12-31'];
    const described = u.describe(dates, (s) => (u.symbols.includes(s) ? '2000-01-03' : null));
    expect(described.kind).toBe('sp500');
    expect(described.membersWithoutData).toBeGreaterThan(10);
    expect(described.minCoverage).toBeLessThan(1);
    expect(described.survivorshipBias).toBe(true);
    expect(described.survivorshipNote).toContain(`no prices for ${described.membersWithoutData} of the`);
    // With data for every member, no bias from the universe.
    const complete = u.describe(dates, () => '2000-01-03');
    expect(complete).toMatchObject({ survivorshipBias: false, membersWithoutData: 0, minCoverage: 1 });
    expect(complete.survivorshipNote).toStartWith('No survivorship bias');
  });

  it("says today's members and a chosen list carry survivorship bias, and refuses symbols the source does not have", async () => {
    const today = await replayUniverse({ kind: 'default' }, marketData, '2020-01-02', '2020-12-31');
    expect(today.symbols.length).toBeGreaterThan(500);
    expect(today.describe([], () => null)).toMatchObject({ kind: 'default', survivorshipBias: true });
    const list = await replayUniverse({ kind: 'symbols', symbols: ['AAPL', 'MSFT'] }, marketData, '2020-01-02', '2020-12-31');
    expect(list.describe([], () => null)).toMatchObject({ kind: 'symbols', symbols: 2, survivorshipBias: true });
    await expect(replayUniverse({ kind: 'symbols', symbols: ['AAPL', 'NOPE'] }, marketData, '2020-01-02', '2020-12-31')).rejects.toThrow('no NOPE');
  });
});
