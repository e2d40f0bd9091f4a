/**
 * The operational gauges of GET /metrics the dashboard and the alert rules
 * (deploy/) and `breakline capacity` read: the streams an instance holds and
 * what it delivered, the latest scan run per timeframe, the scan interval,
 * whether the ledger's chain holds, and DB_POOL_MAX.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { loadConfig } from '../../src/config';
import { parseMetrics } from '../../src/cli/capacity/resources';
import { createTestContext, type TestContext } from '../helpers/app';
import { frameReader } from '../helpers/sse';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { SCAN_INTERVAL_SECONDS: '900', SSE_MAX_CONNECTIONS: '321' } });
});
afterAll(() => ctx.close());

const scrape = async () => parseMetrics(await (await ctx.request('/metrics')).text());

describe('GET /metrics: operations', () => {
  it('counts the streams held and the events delivered to them', async () => {
    const before = await scrape();
    expect(before.get('breakline_sse_connections')).toBe(0);
    expect(before.get('breakline_sse_max_connections')).toBe(321);
    const stream = frameReader((await ctx.request('/api/stream?channels=breakouts.state_change')).body!);
    await stream.read(1); // hello
    ctx.services.bus.publish('breakouts.state_change', { signalId: 'AAPL-range_breakout-1', symbol: 'AAPL', from: 'forming', to: 'triggered', price: 101, at: '2026-11-20T18:00:00.000Z' });
    await stream.read(1);
    const after = await scrape();
    expect(after.get('breakline_sse_connections')).toBe(1);
    expect(after.get('breakline_sse_deliveries_total')! - (before.get('breakline_sse_deliveries_total') ?? 0)).toBe(1);
    expect(after.get('breakline_sse_lagging_clients')).toBe(0);
    await stream.cancel();
  });

  it('says when the latest scan of a timeframe finished, and the interval scans are due at', async () => {
    expect((await scrape()).get('breakline_scan_interval_seconds')).toBe(900);
    const run = await ctx.services.runs.current('daily');
    const finished = (await ctx.services.scans.runHistory('daily', 1))[0]!.finishedAt.getTime() / 1000;
    expect(run.view.signals.length).toBeGreaterThan(0);
    expect((await scrape()).get('breakline_scan_last_run_timestamp_seconds{timeframe="daily"}')).toBe(finished);
  });

  it('says whether the ledger hash chain holds', async () => {
    expect((await scrape()).get('breakline_ledger_verified')).toBe(1);
  });

  it('opens the PostgreSQL client with DB_POOL_MAX connections and exports it (PGlite: 1)', async () => {
    const small = await createTestContext({ env: { DB_POOL_MAX: '7' } });
    try {
      const expected = small.services.database.kind === 'postgres' ? 7 : 1;
      expect(small.services.database.maxConnections).toBe(expected);
      expect(parseMetrics(await (await small.request('/metrics')).text()).get(`breakline_db_pool_max_connections{kind="${small.services.database.kind}"}`)).toBe(expected);
    } finally {
      await small.close();
    }
  });

  it('reads DB_POOL_MAX (default 10, postgres.js’s own) and refuses one out of range', () => {
    expect(loadConfig({}).databasePoolMax).toBe(10);
    expect(loadConfig({ DB_POOL_MAX: '25' }).databasePoolMax).toBe(25);
    expect(() => loadConfig({ DB_POOL_MAX: '0' })).toThrow('DB_POOL_MAX');
  });
});
