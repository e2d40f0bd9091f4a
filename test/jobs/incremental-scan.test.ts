/**
 * The live scan on the shared incremental state: as the synthetic market's
 * clock moves on (one session, several, into a session with its bar still
 * forming, back out after the close), a scan on the same store — whose
 * indicators only advance over the new bars — must give exactly what a scan
 * from scratch (a fresh store, every indicator computed over the whole
 * history) gives.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { openDatabase } from '../../src/db/client';
import { BarsRepository } from '../../src/db/repositories/bars';
import type { ScanResult, Timeframe } from '../../src/domain/signal';
import { defaultUniverse, runScan } from '../../src/jobs/scan';
import { createLogger } from '../../src/log';
import { MarketData } from '../../src/market-data';
import { createPool } from '../../src/pool';
import { createSyntheticProvider } from '../../src/providers/synthetic';
import { BarStore } from '../../src/store';

const pool = createPool({ threads: 2 });
const database = await openDatabase({ dataDir: ':memory:' });
afterAll(async () => {
  await pool.destroy();
  await database.close();
});

let clock = Date.UTC(2026, 5, 1, 21, 0); // Monday 2026-06-01, after the close
const provider = createSyntheticProvider({ seed: 7, now: () => clock });

function deps(barStore: BarStore) {
  const marketData = new MarketData({ provider, repository: new BarsRepository(database.db), store: barStore, ttlMs: 0, log: createLogger('silent') });
  return { marketData, barStore, pool };
}

/** The scan without its wall-clock fields. */
const comparable = (r: ScanResult) => ({ ...r, startedAt: 0, finishedAt: 0, durationMs: 0 });

describe('the worker pool and two stores', () => {
  it('reads each store through its own handle, even when their generations are equal', async () => {
    const series = (close: number) => {
      const n = 60;
      const col = (v: number) => new Float64Array(n).fill(v);
      return { symbol: 'TWIN', timeframe: 'daily' as const, ts: Float64Array.from({ length: n }, (_, i) => Date.UTC(2024, 0, 1) + i * 86_400_000), open: col(close), high: col(close + 1), low: col(close - 1), close: col(close), volume: col(1000), source: 'test' };
    };
    const a = new BarStore();
    const b = new BarStore();
    a.put(series(10));
    b.put(series(20));
    expect(a.handle().generation).toBe(b.handle().generation);
    const asOfTs = Date.UTC(2025, 0, 1);
    const [fromA] = await pool.run('prepare', { handle: a.handle(), symbols: ['TWIN'], timeframe: 'daily', asOfTs });
    const [fromB] = await pool.run('prepare', { handle: b.handle(), symbols: ['TWIN'], timeframe: 'daily', asOfTs });
    const [againA] = await pool.run('prepare', { handle: a.handle(), symbols: ['TWIN'], timeframe: 'daily', asOfTs });
    expect([fromA!.close, fromB!.close, againA!.close]).toEqual([10, 20, 10]);
  });
});

describe('the live scan on incremental state', () => {
  it('equals a scan from scratch after every move of the clock', async () => {
    const live = deps(new BarStore());
    const symbols = (await defaultUniverse(live.marketData)).slice(0, 80);
    const HOUR = 3_600_000;
    const DAY = 24 * HOUR;
    const moves = [0, DAY, DAY, 3 * DAY, -5 * HOUR, 2 * HOUR, 4 * HOUR, 20 * DAY];
    let signals = 0;
    for (const timeframe of ['daily', '1h'] as Timeframe[]) {
      for (const move of moves) {
        clock += move;
        const incremental = await runScan(live, { timeframe, symbols });
        const scratch = await runScan(deps(new BarStore()), { timeframe, symbols });
        expect(incremental.asOf).toBe(scratch.asOf);
        expect(comparable(incremental)).toEqual(comparable(scratch));
        signals += incremental.signals.length;
      }
    }
    expect(signals).toBeGreaterThan(0);
  });
});

describe('the scan task reading the regime itself', () => {
  it('reads what the regime task reads, and scores exactly as with that regime handed in', async () => {
    const live = deps(new BarStore());
    const symbols = (await defaultUniverse(live.marketData)).slice(0, 40);
    const result = await runScan(live, { timeframe: 'daily', symbols });
    expect(result.regime).not.toBeNull();
    const handle = live.barStore.handle();
    const asOfTs = Date.parse(result.asOf);
    const rsRanks = Object.fromEntries(result.stats.flatMap((s) => (s.rsRank === null ? [] : [[s.symbol, s.rsRank]])));
    const regime = await pool.run('regime', { handle, symbols: ['SPY'], timeframe: 'daily', asOfTs, breadth: result.breadth });
    expect(regime).toEqual(result.regime);
    const handedIn = await pool.run('scan', { handle, symbols, timeframe: 'daily', asOfTs, rsRanks, regime });
    const readItself = await pool.run('scan', { handle, symbols, timeframe: 'daily', asOfTs, rsRanks, regime: null, regimeOf: { benchmark: 'SPY', breadth: result.breadth } });
    expect(handedIn.findings.length).toBeGreaterThan(0);
    expect(readItself).toEqual(handedIn);
  });
});
