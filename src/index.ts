/**
 * @module index
 * The executable. `breakline` (or `breakline serve`): parse the config → open
 * the database (migrations run) → build the services → listen. A bad config
 * stops here with a message naming the variable. `breakline healthcheck` asks a
 * running server's /api/health on PORT and exits 0 when it is healthy (the
 * Docker HEALTHCHECK). `breakline verify-ledger` recomputes the ledger's hash
 * chain in the configured database and exits 0 only when it holds.
 */
import { createApp } from './app';
import { ConfigError, loadConfig, pgliteDataDir } from './config';
import { openDatabase } from './db/client';
import { LedgerRepository } from './db/repositories/ledger';
import { verifyLedger } from './ledger/verify';
import { ScanScheduler } from './jobs/scheduler';
import { TIMEFRAMES } from './domain/signal';
import { createServices } from './services';

function configOrExit() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

async function healthcheck(): Promise<never> {
  const { port } = configOrExit();
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(4000) });
    process.stdout.write(`${response.status} ${await response.text()}\n`);
    process.exit(response.ok ? 0 : 1);
  } catch (error) {
    process.stderr.write(`health check failed: ${(error as Error).message}\n`);
    process.exit(1);
  }
}

async function verifyLedgerCommand(): Promise<never> {
  const config = configOrExit();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: pgliteDataDir(config) });
  const report = await verifyLedger(new LedgerRepository(database.db));
  await database.close();
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.exit(report.ok ? 0 : 1);
}

async function serve(): Promise<void> {
  const bootStarted = performance.now();
  const config = configOrExit();
  const services = await createServices(config, { warmPool: true });
  const app = createApp(services).listen({ port: config.port, hostname: config.host });
  const scheduler =
    config.scanIntervalSeconds > 0
      ? new ScanScheduler({ deps: services, database: services.database, log: services.log, intervalMs: config.scanIntervalSeconds * 1000, timeframes: TIMEFRAMES })
      : undefined;
  scheduler?.start();
  services.log.info('breakline listening', {
    url: `http://${config.host}:${app.server?.port}`,
    provider: services.marketData.provider.name,
    database: services.database.kind,
    bootMs: Math.round(performance.now() - bootStarted),
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.log.info('shutting down', { signal });
    await app.stop();
    await scheduler?.stop();
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

const command = process.argv[2] ?? 'serve';
if (command === 'serve') await serve();
else if (command === 'healthcheck') await healthcheck();
else if (command === 'verify-ledger') await verifyLedgerCommand();
else {
  process.stderr.write(`unknown command '${command}'; commands: serve (default), healthcheck, verify-ledger\n`);
  process.exit(64); // EX_USAGE
}
