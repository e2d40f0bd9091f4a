/**
 * @module background/scheduler
 * Runs the universe scan of each timeframe when there are new bars: when the
 * benchmark's latest bar is newer than the last run's, or the last run is older
 * than the interval (the current session's partial bar has moved on). Only the
 * instance holding the scheduler's lease (db/lease; PGlite: the one
 * process) schedules; a leader that loses it (the database restarted) stops
 * before saving, and whoever takes it next carries on. A pass that failed —
 * the database away, most often — is tried again with backoff rather than a
 * whole interval later; a tick never overlaps the previous one. With a live
 * feed, a bar's close asks for a pass at once (`barClosed`) rather than at the
 * next tick, and no scan starts while the feed is filling a gap (`hold`).
 */
import { Lease } from '../db/lease';
import { Poller } from '../poller';
import { LOCK_KEYS } from '../db/cluster-locks';
import type { Database } from '../db/client';
import type { ScansRepository } from '../db/repositories/scans';
import type { Timeframe } from '../domain/signal';
import type { Logger } from '../log';
import type { MarketData } from '../market-data';
import { DEFAULT_BENCHMARK } from '../providers/universe';
import type { SignalRuns } from '../jobs/runs';

export interface SchedulerOptions {
  deps: { runs: SignalRuns; scans: ScansRepository; marketData: MarketData };
  database: Database;
  log: Logger;
  intervalMs: number;
  timeframes: readonly Timeframe[];
  now?: () => number;
  /** While true, no scan starts (a live feed filling a gap: a scan never runs on a series with a hole). */
  hold?: () => boolean;
}

export class ScanScheduler {
  /** Aborted by `stop`: the scan in progress saves its run and skips the steps after it (jobs/runs `persist`). */
  private readonly stopping = new AbortController();
  /** Timeframes whose bar closed: scanned in the next pass whatever the rule says (the bar it stood on was forming). */
  private readonly closed = new Set<Timeframe>();
  private readonly lease: Lease;
  private readonly poller: Poller;

  constructor(private readonly options: SchedulerOptions) {
    this.lease = new Lease({ name: 'scheduler', key: LOCK_KEYS.scheduler, locks: options.database.locks, log: options.log, announce: true });
    this.poller = new Poller({
      what: 'scheduled scan',
      log: options.log,
      everyMs: options.intervalMs,
      pass: () => this.pass(),
      baseMs: 2_000,
      maxMs: Math.min(60_000, options.intervalMs),
      retryWhenStarted: true,
    });
  }

  /** Whether this instance leads (holds the scheduler's lease). */
  get leading(): boolean {
    return this.lease.held;
  }

  start(): void {
    this.poller.start();
  }

  /** Stops scheduling; a pass in progress finishes the scan it is running and starts no other (its safe point). */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.poller.stop();
    await this.lease.close();
  }

  /** One pass over the timeframes (or the one in progress); resolves when it is done (tests call it directly). */
  tick(): Promise<void> {
    return this.poller.run();
  }

  /** A `timeframe` bar closed (a live feed): its scan now, or right after the pass running. Resolves when it is done. */
  barClosed(timeframe: Timeframe): Promise<void> {
    this.closed.add(timeframe);
    return this.poller.kick();
  }

  /** One pass; throws when it must be tried again soon (the poller's backoff): a failure, or the lease lost mid-pass. */
  private async pass(): Promise<void> {
    const { deps, log, intervalMs, timeframes } = this.options;
    const now = this.options.now ?? Date.now;
    if (this.options.hold?.()) return;
    if (!(await this.lease.acquire())) {
      // The database cannot say: asked again soon. Another instance leads: the next tick asks again.
      if (this.lease.unreachable) throw new Error('the scheduler lease cannot be asked for: the database is unreachable');
      return this.poller.reset();
    }
    const signal = this.lease.signal;
    let failure: unknown;
    for (const timeframe of timeframes) {
      // Stopped (a shutdown): the scan that ran is finished, no other begins, no retry is set.
      if (this.poller.stopped) return;
      if (signal.aborted) break;
      try {
        const [last] = await deps.scans.runHistory(timeframe, 1);
        const bench = await deps.marketData.bars(DEFAULT_BENCHMARK, timeframe);
        const latestBar = bench.ts[bench.ts.length - 1];
        const due = this.closed.delete(timeframe) || !last || (latestBar !== undefined && latestBar > last.asOf.getTime()) || now() - last.finishedAt.getTime() >= intervalMs;
        if (!due) continue;
        const runId = await deps.runs.persist(timeframe, { signal, stopping: this.stopping.signal, after: last?.id ?? null });
        log.info('scan persisted', { timeframe, runId });
      } catch (error) {
        failure ??= error;
        if (!signal.aborted) log.error('scheduled scan failed', { timeframe, error: String(error) });
      }
    }
    if (failure === undefined && !signal.aborted) return;
    throw signal.aborted ? signal.reason : failure;
  }
}
