/**
 * @module services
 * Everything a request handler may use, built once from the config: the
 * database, the market data behind its caches, the scan runs, the ledger and
 * its figures, the rate-limit store, the event bus and the SSE hub, and the logger. Every cache lives on one
 * of these objects, never in a module global. `createServices` is the composition root shared by the server and the
 * tests; `close` releases it all.
 */
import { pgliteDataDir, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { BarsRepository } from './db/repositories/bars';
import { LedgerRepository } from './db/repositories/ledger';
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
import { createEventBus, type EventBus } from './stream/bus';
import { StreamHub } from './stream/hub';

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
  /** The scan runs: the latest persisted run per timeframe, replays, persisting. */
  runs: SignalRuns;
  bus: EventBus;
  /** The SSE hub: replay buffer, subscribers, pings, quotes (GET /api/stream). */
  hub: StreamHub;
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
  /** The event bus (tests give each context a Redis stream of its own). */
  bus?: EventBus;
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
  const { stream } = config;
  const bus = overrides.bus ?? createEventBus({ redisUrl: config.redisUrl, maxLength: stream.replaySize, log });
  const hub = new StreamHub({
    bus,
    quotes: { remote: provider.remote, snapshot: (symbol) => marketData.snapshot(symbol) },
    log,
    pingMs: stream.pingMs,
    retryMs: stream.retryMs,
    replay: { size: stream.replaySize, maxAgeMs: stream.replayMaxAgeSeconds * 1000 },
    quoteIntervalMs: stream.quoteIntervalMs,
    quotePollMs: stream.quotePollSeconds * 1000,
    maxConnections: stream.maxConnections,
    maxConnectionsPerKey: stream.maxConnectionsPerClient,
    queueBytes: stream.queueBytes,
    stallMs: stream.stallSeconds * 1000,
    retryAfterSeconds: Math.max(1, Math.ceil(stream.retryMs / 1000)),
  });
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
    runs: new SignalRuns({ marketData, barStore, pool, scans, ledger, bus, log }),
    bus,
    hub,
    startedAt: Date.now(),
    async close() {
      await hub.close();
      await bus.close();
      await pool.destroy();
      await marketData.flush();
      await rateLimitStore.close();
      await database.close();
    },
  };
}
