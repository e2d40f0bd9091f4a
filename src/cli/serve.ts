/** @module cli/serve — `breakline` / `breakline serve`: config → database (migrations) → services → listen, scheduler, the boot replay (REPLAY_ON_BOOT), graceful stop. */
import { createApp } from '../app';
import { TIMEFRAMES } from '../domain/signal';
import { bootReplay } from '../jobs/replay/boot';
import { ScanScheduler } from '../jobs/scheduler';
import { createServices } from '../services';
import { configOrExit } from './config';

export async function serve(): Promise<void> {
  const bootStarted = performance.now();
  const config = configOrExit();
  const services = await createServices(config, { warmPool: true });
  const app = createApp(services).listen({ port: config.port, hostname: config.host });
  const scheduler =
    config.scanIntervalSeconds > 0
      ? new ScanScheduler({ deps: services, database: services.database, log: services.log, intervalMs: config.scanIntervalSeconds * 1000, timeframes: TIMEFRAMES })
      : undefined;
  scheduler?.start();
  const replayStop = new AbortController();
  const replay = config.replayOnBoot ? bootReplay(services, replayStop.signal) : undefined;
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
    replayStop.abort(); // the replay commits its chunk in progress and resumes at the next start
    await scheduler?.stop();
    await replay;
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
