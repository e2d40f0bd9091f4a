/**
 * @module services
 * Everything a request handler may use, built once from the config: the
 * database, the market data behind its caches, the scan runs, the ledger and
 * its figures, the rate-limit store and the logger. Every cache lives on one
 * of these objects, never in a module global. `createServices` is the composition root shared by the server and the
 * tests; `close` releases it all.
 */
import { pgliteDataDir, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { BarsRepository } from './db/repositories/bars';
import { LedgerRepository, REPLAY_CHAIN } from './db/repositories/ledger';
import { ReplayRunsRepository } from './db/repositories/replays';
import { ScansRepository } from './db/repositories/scans';
import { SignalRuns } from './jobs/runs';
import { LedgerFigures } from './ledger/performance';
import { createPool, type KernelPool } from './pool';
import { createLogger, type Logger } from './log';
import { MarketData } from './market-data';
import { createProvider } from './providers/registry';
import type { MarketDataProvider } from './providers/types';
import { createRateLimitStore, type RateLimitStore } from './ratelimit';
import { BarStore } from './store';
import { InProcessBus, type EventBus } from './stream/bus';

export interface Services {
  config: Config;
  log: Logger;
  database: Database;
  marketData: MarketData;
  rateLimitStore: RateLimitStore;
  barStore: BarStore;
  pool: KernelPool;
  scans: ScansRepository;
  ledger: LedgerRepository;
  /** Track-record figures of the ledger, cached per ledger head. */
  ledgerFigures: LedgerFigures;
  /** The replay ledger (its own chain; jobs/replay writes it) and its figures. */
  replayLedger: LedgerRepository;
  replayFigures: LedgerFigures;
  /** Replay runs: parameters, progress, resume state. */
  replays: ReplayRunsRepository;
  /** The scan runs: the latest persisted run per timeframe, replays, persisting. */
  runs: SignalRuns;
  bus: EventBus;
  startedAt: number;
  close(): Promise<void>;
}

export interface ServiceOverrides {
  provider?: MarketDataProvider;
  log?: Logger;
  /** PGlite data directory; `:memory:` in tests. Defaults to `STATE_DIR/pgdata`. */
  pgliteDir?: string;
  rateLimitStore?: RateLimitStore;
  /** Start every worker thread at boot (the server) rather than on first use. */
  warmPool?: boolean;
}

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const log = overrides.log ?? createLogger(config.logLevel);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: overrides.pgliteDir ?? pgliteDataDir(config) });
  const provider = overrides.provider ?? createProvider(config);
  const barStore = new BarStore();
  const marketData = new MarketData({
    provider,
    repository: new BarsRepository(database.db),
    store: barStore,
    ttlMs: config.barsCacheTtlSeconds * 1000,
    log,
  });
  const rateLimitStore = overrides.rateLimitStore ?? createRateLimitStore(config.redisUrl);
  const ledger = new LedgerRepository(database.db);
  const pool = createPool({
    threads: config.poolSize,
    warm: overrides.warmPool,
    onError: (error) => log.error('scan worker failed', { error: String(error) }),
  });
  const scans = new ScansRepository(database.db, ledger);
  const replayLedger = new LedgerRepository(database.db, REPLAY_CHAIN);
  const bus = new InProcessBus();
  return {
    config,
    log,
    database,
    marketData,
    rateLimitStore,
    barStore,
    pool,
    scans,
    ledger,
    ledgerFigures: new LedgerFigures(ledger),
    replayLedger,
    replayFigures: new LedgerFigures(replayLedger),
    replays: new ReplayRunsRepository(database.db, replayLedger),
    runs: new SignalRuns({ marketData, barStore, pool, scans, ledger, bus, log }),
    bus,
    startedAt: Date.now(),
    async close() {
      await pool.destroy();
      await marketData.flush();
      await rateLimitStore.close();
      await database.close();
    },
  };
}
