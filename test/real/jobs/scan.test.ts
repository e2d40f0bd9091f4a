/**
 * Universe scans in the worker pool, on real history through the csv provider.
 * The point-in-time test builds a copy of the data cut at the as-of date and
 * requires the scan as of that date to be identical with and without the
 * later bars.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openDatabase } from '../../../src/db/client';
import { BarsRepository } from '../../../src/db/repositories/bars';
import type { ScanResult } from '../../../src/domain/signal';
import { runScan } from '../../../src/jobs/scan';
import { createLogger } from '../../../src/log';
import { createPool } from '../../../src/pool';
import { createCsvProvider } from '../../../src/providers/csv';
import { MarketData } from '../../../src/market-data';
import { BarStore } from '../../../src/store';
import { sharedData } from '../../helpers/shared-data';

const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'GOOGL', 'AVGO', 'COST', 'JPM', 'XOM', 'LLY', 'KO', 'PEP', 'CAT', 'DE', 'AMD', 'MU', 'NFLX', 'CRM', 'ADBE'];
const AS_OF = '2023-06-30';
const pool = createPool({ threads: 2 });
const database = await openDatabase({ dataDir: ':memory:' });
const cut = mkdtempSync(join(tmpdir(), 'breakline-pit-'));
afterAll(async () => {
  await pool.destroy();
  await database.close();
  rmSync(cut, { recursive: true, force: true });
});

function deps(dir: string) {
  const barStore = new BarStore();
  const marketData = new MarketData({ provider: createCsvProvider({ dir }), repository: new BarsRepository(database.db), store: barStore, ttlMs: 60_000, log: createLogger('silent') });
  return { marketData, barStore, pool };
}

/** The scan without its wall-clock fields. */
const comparable = (r: ScanResult) => ({ ...r, startedAt: 0, finishedAt: 0, durationMs: 0 });

describe('universe scan on real history', () => {
  it('gives identical results as of a date whether or not the provider holds later bars', async () => {
    const source = sharedData('daily_marketlab');
    for (const symbol of [...SYMBOLS, 'SPY']) {
      const file = symbol === 'SPY' ? `${symbol}.csv` : `${symbol}.csv.gz`;
      const raw = readFileSync(join(source, file));
      const text = file.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
      const [header, ...rows] = text.trim().split('\n');
      writeFileSync(join(cut, `${symbol}.csv`), [header, ...rows.filter((r) => r.slice(0, 10) <= AS_OF)].join('\n') + '\n');
    }
    const asOfTs = Date.parse(`${AS_OF}T23:59:59Z`);
    const full = await runScan(deps(source), { timeframe: 'daily', symbols: SYMBOLS, asOfTs });
    const truncated = await runScan(deps(cut), { timeframe: 'daily', symbols: SYMBOLS, asOfTs });
    expect(full.asOf).toBe(`${AS_OF}T00:00:00.000Z`);
    expect(comparable(truncated)).toEqual(comparable(full));
    expect(full.symbolsScanned).toBe(SYMBOLS.length);
    expect(full.signals.length).toBeGreaterThan(0);
    for (const s of full.signals) expect(Date.parse(s.detectedAt)).toBeLessThanOrEqual(Date.parse(full.asOf));
  });

  it('ranks signals by score, ranks RS 1–99 and reads the regime and breadth', async () => {
    const result = await runScan(deps(sharedData('daily_marketlab')), { timeframe: 'daily', symbols: SYMBOLS, asOfTs: Date.parse('2023-06-30T23:59:59Z') });
    expect(result.signals.length).toBeGreaterThan(0);
    const scores = result.signals.map((s) => s.finalScore);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const ranks = result.stats.map((s) => s.rsRank).filter((r): r is number => r !== null);
    expect(Math.min(...ranks)).toBe(1);
    expect(Math.max(...ranks)).toBe(99);
    // NVDA led the 2023 market: its weighted 12-month performance tops these 20 names.
    expect(result.stats.find((s) => s.symbol === 'NVDA')!.rsRank).toBe(99);
    expect(result.regime?.regime).toBe('risk_on');
    expect(result.breadth).toBeGreaterThan(0);
    for (const s of result.signals) {
      expect(s.id).toMatch(/^(.+)-([a-z0-9_]+)-(\d{4}-\d\d-\d\dT.+)$/);
      expect(s.id).toBe(`${s.symbol}-${s.patternType}-${s.detectedAt}`);
    }
  });
});
