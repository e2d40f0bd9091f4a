/**
 * @module cli/shutdown
 * How `breakline serve` stops on SIGTERM or SIGINT, the way Kubernetes pod
 * termination and HAProxy's health checks expect a server to leave a pool:
 *
 * 1. At once: `/readyz` answers 503 `stopping` (on the warm-up listener too),
 *    and the background work that serves no request is told to stop at its
 *    next safe point: the pool's background lane drops its tasks, the boot
 *    replay commits its slice in progress and resumes at the next start; the scheduler finishes the scan it is running
 *    and starts no other.
 * 2. The drain (`SHUTDOWN_DRAIN_SECONDS`, only once the server has been ready:
 *    one that never was is sent no traffic): the listener goes on serving
 *    every request while the balancer's checks see the 503 and take the
 *    instance out.
 * 3. Event streams end with a reconnection hint (stream/hub `close`): their
 *    clients reconnect within a second, to the instances left, with
 *    Last-Event-ID.
 * 4. The listener closes; requests in flight finish.
 * 5. The database, the worker pool and the connections close; exit 0.
 *
 * A hard deadline (`drain + 3 s`, 5 s by default: DESIGN §4 "exit within
 * 5 s") ends the process whatever is still running: half a second before
 * it, a timer logs the steps it abandons and exits with code 1. Abandoning is
 * safe: an unfinished transaction (a scan's run, a replay's chunk) rolls back
 * and is done again later. Should the event loop itself be blocked then (a
 * long synchronous call: PGlite's WebAssembly opening the database on a first
 * start), a watchdog thread writes that to the log and kills the process
 * just before the deadline: a timer on the blocked loop could not.
 *
 * @example
 * const shutdown = new Shutdown({ log, warmUp, deadlineMs: 5000, release: () => lock.release() });
 * process.on('SIGTERM', () => shutdown.begin('SIGTERM') && void stopEverything(shutdown));
 */
import { Worker } from 'node:worker_threads';
import type { BackgroundWorkers } from '../background/workers';
import type { WarmUp } from '../jobs/health';
import type { Logger } from '../log';

/**
 * How long before the deadline the timer exits in order: ending a process with its worker threads
 * took up to 0.45 s (load 8 on 2 cores).
 */
const TIMER_EARLY_MS = 500;
/**
 * How long before the deadline the watchdog kills (at once, whatever runs): for a loop blocked by
 * synchronous work, such as PGlite's WebAssembly opening a database, which runs the timer late or not at all.
 */
const WATCHDOG_EARLY_MS = 100;

/**
 * The watchdog: a thread of its own that, `ms` from now, writes `line` to
 * stderr, empties the files whose descriptors are `cleared` (the state lock's
 * description: the release the main thread could not reach; descriptors are
 * the process's, shared by its threads) and sends SIGKILL to the process
 * (signals from a thread reach the whole process). It keeps nothing alive
 * (unref) and dies with the process.
 */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
setTimeout(() => {
  fs.writeSync(2, workerData.line);
  for (const fd of workerData.cleared) try { fs.ftruncateSync(fd, 0); } catch {}
  process.kill(workerData.pid, 'SIGKILL');
}, workerData.ms);
`;

export interface ShutdownOptions {
  log: Logger;
  /** Readiness reads `stopping` from it. */
  warmUp: WarmUp;
  /** From the signal to the forced exit. */
  deadlineMs: number;
  /** What must happen on any exit (the state lock's release). */
  release: () => void;
  /** Files the watchdog empties before it kills (the state lock's descriptor): `release` cannot run then. */
  clearedOnKill?: number[];
}

/** Where a step ended. */
export type StepEnd = 'done' | 'failed' | 'cut short';

export class Shutdown {
  private readonly pending = new Map<string, number>();
  private startedAt = 0;
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private watchdog: Worker | undefined;

  constructor(private readonly options: ShutdownOptions) {}

  get log(): Logger {
    return this.options.log;
  }

  get started(): boolean {
    return this.startedAt > 0;
  }

  /** Milliseconds since the signal. */
  get elapsedMs(): number {
    return Math.round(performance.now() - this.startedAt);
  }

  /** Milliseconds left before the deadline timer, less `reserveMs` (at least 0). */
  leftMs(reserveMs = 0): number {
    return Math.max(0, this.options.deadlineMs - TIMER_EARLY_MS - reserveMs - (performance.now() - this.startedAt));
  }

  /**
   * Not ready from this moment; arms the deadline and the watchdog. False when
   * a stop is under way already: then a second signal ends the process at once
   * (an operator pressing Ctrl-C again).
   */
  begin(signal: string): boolean {
    const { log, warmUp, deadlineMs } = this.options;
    if (this.started) {
      log.warn('shutting down: a second signal; exiting now', { signal, abandoned: [...this.pending.keys()] });
      this.exit(1);
      return false;
    }
    this.startedAt = performance.now();
    warmUp.stopping = true;
    log.info('shutting down: /readyz answers 503 from now on', { signal, step: warmUp.step, deadlineMs });
    this.deadline = setTimeout(() => {
      log.error('shutting down: deadline reached; exiting with work abandoned', { deadlineMs, abandoned: this.abandoned() });
      this.exit(1);
    }, deadlineMs - TIMER_EARLY_MS);
    const line = `${JSON.stringify({ level: 'fatal', time: new Date(Date.now() + deadlineMs - WATCHDOG_EARLY_MS).toISOString(), msg: 'shutting down: the event loop did not exit by the deadline; killing the process', pid: process.pid })}\n`;
    try {
      this.watchdog = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { pid: process.pid, ms: deadlineMs - WATCHDOG_EARLY_MS, line, cleared: this.options.clearedOnKill ?? [] } });
      this.watchdog.unref();
    } catch (error) {
      log.warn('shutting down: no watchdog thread (the deadline timer still holds)', { error: String(error) });
    }
    return true;
  }

  /**
   * One step of the stop, logged with how long it took; an error is logged, not
   * thrown. Given `budgetMs`, the step is waited for at most that long and left
   * running after it ('cut short'): the next step (or the deadline) deals with it.
   */
  async step(name: string, work: () => unknown, budgetMs?: number): Promise<StepEnd> {
    const { log } = this.options;
    const began = performance.now();
    this.pending.set(name, began);
    log.info(`shutting down: ${name}`, { atMs: this.elapsedMs });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const running = Promise.resolve().then(work);
      const end =
        budgetMs === undefined
          ? await running.then(() => 'done' as const)
          : await Promise.race([running.then(() => 'done' as const), new Promise<'cut short'>((resolve) => (timer = setTimeout(() => resolve('cut short'), budgetMs)))]);
      if (end === 'done') this.pending.delete(name);
      log[end === 'done' ? 'info' : 'warn'](`shutting down: ${name}${end === 'done' ? ' done' : ': cut short'}`, { tookMs: Math.round(performance.now() - began), atMs: this.elapsedMs });
      return end;
    } catch (error) {
      this.pending.delete(name);
      log.error(`shutting down: ${name} failed`, { error: String(error), atMs: this.elapsedMs });
      return 'failed';
    } finally {
      clearTimeout(timer);
    }
  }

  /** The steps begun and not finished, with how long each has run. */
  abandoned(): string[] {
    const now = performance.now();
    return [...this.pending].map(([name, began]) => `${name} (running ${Math.round(now - began)} ms)`);
  }

  /** Releases what must be released and ends the process. */
  exit(code: number): never {
    clearTimeout(this.deadline);
    if (code === 0) this.options.log.info('shut down', { tookMs: this.elapsedMs });
    try {
      this.options.release();
    } finally {
      process.exit(code);
    }
  }
}

/** What a serving process has started so far: serve fills it in as the warm-up goes. */
export interface Running {
  /** The warm-up listener (stopped once the app listens). */
  early: { stop(closeActiveConnections?: boolean): unknown };
  /** The app, once it listens (during the rest of the warm-up too). */
  app?: { stop(closeActiveConnections?: boolean): Promise<unknown> };
  /** The server has been ready: balancers may send it traffic, so a stop drains. */
  wasReady?: boolean;
  services?: { close(): Promise<void>; hub: { close(reconnectMs?: number): Promise<void> }; pool: { stopBackground(): Promise<void> }; background: Pick<BackgroundWorkers, 'stop'> };
  /** The services while they are built, and the database while it opens (before services own it). */
  building?: Promise<{ close(): Promise<void> }>;
  opening?: Promise<{ close(): Promise<void> }>;
  /** The work after readiness (the services' `after ready` workers: the boot scans, then the boot replay). */
  afterReady?: Promise<unknown>;
}

/** What the steps after the drain leave for closing the database, the pool and the connections. */
const CLOSE_RESERVE_MS = 1000;
/** About how soon event streams' clients reconnect (each within [½, 1] of it: stream/hub `close`). */
const STREAM_RECONNECT_MS = 1000;

/** The stop sequence (see the module comment), from the moment `shutdown.begin` returned true; ends the process. */
export async function stopServing(shutdown: Shutdown, running: Running, drainMs: number): Promise<never> {
  // 1. Background work serves no request: told to stop now, each at its safe point. The `after ready` workers
  // (background/workers: the boot replay commits its chunk in progress and resumes at the next start; the scheduler
  // finishes the scan it runs and starts no other), the last started first; the rest stop as the services close.
  const background = Promise.all([
    // The pool's background lane (replays, universe backtests, the scorecard's baseline): queued tasks dropped, running ones abandoned.
    shutdown.step('the background lane of the worker pool (its tasks dropped)', () => running.services?.pool.stopBackground()),
    running.services?.background.stop({ phase: 'after ready', step: (name, work) => shutdown.step(name, work) }),
    shutdown.step('the boot scans and boot replay (the work after ready ends with its workers)', () => running.afterReady),
  ]);
  // 2. The drain, for a server that has been ready (one still warming up was sent no traffic).
  if (running.app && running.wasReady) await shutdown.step(`draining for ${drainMs} ms (still serving; /readyz 503)`, () => Bun.sleep(drainMs));
  running.early.stop(true);
  // 3. Streams: told to reconnect, elsewhere.
  await shutdown.step('ending event streams (clients told to reconnect)', () => running.services?.hub.close(STREAM_RECONNECT_MS));
  // 4. No new connections; requests in flight finish, within what the deadline leaves.
  const { app } = running;
  if (app && (await shutdown.step('closing the listener; requests in flight finish', () => app.stop(false), shutdown.leftMs(CLOSE_RESERVE_MS))) === 'cut short') {
    await shutdown.step('closing the connections still open', () => app.stop(true));
  }
  await Promise.race([background, Bun.sleep(shutdown.leftMs(CLOSE_RESERVE_MS))]);
  const cut = shutdown.abandoned();
  // 5. Closing: a scan or replay still running fails its transaction here (rolled back, done again later).
  await shutdown.step('closing the database, the worker pool and the connections', async () => {
    const services = running.services ?? (await running.building?.catch(() => undefined));
    if (services) return services.close();
    return (await running.opening?.catch(() => undefined))?.close();
  });
  if (cut.length > 0) shutdown.log.warn('shutting down: stopped with work cut short', { abandoned: cut });
  return shutdown.exit(0);
}
