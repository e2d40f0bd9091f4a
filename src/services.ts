/**
 * @module services
 * Everything a request handler may use, built once from the config: the
 * database, the market data behind its caches, the scan runs, the ledger and
 * its figures, identity and access (sessions, API keys), the rate-limit store
 * and the logger. Every cache lives on one
 * of these objects, never in a module global. `createServices` is the composition root shared by the server and the
 * tests; `close` releases it all.
 */
import { createExplainer, type Explainer } from './ai';
import { createAuth, type Auth, type AuthOverrides } from './auth';
import { pgliteDataDir, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { BacktestJobsRepository } from './db/repositories/backtest-jobs';
import { BarsRepository } from './db/repositories/bars';
import { ExplanationsRepository } from './db/repositories/explanations';
import { LedgerRepository } from './db/repositories/ledger';
import { ScansRepository } from './db/repositories/scans';
import { BacktestJobs } from './jobs/backtest';
import { HealthMonitor, WarmUp } from './jobs/health';
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
  /** Sessions, API keys and the authenticator that resolves a request's principal. */
  auth: Auth;
  barStore: BarStore;
  pool: KernelPool;
  scans: ScansRepository;
  ledger: LedgerRepository;
  /** Track-record figures of the ledger, cached per ledger head. */
  ledgerFigures: LedgerFigures;
  /** The scan runs: the latest persisted run per timeframe, replays, persisting. */
  runs: SignalRuns;
  bus: EventBus;
  /** Walk-forward backtests: single-symbol runs and universe jobs (their queue and heartbeats). */
  backtests: BacktestJobs;
  /** Background health rounds; probes and /api/health answer from the last one. */
  health: HealthMonitor;
  /** What the boot is doing and has done (readiness). */
  warmUp: WarmUp;
  /** Explanations by the configured language model, with their cache and circuit breaker (`status()` for health and metrics). */
  explainer: Explainer;
  startedAt: number;
  /** The warm-up after the database: the first health round, then the latest daily scan loaded (or made). */
  warm(): Promise<void>;
  close(): Promise<void>;
}

export interface ServiceOverrides {
  provider?: MarketDataProvider;
  log?: Logger;
  /** PGlite data directory; `:memory:` in tests. Defaults to `STATE_DIR/pgdata`. */
  pgliteDir?: string;
  rateLimitStore?: RateLimitStore;
  /** Clock and schedules of the auth layer (tests). */
  auth?: AuthOverrides;
  /** Start every worker thread at boot (the server) rather than on first use. */
  warmPool?: boolean;
  /** The boot's warm-up tracker (the server passes the one its early listener reports). */
  warmUp?: WarmUp;
}

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const log = overrides.log ?? createLogger(config.logLevel);
  const warmUp = overrides.warmUp ?? new WarmUp();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: overrides.pgliteDir ?? pgliteDataDir(config) });
  warmUp.migrated = true;
  const provider = overrides.provider ?? createProvider(config);
  const barStore = new BarStore();
  const marketData = new MarketData({
    provider,
    repository: new BarsRepository(database.db),
    store: barStore,
    ttlMs: config.barsCacheTtlSeconds * 1000,
    log,
  });
  const rateLimitStore = overrides.rateLimitStore ?? createRateLimitStore({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, log });
  const auth = await createAuth(config, database.db, log, overrides.auth);
  const ledger = new LedgerRepository(database.db);
  const pool = createPool({
    threads: config.poolSize,
    warm: overrides.warmPool,
    onError: (error) => log.error('scan worker failed', { error: String(error) }),
  });
  const scans = new ScansRepository(database.db, ledger);
  const bus = new InProcessBus();
  const health = new HealthMonitor({ database, provider, rateLimitStore, pool, log }, { intervalMs: config.healthCheckIntervalSeconds * 1000 });
  const runs = new SignalRuns({ marketData, barStore, pool, scans, ledger, bus, log });
  const backtests = new BacktestJobs({ marketData, barStore, pool, log, bus, repository: new BacktestJobsRepository(database.db) });
  return {
    config,
    log,
    database,
    marketData,
    rateLimitStore,
    auth,
    barStore,
    pool,
    scans,
    ledger,
    ledgerFigures: new LedgerFigures(ledger),
    runs,
    bus,
    backtests,
    health,
    warmUp,
    startedAt: Math.round(performance.timeOrigin), // the process's start: uptime counts the warm-up too
    async warm() {
      await warmUp.run('checking the database, data adapter, rate-limit store and worker pool', () => health.start());
      await warmUp.run('loading the latest daily scan (scanning the universe when there is none)', () => runs.current('daily'));
      warmUp.firstScanLoaded = true;
      warmUp.done();
    },
    explainer: createExplainer(config.ai, { repository: new ExplanationsRepository(database.db), log }),
    async close() {
      health.stop();
      await backtests.close();
      await pool.destroy();
      await marketData.flush();
      await rateLimitStore.close();
      await auth.close();
      await database.close();
    },
  };
}
