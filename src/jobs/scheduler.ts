/**
 * @module jobs/scheduler
 * Runs the universe scan of each timeframe when there are new bars: when the
 * benchmark's latest bar is newer than the last run's, or the last run is older
 * than the interval (the current session's partial bar has moved on). Only the
 * instance holding the PostgreSQL advisory lock schedules (PGlite: the one
 * process). Failures are logged and retried on the next tick; a tick never
 * overlaps the previous one. With a live feed, a bar's close asks for a pass
 * at once (`barClosed`) rather than at the next tick, and no scan starts
 * while the feed is filling a gap (`hold`).
 */
import type { Database } from '../db/client';
import type { ScansRepository } from '../db/repositories/scans';
import type { Timeframe } from '../domain/signal';
import type { Logger } from '../log';
import type { MarketData } from '../market-data';
import { DEFAULT_BENCHMARK } from '../providers/universe';
import type { SignalRuns } from './runs';

/** Advisory-lock key of the scheduler leader ("BRKL" in ASCII). */
export const SCHEDULER_LOCK_KEY = 0x42524b4c;

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
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticking: Promise<void> | undefined;
  /** A pass was asked for while one ran: one more follows it. */
  private again = false;
  /** Timeframes whose bar closed: scanned in the next pass whatever the rule says (the bar it stood on was forming). */
  private readonly closed = new Set<Timeframe>();

  constructor(private readonly options: SchedulerOptions) {}

  start(): void {
    if (this.timer) return;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** One pass over the timeframes; resolves when it is done (tests call it directly). */
  tick(): Promise<void> {
    this.ticking ??= this.passes().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  /** A `timeframe` bar closed (a live feed): its scan now, or right after the pass running. Resolves when it is done. */
  barClosed(timeframe: Timeframe): Promise<void> {
    this.closed.add(timeframe);
    this.again = true;
    return this.tick();
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      await this.pass();
    } while (this.again);
  }

  private async pass(): Promise<void> {
    const { deps, database, log, intervalMs, timeframes } = this.options;
    const now = this.options.now ?? Date.now;
    if (this.options.hold?.()) return;
    try {
      if (!(await database.tryLeadership(SCHEDULER_LOCK_KEY))) return;
    } catch (error) {
      log.warn('scheduler could not take the leader lock', { error: String(error) });
      return;
    }
    for (const timeframe of timeframes) {
      try {
        const [last] = await deps.scans.runHistory(timeframe, 1);
        const bench = await deps.marketData.bars(DEFAULT_BENCHMARK, timeframe);
        const latestBar = bench.ts[bench.ts.length - 1];
        const due = this.closed.delete(timeframe) || !last || (latestBar !== undefined && latestBar > last.asOf.getTime()) || now() - last.finishedAt.getTime() >= intervalMs;
        if (!due) continue;
        const runId = await deps.runs.persist(timeframe);
        log.info('scan persisted', { timeframe, runId });
      } catch (error) {
        log.error('scheduled scan failed', { timeframe, error: String(error) });
      }
    }
  }
}
