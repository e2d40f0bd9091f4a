/**
 * bench/replay: the point-in-time replay engine (jobs/replay) on the real
 * daily history of shared/data through the csv provider — 499 S&P 500 /
 * Nasdaq-100 names, 2005-01-03 .. 2024-03-08, SPY as the benchmark — in the
 * worker pool with 2 threads. Goal: the whole range in ≤ 120 s.
 *
 * Table 1, the engine: loading and preparing (bars, sessions, RS ranks,
 * breadth and regime per session), then every session of every symbol (scan,
 * alerts, surfacing, tracking, outcomes), without writing a ledger;
 * symbol-sessions/s, and the CPU time of all threads (on a machine shared with
 * other work the wall time says little; CPU time ÷ 2 is what 2 idle cores
 * would take, the serial parts aside). Table 2, the replay ledger: a shorter range written
 * through `runReplay` (canonical JSON, SHA-256 chain, one transaction per
 * chunk) into an in-memory PGlite, records/s.
 *
 * Without shared/data (or with --smoke) it runs the synthetic market over a
 * few months instead.
 *
 *   bun run bench/replay.ts [--smoke]
 */
import { openDatabase } from '../src/db/client';
import { BarsRepository } from '../src/db/repositories/bars';
import { LedgerRepository, REPLAY_CHAIN } from '../src/db/repositories/ledger';
import { ReplayRunsRepository } from '../src/db/repositories/replays';
import type { ReplayParams } from '../src/domain/replay';
import { prepareReplay, replayChunks } from '../src/jobs/replay/engine';
import { runReplay } from '../src/jobs/replay/run';
import { createLogger } from '../src/log';
import { MarketData } from '../src/market-data';
import { createPool } from '../src/pool';
import { createCsvProvider } from '../src/providers/csv';
import { createSyntheticProvider } from '../src/providers/synthetic';
import type { MarketDataProvider } from '../src/providers/types';
import { BarStore } from '../src/store';
import { printTable, realCsvDir, smoke } from './lib';

const seconds = (ms: number) => (ms / 1000).toFixed(1);

export async function benchReplay(): Promise<void> {
  const real = smoke ? undefined : realCsvDir();
  const provider: MarketDataProvider = real ? createCsvProvider({ dir: real.dir }) : createSyntheticProvider({ seed: 42, now: () => Date.UTC(2026, 0, 5, 22) });
  const full: ReplayParams = real
    ? { timeframe: 'daily', from: '2005-01-01', to: '2024-03-08', universe: { kind: 'default' }, benchmark: 'SPY' }
    : { timeframe: 'daily', from: '2025-09-01', to: '2025-12-31', universe: { kind: 'symbols', symbols: ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'XOM', 'JPM', 'KO', 'PEP', 'CAT'] }, benchmark: 'SPY' };
  const short: ReplayParams = real ? { ...full, from: '2023-01-01' } : full;
  const pool = createPool({ threads: 2, warm: true, taskTimeoutMs: 600_000 });
  const database = await openDatabase({ dataDir: ':memory:' });
  const barStore = new BarStore();
  const marketData = new MarketData({ provider, repository: new BarsRepository(database.db), store: barStore, ttlMs: 1e12, log: createLogger('silent') });
  const deps = { marketData, barStore, pool };

  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  const prepared = await prepareReplay(deps, full);
  const preparedAt = performance.now();
  let symbolSessions = 0;
  let signals = 0;
  let records = 0;
  for await (const chunk of replayChunks(deps, prepared)) {
    symbolSessions += chunk.tally.scanned;
    signals += chunk.tally.signals;
    records += chunk.records.length;
  }
  const done = performance.now();
  const cpu = process.cpuUsage(cpuStarted);
  printTable(`bench/replay — the engine over ${real ? `the real daily history (${real.files} csv files + SPY)` : 'the synthetic market (smoke)'}, pool of 2 threads, no ledger`, [
    {
      range: `${prepared.dates[0]} .. ${prepared.dates.at(-1)}`,
      sessions: prepared.sessionTs.length,
      symbols: prepared.symbols.length,
      'load + prepare s': seconds(preparedAt - started),
      'sessions s': seconds(done - preparedAt),
      'total s': seconds(done - started),
      'CPU s (all threads)': seconds((cpu.user + cpu.system) / 1000),
      'symbol-sessions': symbolSessions,
      'symbol-sessions/s': Math.round(symbolSessions / ((done - preparedAt) / 1000)),
      signals,
      records,
    },
  ]);

  const replayLedger = new LedgerRepository(database.db, REPLAY_CHAIN);
  const replays = new ReplayRunsRepository(database.db, replayLedger);
  const ledgerStarted = performance.now();
  const run = await runReplay({ ...deps, replays, log: createLogger('silent') }, short, { origin: 'bench' });
  const ledgerMs = performance.now() - ledgerStarted;
  printTable('bench/replay — a replay written to the replay ledger (runReplay into an in-memory PGlite, one transaction per 21 sessions)', [
    {
      range: `${short.from} .. ${short.to}`,
      sessions: run.sessionsTotal,
      signals: run.signals,
      records: run.records,
      's (incl. loading)': seconds(ledgerMs),
      'records/s': Math.round(run.records / (ledgerMs / 1000)),
    },
  ]);
  await pool.destroy();
  await database.close();
}

if (import.meta.main) await benchReplay();
