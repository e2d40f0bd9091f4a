/**
 * The point-in-time replay engine against the live scan: every sampled
 * session of a replay lists exactly the signals (scores, components, states,
 * reasons) that `runScan` as of that session lists over the same universe,
 * with the same regime; and a replay over data cut at a date gives the same
 * records and listings as over the full data (no session reads a later bar).
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/client';
import { BarsRepository } from '../../src/db/repositories/bars';
import type { ReplayParams } from '../../src/domain/replay';
import { prepareReplay, replayChunks, type ReplayChunk } from '../../src/jobs/replay/engine';
import { runScan } from '../../src/jobs/scan';
import { createLogger } from '../../src/log';
import { MarketData } from '../../src/market-data';
import { createPool } from '../../src/pool';
import { createCsvProvider } from '../../src/providers/csv';
import { createSyntheticProvider } from '../../src/providers/synthetic';
import type { MarketDataProvider } from '../../src/providers/types';
import { BarStore } from '../../src/store';

const pool = createPool({ threads: 2 });
const database = await openDatabase({ dataDir: ':memory:' });
const dirs: string[] = [];
afterAll(async () => {
  await pool.destroy();
  await database.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const NOW = Date.UTC(2026, 2, 2, 22, 0); // Monday 2026-03-02, after the close
const synthetic = createSyntheticProvider({ seed: 11, now: () => NOW });
const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'GOOGL', 'AVGO', 'COST', 'JPM', 'XOM', 'LLY', 'KO', 'PEP', 'CAT', 'DE', 'AMD', 'MU', 'NFLX', 'CRM', 'ADBE', 'ORCL', 'INTC', 'CSCO', 'QCOM', 'TXN', 'HD', 'LOW', 'NKE', 'SBUX', 'MCD', 'UNH', 'PFE', 'MRK', 'ABT', 'TMO', 'GS', 'MS', 'BAC', 'WFC', 'C'];

function deps(provider: MarketDataProvider) {
  const barStore = new BarStore();
  const marketData = new MarketData({ provider, repository: new BarsRepository(database.db), store: barStore, ttlMs: 3_600_000, log: createLogger('silent') });
  return { marketData, barStore, pool };
}

async function replay(d: ReturnType<typeof deps>, params: ReplayParams, chunkSessions = 13) {
  const prepared = await prepareReplay(d, params);
  const chunks: ReplayChunk[] = [];
  for await (const chunk of replayChunks(d, prepared, { chunkSessions, listings: true })) chunks.push(chunk);
  return { prepared, chunks, listings: chunks.flatMap((c) => c.listings!), records: chunks.flatMap((c) => c.records) };
}

describe('the replay engine', () => {
  it('lists at every sampled session exactly what runScan as of that session lists', async () => {
    const d = deps(synthetic);
    const params: ReplayParams = { timeframe: 'daily', from: '2025-06-02', to: '2025-10-31', universe: { kind: 'symbols', symbols: SYMBOLS }, benchmark: 'SPY' };
    const { prepared, listings, records } = await replay(d, params);
    expect(prepared.sessionTs.length).toBeGreaterThan(100);
    expect(listings.length).toBe(prepared.sessionTs.length);
    let compared = 0;
    for (let k = 0; k < prepared.sessionTs.length; k += 9) {
      const live = await runScan(d, { timeframe: 'daily', symbols: SYMBOLS, asOfTs: prepared.sessionTs[k]! });
      expect(live.asOf).toBe(new Date(prepared.sessionTs[k]!).toISOString());
      expect(listings[k]).toEqual(live.signals);
      expect(prepared.regimes[k]).toEqual(live.regime);
      expect(prepared.breadth[k]).toBe(live.breadth);
      compared += live.signals.length;
    }
    expect(compared).toBeGreaterThan(20);
    // The pipeline ran: signals surfaced, moved, and resolved.
    const kinds = new Set(records.map((r) => r.kind));
    expect([...kinds].sort()).toEqual(['event', 'outcome', 'signal']);
  });

  it('gives the same records and listings whether or not the data holds later bars', async () => {
    const CUT = '2025-09-12';
    const full = mkdtempSync(join(tmpdir(), 'breakline-replay-full-'));
    const cut = mkdtempSync(join(tmpdir(), 'breakline-replay-cut-'));
    dirs.push(full, cut);
    for (const symbol of [...SYMBOLS.slice(0, 25), 'SPY']) {
      const bars = await synthetic.bars({ symbol, timeframe: 'daily' });
      const lines = Array.from(bars.ts, (ts, i) => `${new Date(ts).toISOString().slice(0, 10)},${bars.open[i]},${bars.high[i]},${bars.low[i]},${bars.close[i]},${bars.volume[i]}`);
      const header = 'Date,Open,High,Low,Close,Volume';
      writeFileSync(join(full, `${symbol}.csv`), [header, ...lines].join('\n') + '\n');
      writeFileSync(join(cut, `${symbol}.csv`), [header, ...lines.filter((l) => l.slice(0, 10) <= CUT)].join('\n') + '\n');
    }
    const params: ReplayParams = { timeframe: 'daily', from: '2025-05-01', to: CUT, universe: { kind: 'symbols', symbols: SYMBOLS.slice(0, 25) }, benchmark: 'SPY' };
    const a = await replay(deps(createCsvProvider({ dir: full })), params, 17);
    const b = await replay(deps(createCsvProvider({ dir: cut })), params, 17);
    expect(a.prepared.dates.at(-1)).toBe(CUT);
    expect(a.records.length).toBeGreaterThan(50);
    expect(b.records).toEqual(a.records);
    expect(b.listings).toEqual(a.listings);
    expect(b.prepared.regimes).toEqual(a.prepared.regimes);
  });
});
