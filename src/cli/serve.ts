/**
 * @module cli/serve — `breakline` / `breakline serve`. Listens first (liveness
 * at once: cli/warming-listener), then warms up behind readiness, logging each
 * step: the application's modules and, beside them, the database and migrations; services and worker threads, the app takes
 * over the port, the first health round, the latest daily scan (on a first start of the embedded
 * database, the synthetic market draws its daily paths in worker threads meanwhile). Then the
 * scheduler starts, and the boot replay of the last two years (REPLAY_ON_BOOT,
 * jobs/replay/boot; once per cluster) runs in the background; SIGINT/SIGTERM stop it all
 * gracefully (the replay commits its chunk in progress and resumes at the next start).
 */
import { WarmUp } from '../jobs/health';
import { createLogger, type Logger } from '../log';
import { LocalKeyError } from '../auth/local-key';
import { SessionKeyError } from '../auth/session-keys';
import { existsSync } from 'node:fs';
import { pgliteDataDir } from '../config';
import { configOrExit } from './config';
import { embeddedDatabaseHolder, holdEmbeddedDatabase, refusalWhileHeld } from './state-lock';
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
  const holder = embeddedDatabaseHolder(config);
  if (holder) {
    process.stderr.write(refusalWhileHeld(holder, config, 'start a server'));
    process.exit(75); // EX_TEMPFAIL
  }
  // Errors nothing caught are logged and counted, never the end of the process (cli/last-resort).
  const strays = { rejection: 0, exception: 0 };
  surviveStrayErrors(log, (kind) => (services ? services.metrics.unhandled(kind) : strays[kind]++));
  const warmUp = new WarmUp(log);
  const early = listenWhileWarming({ port: config.port, hostname: config.host, warmUp, startedAt });
  const url = `http://${config.host}:${early.port}`;
  const lock = holdEmbeddedDatabase(config, `a server at ${url}`, url);
  log.info('breakline listening; warming up (ready at /readyz)', { url, version: pkg.version, pid: process.pid });

  // Stopping works from the first moment, mid warm-up included: whatever has started is closed.
  let app: { stop(): Promise<unknown> } | undefined;
  let services: { close(): Promise<void>; hub: { close(): Promise<void> }; metrics: { unhandled(kind: StrayKind): void } } | undefined;
  let scheduler: { stop(): Promise<void> } | undefined;
  const replayStop = new AbortController();
  let replay: Promise<unknown> | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal, step: warmUp.step });
    early.stop(true);
    await services?.hub.close(); // streams end in order; clients resume elsewhere with Last-Event-ID
    await app?.stop();
    replayStop.abort(); // the replay commits its chunk in progress and resumes at the next start
    await scheduler?.stop(); // lets a running scan finish
    await replay;
    await services?.close();
    lock.release();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // The app's modules load after the port is open, so liveness does not wait for them.
  // On a first start of the embedded database (no data directory yet: the first daily scan runs before ready), the
  // synthetic market draws its daily paths in worker threads while the application loads and the database opens,
  // so that scan does not wait on them; they are begun first, as the first scan waits on them. A restart loads its
  // scans from the database and draws paths only when asked.
  const { provider, synthetic } = await Promise.all([import('../providers/registry'), import('../providers/synthetic')]).then(([{ createProvider }, { SyntheticProvider }]) => {
    const created = createProvider(config, { log });
    const drawing = created instanceof SyntheticProvider && firstStart ? created : undefined;
    if (drawing) drawn(log, 'daily paths', drawing.prepareDaily({ threads: config.poolSize }));
    return { provider: created, synthetic: drawing };
  });
  // The database opens beside the application's modules (unpacking, WebAssembly compilation and migrations need none of them).
  const opening = warmUp.run('opening the database (migrations)', () =>
    import('../db/client').then(({ openDatabase }) => openDatabase({ url: config.databaseUrl, dataDir: pgliteDataDir(config), maxConnections: config.databasePoolMax })),
  );
  opening.catch(() => {}); // awaited by createServices, after the application's modules: a failure is reported there
  const [{ createApp }, { createServices }, { ScanScheduler }, { TIMEFRAMES }, { bootReplayOnce }] = await warmUp.run('loading the application', () =>
    Promise.all([import('../app'), import('../services'), import('../jobs/scheduler'), import('../domain/signal'), import('../jobs/replay/boot')]),
  );
  const built = await warmUp
    .run('starting the worker pool, the market data provider and the session keys', () => createServices(config, { provider, database: opening, warmPool: true, log, warmUp }))
    .catch((error: unknown) => {
      if (error instanceof LocalKeyError || error instanceof SessionKeyError) {
        process.stderr.write(`${error.message}\n`);
        process.exit(78); // EX_CONFIG
      }
      throw error;
    });
  services = built;
  for (const kind of ['rejection', 'exception'] as const) for (let i = 0; i < strays[kind]; i++) built.metrics.unhandled(kind);
  log.info(`auth: ${built.auth.mode} mode`, built.auth.description);
  app = createApp(built).listen({ port: early.port, hostname: config.host });
  early.stop();
  const live = built.marketData.provider.live;
  const scans =
    config.scanIntervalSeconds > 0
      ? new ScanScheduler({ deps: built, database: built.database, log, intervalMs: config.scanIntervalSeconds * 1000, timeframes: TIMEFRAMES, hold: live && (() => live.backfilling()) })
      : undefined;
  scheduler = scans;
  // A vendor stream's bar close scans its timeframe at once, not at the next tick.
  if (scans && live) live.onClose((close) => void scans.barClosed(close.timeframe));
  // After ready: the boot scans of every timeframe (the scheduler's first pass), then the boot replay, one
  // after the other, so their peaks of memory and CPU do not stack; a full collection after each returns
  // what they drew on and left behind (synthetic paths, scan garbage) before the next begins.
  const afterReady = async () => {
    if (scans) {
      await timed(log, 'the boot scans of every timeframe', () => {
        // The 1h and 4h bars of a first start are drawn in worker threads, so requests are not kept waiting meanwhile.
        if (synthetic) drawn(log, '1h and 4h bars', synthetic.prepareIntraday({ threads: config.poolSize }));
        scans.start();
        return scans.tick();
      });
      await collect('after the boot scans', log);
    }
    if (stopping || !config.replayOnBoot) return;
    await timed(log, 'the boot replay', () => bootReplayOnce({ ...built, locks: built.database.locks }, replayStop.signal));
    await collect('after the boot replay', log);
  };
  const warm = async () => {
    if (stopping) return;
    try {
      await built.warm();
      log.info('breakline ready', { url, provider: built.marketData.provider.name, database: built.database.kind, rateLimitStore: built.rateLimitStore.name, readyMs: Date.now() - startedAt });
      if (!stopping && !replay) replay = afterReady();
    } catch (error) {
      log.error('warm-up failed: not ready; trying again in 30 s', { step: warmUp.step, error: String(error) });
      setTimeout(() => void warm(), 30_000);
    }
  };
  await warm();
}
