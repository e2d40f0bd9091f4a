/**
 * @module cli/serve — `breakline` / `breakline serve`. Listens first (liveness
 * at once: cli/warming-listener), then warms up behind readiness, logging each
 * step: the application's modules and, beside them, the database and migrations; services and worker threads, the app takes
 * over the port, the first health round, the latest daily scan (on a first start of the embedded
 * database, the synthetic market draws its daily paths in worker threads meanwhile). Then the
 * scheduler starts, and the boot replay of the last two years (REPLAY_ON_BOOT,
 * jobs/replay/boot; once per cluster) runs in the background; SIGINT/SIGTERM stop it all
 * gracefully (cli/shutdown: /readyz 503 at once, a drain, streams told to
 * reconnect, requests in flight finished; exit within SHUTDOWN_DRAIN_SECONDS + 3 s).
 */
import { WarmUp } from '../jobs/health';
import { createLogger, type Logger } from '../log';
import { LocalKeyError } from '../auth/local-key';
import { SessionKeyError } from '../auth/session-keys';
import { existsSync } from 'node:fs';
import { pgliteDataDir } from '../config';
import { configOrExit } from './config';
import { holdEmbeddedDatabase, refusalWhileHeld } from './state-lock';
import { Shutdown, stopServing, type Running } from './shutdown';
import { listenWhileWarming } from './warming-listener';
import { surviveStrayErrors, type StrayKind } from './last-resort';
import pkg from '../../package.json' with { type: 'json' };

/** Work after readiness, logged as the warm-up's steps are (`after ready: … done`, with how long it took). */
async function timed(log: Logger, step: string, work: () => Promise<void>): Promise<void> {
  const started = performance.now();
  log.info(`after ready: ${step}`);
  await work();
  log.info(`after ready: ${step} done`, { tookMs: Math.round(performance.now() - started) });
}

/** Logs when the synthetic market's worker threads have drawn what they were given. */
function drawn(log: Logger, what: string, work: Promise<number>): void {
  const started = performance.now();
  void work.then((count) => log.info(`synthetic market: ${what} drawn in worker threads`, { symbols: count, tookMs: Math.round(performance.now() - started), begunAtMs: Math.round(started) }));
}

/** The pause between the two collections of `collect`. */
const SETTLE_MS = 300;

/**
 * Two full garbage collections `SETTLE_MS` apart, and the process's memory
 * after them (the log says where memory goes). What the first frees comes
 * back over the next moments (JSC sweeps freed blocks lazily, mimalloc
 * purges a freed range after a delay): the second, once that is done, hands
 * it to the system (each `Bun.gc` also collects mimalloc's free pages). After
 * the boot scans of a cold start that is 25–55 MB more than one collection
 * returns (bench/boot; issue 13).
 */
async function collect(when: string, log: Logger): Promise<void> {
  Bun.gc(true);
  await Bun.sleep(SETTLE_MS);
  Bun.gc(true);
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  log.info(`memory ${when}`, { rssMb: mb(rss), heapUsedMb: mb(heapUsed), externalMb: mb(external), arrayBuffersMb: mb(arrayBuffers) });
}

export async function serve(): Promise<void> {
  const startedAt = Math.round(performance.timeOrigin); // the process's start, as services.startedAt
  const config = configOrExit();
  const firstStart = !config.databaseUrl && !existsSync(pgliteDataDir(config));
  const log = createLogger(config.logLevel);
  // Taken before the port is bound (two servers may share a port with reusePort), described once it is.
  const lock = await holdEmbeddedDatabase(config, 'a server starting');
  if (!lock.ok) {
    process.stderr.write(refusalWhileHeld(lock.holder, config, 'start a server'));
    process.exit(75); // EX_TEMPFAIL
  }
  // Errors nothing caught are logged and counted, never the end of the process (cli/last-resort).
  const strays = { rejection: 0, exception: 0 };
  let strayMetrics: { unhandled(kind: StrayKind): void } | undefined;
  surviveStrayErrors(log, (kind) => (strayMetrics ? strayMetrics.unhandled(kind) : strays[kind]++));
  const warmUp = new WarmUp(log);
  const early = listenWhileWarming({ port: config.port, hostname: config.host, warmUp, startedAt });
  const url = `http://${config.host}:${early.port}`;
  lock.describe(`a server at ${url}`, url);
  log.info('breakline listening; warming up (ready at /readyz)', { url, version: pkg.version, pid: process.pid });
  if (config.trustProxy?.legacy) {
    // The old boolean took the left-most X-Forwarded-For entry, which a client writes itself (issue 26 item 5).
    log.warn('TRUST_PROXY=true is read as one trusted proxy on a loopback or private address (the right-most X-Forwarded-For entry it appended is the client); set TRUST_PROXY to the number of proxies in front or to their addresses/CIDRs (docs/operations.md, Quotas)');
  }

  // Stopping works from the first moment, mid warm-up included: whatever has started is closed (cli/shutdown).
  const running: Running = { early };
  const shutdown = new Shutdown({ log, warmUp, deadlineMs: config.shutdown.deadlineMs, release: () => lock.release(), clearedOnKill: lock.fd === undefined ? [] : [lock.fd] });
  const stop = (signal: string) => {
    if (shutdown.begin(signal)) void stopServing(shutdown, running, config.shutdown.drainMs);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  // The app's modules load after the port is open, so liveness does not wait for them.
  // On a first start of the embedded database (no data directory yet: the first daily scan runs before ready), the
  // synthetic market draws its daily paths in worker threads while the application loads and the database opens,
  // so that scan does not wait on them; they are begun first, as the first scan waits on them. A restart loads its
  // scans from the database and draws paths only when asked.
  const { provider, synthetic } = await Promise.all([import('../providers/registry'), import('../providers/synthetic')]).then(([{ createProvider }, { SyntheticProvider }]) => {
    const created = createProvider(config, { log });
    if (created instanceof SyntheticProvider) created.drawColdInWorker(); // a path asked for later (a sector fund after a restart) is drawn off the event loop too
    const drawing = created instanceof SyntheticProvider && firstStart ? created : undefined;
    if (drawing) drawn(log, 'daily paths', drawing.prepareDaily({ threads: config.poolSize }));
    return { provider: created, synthetic: drawing };
  });
  // The database opens beside the application's modules (unpacking, WebAssembly compilation and migrations need none of them).
  const opening = warmUp.run('opening the database (migrations)', () =>
    import('../db/client').then(({ openDatabase }) => openDatabase({ url: config.databaseUrl, dataDir: pgliteDataDir(config), maxConnections: config.databasePoolMax })),
  );
  opening.catch(() => {}); // awaited by createServices, after the application's modules: a failure is reported there
  running.opening = opening;
  const [{ createApp }, { createServices }, { precompileHeavyRoutes }, { prepareGraphQL }] = await warmUp.run('loading the application', () =>
    Promise.all([import('../app'), import('../services'), import('./precompile'), import('../modules/graphql')]),
  );
  if (shutdown.started) return;
  const building = warmUp.run('starting the worker pool, the market data provider and the session keys', () => createServices(config, { provider, database: opening, warmPool: true, log, warmUp }));
  running.building = building;
  const built = await building.catch((error: unknown) => {
    if (error instanceof LocalKeyError || error instanceof SessionKeyError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  });
  running.services = built;
  strayMetrics = built.metrics;
  for (const kind of ['rejection', 'exception'] as const) for (let i = 0; i < strays[kind]; i++) built.metrics.unhandled(kind);
  if (shutdown.started) return;
  log.info(`auth: ${built.auth.mode} mode`, built.auth.description);
  const app = createApp(built);
  await precompileHeavyRoutes(app); // while the warm-up listener answers: a heavy route's first caller does not compose it (cli/precompile)
  await warmUp.run('building the GraphQL schema', () => prepareGraphQL(built)); // likewise for the first GraphQL request
  if (shutdown.started) return;
  running.app = app.listen({ port: early.port, hostname: config.host });
  early.stop();
  // After ready: the services' `after ready` workers (background/workers), one after the other: the boot scans
  // of every timeframe (the scheduler's first pass), then the boot replay, so their peaks of memory and CPU do not
  // stack; a full collection after each returns what they drew on and left behind (synthetic paths, scan garbage)
  // before the next begins.
  const afterReady = async () => {
    // The 1h and 4h bars of a first start are drawn in worker threads, so requests are not kept waiting meanwhile.
    if (synthetic && config.scanIntervalSeconds > 0) drawn(log, '1h and 4h bars', synthetic.prepareIntraday({ threads: config.poolSize }));
    await built.background.start('after ready', async (step, work) => {
      await timed(log, step, async () => work());
      await collect(`after ${step}`, log);
    });
  };
  const warm = async () => {
    if (shutdown.started) return;
    try {
      await built.warm();
      log.info('breakline ready', { url, provider: built.marketData.provider.name, database: built.database.kind, rateLimitStore: built.rateLimitStore.name, readyMs: Date.now() - startedAt });
      running.wasReady = true;
      if (!shutdown.started && !running.afterReady) running.afterReady = afterReady();
    } catch (error) {
      if (shutdown.started) return;
      log.error('warm-up failed: not ready; trying again in 30 s', { step: warmUp.step, error: String(error) });
      setTimeout(() => void warm(), 30_000);
    }
  };
  await warm();
}
