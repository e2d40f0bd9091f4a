/**
 * @module background/list
 * The one ordered list of background loops (background/workers), built in the
 * composition root (services.ts) from the services it made: the order they
 * start in, phase by phase, and the reverse of the order they stop in
 * (docs/background.md).
 */
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { ReplayRunsRepository } from '../db/repositories/replays';
import type { ScansRepository } from '../db/repositories/scans';
import { TIMEFRAMES } from '../domain/signal';
import type { HealthMonitor } from '../jobs/health';
import type { SignalRuns } from '../jobs/runs';
import type { Logger } from '../log';
import type { MarketData } from '../market-data';
import type { KernelPool } from '../pool';
import type { LiveFeed } from '../providers/live/types';
import type { MarketDataProvider } from '../providers/types';
import type { BarStore } from '../store';
import type { EventBus } from '../stream/bus';
import type { WorkAhead } from './ahead';
import { BootReplayOnce } from './boot-replay';
import { ScanScheduler } from './scheduler';
import type { BackgroundWorker } from './workers';

/** A loop the account's services run (webhook deliveries, export jobs). */
interface Loop {
  start(): void;
  stop(): Promise<void>;
}

export interface WorkerDeps {
  bus: Pick<EventBus, 'start' | 'stop'>;
  health: HealthMonitor;
  provider: MarketDataProvider;
  marketData: MarketData;
  runs: SignalRuns;
  scans: ScansRepository;
  database: Database;
  account: { webhooks: Loop; exportJobs: Loop };
  replays: ReplayRunsRepository;
  barStore: BarStore;
  pool: KernelPool;
  log: Logger;
  /** The replay's figures computed ahead once it is done (its work: modules/transparency/ahead). */
  figuresAhead: WorkAhead;
}

/**
 * The one ordered list of background loops (background/workers): the order
 * they start in, phase by phase, and the reverse of the order they stop in.
 * The scheduler and the boot replay run only in a server that starts the
 * `after ready` phase (cli/serve); tests start what they need by hand.
 */
export function backgroundWorkers(config: Config, deps: WorkerDeps): BackgroundWorker[] {
  const { bus, health, provider, marketData, runs, scans, database, account, log } = deps;
  const live = provider.live;
  const workers: BackgroundWorker[] = [
    // First, so it stops last: what the other loops publish is still read and relayed until they have stopped. A log that cannot be read yet is read again by the next health round (bus.check).
    { name: 'event bus (log reads, relay catch-up, Redis reads)', phase: 'warm-up', starting: 'reading the event bus', start: () => bus.start().catch(() => undefined), stop: () => bus.stop() },
    { name: 'health rounds', phase: 'warm-up', starting: 'checking the database, data adapter, rate-limit store and worker pool', start: () => health.start().then(() => {}), stop: () => health.stop() },
  ];
  if (live) workers.push({ name: `the ${provider.name} stream`, phase: 'warm-up', starting: `starting the ${provider.name} stream`, start: () => startLive(live, marketData, log), stop: () => live.stop() });
  workers.push(
    { name: 'webhook deliveries', phase: 'ready', start: () => account.webhooks.start(), stop: () => account.webhooks.stop() },
    { name: 'export jobs', phase: 'ready', start: () => account.exportJobs.start(), stop: () => account.exportJobs.stop() },
  );
  if (config.scanIntervalSeconds > 0) {
    // Built when started: a context that never starts it holds no scheduler lease.
    let scheduler: ScanScheduler | undefined;
    workers.push({
      name: 'the scheduler (finishes the scan it runs, starts no other)',
      phase: 'after ready',
      starting: 'the boot scans of every timeframe',
      start: () => {
        const started = new ScanScheduler({ deps: { runs, scans, marketData }, database, log, intervalMs: config.scanIntervalSeconds * 1000, timeframes: TIMEFRAMES, hold: live && (() => live.backfilling()) });
        scheduler = started;
        // A vendor stream's bar close scans its timeframe at once, not at the next tick.
        live?.onClose((close) => void started.barClosed(close.timeframe));
        started.start();
        return started.tick(); // the first pass: the boot scans
      },
      stop: () => scheduler?.stop(),
    });
  }
  if (config.replayOnBoot) {
    // Built when started: a context that never starts it holds no boot replay lease.
    let replay: BootReplayOnce | undefined;
    workers.push({
      name: 'the boot replay (commits its chunk in progress, resumes at the next start)',
      phase: 'after ready',
      starting: 'the boot replay',
      start: () => (replay = new BootReplayOnce({ ...deps, locks: database.locks })).start(),
      stop: () => replay?.stop(),
    });
  }
  workers.push({
    name: "the replay's figures computed ahead (left at a stop: figures are derived, computed again when next asked)",
    phase: 'after ready',
    starting: "the replay's figures computed ahead",
    start: () => deps.figuresAhead.start(),
    // Not waited for: a first computation runs for seconds, shutdown has 5 (issue 27), and nothing kept is lost.
    stop: () => void deps.figuresAhead.stop().catch(() => undefined),
  });
  return workers;
}

/** Rolls the live stream's bars into the held series, for the whole universe, and starts it. */
async function startLive(live: LiveFeed, marketData: MarketData, log: Logger): Promise<void> {
  live.onBar((bar) => marketData.applyLive(bar));
  live.setUniverse((await marketData.instruments()).keys());
  live.start();
  log.info('live stream started', { vendor: live.vendor, universe: (await marketData.instruments()).size });
}
