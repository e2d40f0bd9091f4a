/**
 * @module services
 * Everything a request handler may use, built once from the config: the
 * database, the market data behind its caches, the scan runs, the ledger and
 * its figures, identity and access (sessions, API keys), the rate-limit store,
 * the event bus and the SSE hub, and the logger. Every cache lives on one
 * of these objects, never in a module global. `createServices` is the composition root shared by the server and the
 * tests; `close` releases it all.
 */
import type { DocumentNode } from 'graphql';
import { createExplainer, type Explainer } from './ai';
import { createAuth, type Auth, type AuthOverrides } from './auth';
import { pgliteDataDir, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { LOCK_KEYS } from './db/cluster-locks';
import { BacktestJobsRepository } from './db/repositories/backtest-jobs';
import { BarsRepository } from './db/repositories/bars';
import { ExplanationsRepository } from './db/repositories/explanations';
import { LedgerRepository, REPLAY_CHAIN } from './db/repositories/ledger';
import { ReplayRunsRepository } from './db/repositories/replays';
import { ScansRepository } from './db/repositories/scans';
import { StreamEventsRepository } from './db/repositories/stream-events';
import { BackgroundWorkers } from './background/workers';
import { backgroundWorkers } from './background/list';
import { WorkAhead } from './background/ahead';
import { Lease } from './db/lease';
import { BacktestJobs } from './jobs/backtest';
import { HealthMonitor, WarmUp } from './jobs/health';
import { createAccount, type Account } from './background/account';
import { SignalRuns } from './jobs/runs';
import { SignalReads } from './jobs/signal-reads';
import { LedgerBooks } from './ledger/book';
import { LedgerCsv } from './ledger/csv';
import { LedgerVerifier } from './ledger/verify';
import { createPool, type KernelPool } from './pool';
import { createLogger, type Logger } from './log';
import { Lru } from './lru';
import { Metrics } from './metrics';
import { CompressedBodies } from './plugins/representation';
import { TIMEFRAMES } from './domain/signal';
import { MarketData } from './market-data';
import { createProvider } from './providers/registry';
import { VendorProvider } from './providers/live/vendor-provider';
import { shareLiveFeed } from './background/live-feed';
import type { LiveFeed } from './providers/live/types';
import type { MarketDataProvider } from './providers/types';
import { createRateLimitStore, type RateLimitStore } from './ratelimit';
import { RedisLink } from './redis/link';
import { RedisQueryStore } from './redis/query-store';
import { BarStore } from './store';
import { createEventBus, type EventBus } from './stream/bus';
import { StreamCaps } from './stream/caps';
import { SharedStreamCounts, STREAM_LEASE_MS } from './stream/caps-redis';
import { newId } from './ids';
import { StreamHub } from './stream/hub';
import type { QuoteSource } from './stream/quotes';

export interface Services {
  config: Config;
  log: Logger;
  database: Database;
  marketData: MarketData;
  rateLimitStore: RateLimitStore;
  /** The request path's Redis connection (`REDIS_URL`): rate limits, stream caps, persisted queries; fails fast while Redis is down. */
  redis?: RedisLink;
  /** Sessions, API keys and the authenticator that resolves a request's principal. */
  auth: Auth;
  barStore: BarStore;
  pool: KernelPool;
  scans: ScansRepository;
  ledger: LedgerRepository;
  /** The ledger's trades in memory, extended by its head, and their figures cached per head (ledger/book). */
  ledgerFigures: LedgerBooks;
  /** The replay ledger (its own chain; jobs/replay writes it), its figures and its verifier. */
  replayLedger: LedgerRepository;
  replayFigures: LedgerBooks;
  replayVerifier: LedgerVerifier;
  /** Replay runs: parameters, progress, resume state. */
  replays: ReplayRunsRepository;
  figuresAhead: WorkAhead; // the replay's figures computed ahead (its work: modules/transparency/ahead)
  /** The chain verifier: one pass at a time, its report reused per ledger head and extended incrementally. */
  ledgerVerifier: LedgerVerifier;
  /** The ledger as CSV, rendered once per head. */
  ledgerCsv: LedgerCsv;
  /** The scan runs: the latest persisted run per timeframe, replays, persisting. */
  runs: SignalRuns;
  /** What readers of breakout signals see (jobs/signal-reads), with the REST bodies held per persisted run. */
  signals: SignalReads<string>;
  bus: EventBus;
  /** Walk-forward backtests: single-symbol runs and universe jobs (their queue and heartbeats). */
  backtests: BacktestJobs;
  /** Background health rounds; probes and /api/health answer from the last one. */
  health: HealthMonitor;
  /** What the boot is doing and has done (readiness). */
  warmUp: WarmUp;
  /** Account features: a user's watchlists, alert rules and their dispatch, notifications, journal, exports, community posts. */
  account: Account;
  /** Explanations by the configured language model, with their cache and circuit breaker (`status()` for health and metrics). */
  explainer: Explainer;
  /** The SSE hub: replay buffer, subscribers, pings, quotes (GET /api/stream). */
  hub: StreamHub;
  /** Prometheus metrics (GET /metrics): requests, scans, pool, ledger, database, rate-limit refusals. */
  metrics: Metrics;
  /** Compressed JSON answers by ETag and encoding (plugins/representation). */
  compressedBodies: CompressedBodies;
  /** The caches of /api/graphql (modules/graphql). */
  graphql: GraphQLCaches;
  /**
   * The event streams open on this instance, one budget of sockets for every
   * kind: /api/stream (the hub), a subscription on /api/graphql and a stream
   * on /api/graphql/stream (SSE_MAX_CONNECTIONS per instance,
   * SSE_MAX_CONNECTIONS_PER_CLIENT per client across the instances on one
   * Redis, the same Retry-After).
   */
  streamCaps: StreamCaps;
  startedAt: number;
  /**
   * Every background loop, in the one order they start (phase by phase: the
   * server's warm-up, readiness, after ready) and stop (the last started
   * first): background/workers.
   */
  background: BackgroundWorkers;
  /** The warm-up after the database: the first health round, then the latest daily scan loaded (or made). */
  warm(): Promise<void>;
  /** Registers what a part built later (a module's lazily made service) stops when the services close; run first, in order. */
  atClose(close: () => void | Promise<void>): void;
  close(): Promise<void>;
}

/** A GraphQL answer kept as sent: valid while each timeframe's latest persisted run is still `runs`' (modules/graphql/answers). */
export interface GraphQLAnswer {
  /** The latest persisted run of each timeframe the answer was drawn from, read before it was executed. */
  runs: [timeframe: string, runId: string][];
  /** The document's cost: served only to a caller whose tier's limit allows it. */
  cost: number;
  /** Its root fields: the units of the ordinary rate limit a hit is charged, as an execution is (modules/graphql/costs). */
  fields: number;
  /** Sent as a persisted hash alone: served only while the persisted-query store still holds it. */
  persistedHash?: string;
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
}

export interface GraphQLCaches {
  /** Automatic persisted queries: the query text by its sha256. */
  persistedQueries: Lru<string, string>;
  /** The same, shared by the instances on one Redis (REDIS_URL). */
  sharedQueries?: RedisQueryStore;
  /** yoga's parser cache: documents and parse errors by document text (validation is cached by yoga per document object). */
  documents: Lru<string, DocumentNode>;
  parseErrors: Lru<string, unknown>;
  /** Answers of documents drawn from the latest persisted runs and public data alone, by request (method, API version, Accept, Content-Type, query string or body). */
  answers: Lru<string, GraphQLAnswer>;
  /** GraphiQL's page (inlined scripts and styles), rendered once. */
  graphiql?: Promise<string>;
}

export interface ServiceOverrides {
  provider?: MarketDataProvider;
  log?: Logger;
  /** PGlite data directory; `:memory:` in tests. Defaults to `STATE_DIR/pgdata`. */
  pgliteDir?: string;
  /** The database, opened and migrated (or being opened: the server opens it while the application's modules load); closed by `close`. */
  database?: Database | Promise<Database>;
  rateLimitStore?: RateLimitStore;
  /** Clock and schedules of the auth layer (tests). */
  auth?: AuthOverrides;
  /** Start every worker thread at boot (the server) rather than on first use. */
  warmPool?: boolean;
  /** The boot's warm-up tracker (the server passes the one its early listener reports). */
  warmUp?: WarmUp;
  /** The pool's background-lane niceness (tests: 0; see PoolOptions). */
  backgroundNice?: number;
}

/** Budget of the GraphQL answer cache: a few hundred pages of signals. */
const GRAPHQL_ANSWERS_BYTES = 16 * 2 ** 20;

/** Budget of the compressed-answer cache: the breakouts of three timeframes and a few hundred symbols' bars, in both encodings. */
const COMPRESSED_BODIES_BYTES = 32 * 2 ** 20;

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const log = overrides.log ?? createLogger(config.logLevel);
  const warmUp = overrides.warmUp ?? new WarmUp();
  // The worker threads start first: they load their modules while the database opens.
  const pool = createPool({
    threads: config.poolSize,
    warm: overrides.warmPool,
    backgroundNice: overrides.backgroundNice,
    onError: (error) => log.error('scan worker failed', { error: String(error) }),
  });
  const database = await Promise.resolve(overrides.database ?? openDatabase({ url: config.databaseUrl, dataDir: overrides.pgliteDir ?? pgliteDataDir(config), maxConnections: config.databasePoolMax })).catch(async (error: unknown) => {
    await pool.destroy();
    throw error;
  });
  warmUp.migrated = true;
  const provider = overrides.provider ?? createProvider(config, { log });
  // One vendor connection per cluster (background/live-feed): read by everything below through provider.live.
  const vendor: VendorProvider | undefined = provider instanceof VendorProvider ? provider : undefined;
  if (vendor?.live) vendor.live = shareLiveFeed(vendor.live, { locks: database.locks, redisUrl: config.redisUrl, redisKeyPrefix: config.redisKeyPrefix, log });
  const barStore = new BarStore({ longestSeries: provider.longestSeries });
  const marketData = new MarketData({
    provider,
    repository: new BarsRepository(database.db),
    store: barStore,
    ttlMs: config.barsCacheTtlSeconds * 1000,
    log,
  });
  const redis = config.redisUrl ? new RedisLink({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, log }) : undefined;
  const rateLimitStore = overrides.rateLimitStore ?? createRateLimitStore({ redis, log });
  const auth = await createAuth(config, database.db, log, overrides.auth);
  const ledger = new LedgerRepository(database.db);
  // The realtime stream's durable log: runs and alert dispatches append to it in their transactions; the bus reads it.
  const streamEvents = new StreamEventsRepository(database.db);
  const scans = new ScansRepository(database.db, ledger, streamEvents);
  const replayLedger = new LedgerRepository(database.db, REPLAY_CHAIN);
  // PGlite runs queries in the server's own thread: verifiers read it in small pieces so other requests go between them.
  const verifierOptions = { pageSize: database.kind === 'pglite' ? 250 : 20_000 };
  // Trades are a few hundred bytes each, but PGlite parses a page's rows in one stretch of the server's thread (and
  // the book parses each fact's JSON): 1,000 a page held it past 100 ms at load 15 (the stall guard); 250 do not.
  const bookOptions = { pageSize: database.kind === 'pglite' ? 250 : 10_000, maxBooks: 3 };
  const { stream } = config;
  const streamRetryAfterSeconds = Math.max(1, Math.ceil(stream.retryMs / 1000));
  const bus = createEventBus({
    log: streamEvents,
    redisUrl: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    keep: { events: stream.replaySize, ms: stream.replayMaxAgeSeconds * 1000 },
    logger: log,
  });
  // The per-client cap holds across the instances on one Redis (leases renewed by each instance), per instance without it.
  const sharedStreamCounts = redis && new SharedStreamCounts(redis, { instanceId: newId('ins'), leaseMs: STREAM_LEASE_MS });
  const streamCaps = new StreamCaps({ max: stream.maxConnections, perKey: stream.maxConnectionsPerClient, retryAfterSeconds: streamRetryAfterSeconds }, sharedStreamCounts);
  const hub = new StreamHub({
    bus,
    quotes: { remote: provider.remote, snapshot: (symbol) => marketData.snapshot(symbol), watch: provider.live && liveQuotes(provider.live, provider.name) },
    log,
    pingMs: stream.pingMs,
    retryMs: stream.retryMs,
    replay: { size: stream.replaySize, maxAgeMs: stream.replayMaxAgeSeconds * 1000 },
    quoteIntervalMs: stream.quoteIntervalMs,
    quotePollMs: stream.quotePollSeconds * 1000,
    caps: streamCaps,
    queueBytes: stream.queueBytes,
    stallMs: stream.stallSeconds * 1000,
    retryAfterSeconds: streamRetryAfterSeconds,
  });
  const closers: (() => void | Promise<void>)[] = [];
  const health = new HealthMonitor({ database, provider, rateLimitStore, pool, bus, log }, { intervalMs: config.healthCheckIntervalSeconds * 1000 });
  const metrics = new Metrics();
  const ledgerVerifier = new LedgerVerifier(ledger, verifierOptions);
  const account = createAccount(config, database.db, { scans, ledger, streamEvents, bus, log });
  const runs = new SignalRuns({ marketData, barStore, pool, scans, ledger, bus, log, metrics, alertRules: account.dispatcher, locks: database.locks });
  const replays = new ReplayRunsRepository(database.db, replayLedger);
  const figuresAhead = new WorkAhead({ what: "the replay's figures computed ahead", log, lease: new Lease({ name: "the replay's figures computed ahead", key: LOCK_KEYS.figuresAhead, locks: database.locks, log }) });
  const background = new BackgroundWorkers(backgroundWorkers(config, { bus, health, provider, marketData, runs, scans, database, account, log, replays, barStore, pool, figuresAhead }));
  const signals = new SignalReads<string>({ marketData, barStore, pool, scans, runs, log });
  const backtests = new BacktestJobs({ marketData, barStore, pool, log, bus, repository: new BacktestJobsRepository(database.db) });
  metrics.watch({
    pool: () => ({ threads: pool.threads, ...pool.stats() }),
    ledger: () => ledger.headAndCheckpoint(),
    database: () => {
      const db = health.last?.details.db;
      return { kind: database.kind, maxConnections: database.maxConnections, up: db && db.status !== 'down', pingSeconds: db && db.latencyMs / 1000 };
    },
    health: () => health.last?.checks,
    bus: () => bus.health(),
    stream: () => ({ ...hub.stats(), maxConnections: stream.maxConnections }),
    lastScans: async () => Object.fromEntries(await Promise.all(TIMEFRAMES.map(async (timeframe) => [timeframe, (await scans.runHistory(timeframe, 1))[0]?.finishedAt.getTime()] as const))),
    scanIntervalSeconds: config.scanIntervalSeconds,
    ledgerVerified: async () => (await ledgerVerifier.verify()).ok,
  });
  return {
    config,
    log,
    database,
    marketData,
    rateLimitStore,
    redis,
    auth,
    barStore,
    pool,
    scans,
    ledger,
    ledgerFigures: new LedgerBooks(ledger, bookOptions),
    ledgerVerifier,
    ledgerCsv: new LedgerCsv(ledger, { chunkSignals: database.kind === 'pglite' ? 100 : 2_000, maxCachedBytes: 64 * 2 ** 20 }),
    runs,
    signals,
    replayLedger,
    replayFigures: new LedgerBooks(replayLedger, bookOptions),
    replayVerifier: new LedgerVerifier(replayLedger, verifierOptions),
    replays,
    figuresAhead,
    bus,
    background,
    account,
    backtests,
    hub,
    metrics,
    compressedBodies: new CompressedBodies(COMPRESSED_BODIES_BYTES),
    graphql: {
      persistedQueries: new Lru({ maxEntries: 1000 }),
      sharedQueries: redis && new RedisQueryStore(redis),
      documents: new Lru({ maxEntries: 1000 }),
      parseErrors: new Lru({ maxEntries: 1000 }),
      answers: new Lru({ maxEntries: 2000, maxBytes: GRAPHQL_ANSWERS_BYTES, sizeOf: (answer) => answer.body.byteLength }),
    },
    streamCaps,
    health,
    warmUp,
    startedAt: Math.round(performance.timeOrigin), // the process's start: uptime counts the warm-up too
    async warm() {
      // The replay buffer fills from boot; an unreachable bus is asked again by the first stream.
      await warmUp.run('reading the event bus into the replay buffer', () => hub.start().catch((error: unknown) => log.error('realtime: the event bus cannot be read yet', { error: String(error) })));
      await background.start('warm-up', (name, work) => warmUp.run(name, async () => work()));
      await warmUp.run('loading the latest daily scan (scanning the universe when there is none)', () => runs.current('daily'));
      warmUp.firstScanLoaded = true;
      await background.start('ready');
      warmUp.done();
      // After readiness: prom-client's process metrics are not needed to be ready (src/metrics).
      void metrics.startProcessMetrics();
    },
    explainer: createExplainer(config.ai, { repository: new ExplanationsRepository(database.db), log }),
    atClose(close) {
      closers.push(close);
    },
    async close() {
      const steps: [string, () => unknown][] = [
        ...closers.splice(0).map((close, n): [string, () => unknown] => [`registered closer ${n + 1}`, close]),
        ['background loops', () => background.stop()],
        ['backtest jobs', () => backtests.close()],
        ['stream hub', () => hub.close()],
        ['stream caps', () => streamCaps.close()],
        ['event bus', () => bus.close()],
        ['worker pool', () => pool.destroy()],
        ['market data flush', () => marketData.flush()],
        ['rate-limit store', () => rateLimitStore.close()],
        ['redis', () => redis?.close()],
        ['auth', () => auth.close()],
        ['database', () => database.close()],
      ];
      for (const [step, close] of steps) await timedStep(log, step, close);
    },
  };
}

/**
 * One step of `close`, named in the log as it starts (debug) and when it took
 * over a second (warn): a shutdown that overruns its deadline, or a test's
 * teardown that hangs, says which part it waited for.
 */
async function timedStep(log: Logger, step: string, close: () => unknown): Promise<void> {
  const started = performance.now();
  log.debug('closing', { step });
  await close();
  const ms = Math.round(performance.now() - started);
  if (ms > 1000) log.warn('closing took long', { step, ms });
}

/** A live stream's trades as the hub's quotes: pushed, never polled (stream/quotes). */
function liveQuotes(live: LiveFeed, source: string): QuoteSource['watch'] {
  return (symbol, onQuote) => live.watch(symbol, (trade) => onQuote({ symbol, price: trade.price, volume: trade.dayVolume ?? 0, ts: new Date(trade.ts).toISOString(), source }));
}
