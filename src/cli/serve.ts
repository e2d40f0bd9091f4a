/** @module cli/serve — `breakline` / `breakline serve`: config → database (migrations) → services → listen, scheduler, graceful stop. */
import { createApp } from '../app';
import { TIMEFRAMES } from '../domain/signal';
import { ScanScheduler } from '../jobs/scheduler';
import { createServices } from '../services';
import { configOrExit } from './config';

export async function serve(): Promise<void> {
  const bootStarted = performance.now();
  const config = configOrExit();
  const services = await createServices(config, { warmPool: true });
  // The replay buffer fills from boot; an unreachable bus is asked again by the first stream.
  await services.hub.start().catch((error: unknown) => services.log.error('realtime: the event bus cannot be read yet', { error: String(error) }));
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
    await services.hub.close(); // streams end in order; clients resume elsewhere with Last-Event-ID
    await app.stop();
    await scheduler?.stop();
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
