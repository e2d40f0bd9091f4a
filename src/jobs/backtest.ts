/**
 * @module jobs/backtest
 * Walk-forward backtests of the live detectors (kernels/backtest): a single
 * symbol answered at once, a universe run as a job.
 *
 * Single symbol: the symbol's and the benchmark's complete daily sessions
 * are loaded (cache-through, into the shared store) and one worker task runs
 * the whole walk-forward; fewer bars than `train + purge + test` is a 400.
 *
 * Universe jobs (jobs/backtest-universe): accepted at once (`queued`), run
 * one at a time per process in the order accepted, their progress written to
 * the job row and published on the event bus as `backtest.progress` for the
 * owner's stream; the result (or the error) is written once at the end. A
 * user has at most `MAX_ACTIVE_PER_USER` queued or running jobs. A job whose
 * heartbeat has been silent for `SILENT_AFTER_MS` (its server stopped) reads
 * as `failed`. Only its owner can read a job; to anyone else it does not
 * exist (404). The database going away does not fail a running job: its
 * progress writes are skipped meanwhile (the computation is in the worker
 * pool), its result is written once the database is back (tried with backoff
 * for up to RESULT_TRIES), and heartbeats back off and resume.
 */
import { Backoff, pause } from '../backoff';
import { databaseUnreachable } from '../db/client';
import type { BacktestJobsRepository } from '../db/repositories/backtest-jobs';
import type { BacktestJob, JobProgress, JobStatus, WalkForwardResponse } from '../domain/backtest';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { EventBus } from '../stream/bus';
import { dataFingerprint, walkForwardReport } from './backtest-report';
import { paramsOf, type BacktestDeps, type BacktestRequest } from './backtest-request';
import { runUniverse } from './backtest-universe';

export type { BacktestRequest } from './backtest-request';

export const MAX_ACTIVE_PER_USER = 2;
export const SILENT_AFTER_MS = 120_000;
const HEARTBEAT_MS = 30_000;
const PROGRESS_WRITE_MS = 250;
/** Tries at writing a job's result while the database is unreachable (with backoff up to 30 s: about ten minutes). */
const RESULT_TRIES = 24;

export interface BacktestJobsDeps extends BacktestDeps {
  repository: BacktestJobsRepository;
  bus: EventBus;
  now?: () => number;
}

/** A single-symbol walk-forward backtest, answered at once. */
export async function runSingle(deps: BacktestDeps, request: BacktestRequest): Promise<WalkForwardResponse> {
  const { marketData, barStore, pool, log } = deps;
  const { symbol, benchmark, config } = request;
  await Promise.all([marketData.instrument(symbol), marketData.instrument(benchmark)]); // unknown → 404
  const [{ bars }] = await Promise.all([marketData.completeDaily(symbol), marketData.completeDaily(benchmark)]);
  const needed = config.train + config.purge + config.test;
  const n = bars.ts.length;
  if (n < needed) {
    throw new AppError('invalid_parameter', `Insufficient bars: ${symbol} has ${n} daily bars; one fold needs train + purge + test = ${config.train} + ${config.purge} + ${config.test} = ${needed}`);
  }
  let out;
  try {
    out = await pool.run('walkForward', { handle: barStore.handle(), symbol, benchmark, endTs: bars.ts[n - 1]!, params: paramsOf(config) });
  } catch (error) {
    log.error('walk-forward backtest failed', { symbol, benchmark, error: String(error) });
    throw new AppError('backtest_failed', `The backtest could not be run: ${(error as Error).message}`);
  }
  if (!out.ok) throw new AppError('invalid_parameter', `Insufficient bars: ${symbol} has ${out.bars} daily bars; one fold needs ${needed}`);
  const source = marketData.provider.name;
  return walkForwardReport({
    mode: 'single',
    symbol,
    benchmark,
    config,
    evaluation: out.evaluation,
    holds: { symbol },
    data: { source, symbols: 1, firstBar: out.span[0], lastBar: out.span[1] },
    fingerprint: dataFingerprint(source, out.fingerprints, config),
  });
}

export class BacktestJobs {
  private queue: Promise<void> = Promise.resolve();
  /** Jobs this process holds (queued or running), for their heartbeats. */
  private readonly held = new Set<string>();
  private closing = false;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly now: () => number;
  private readonly heartbeats: Backoff;

  constructor(private readonly deps: BacktestJobsDeps) {
    this.now = deps.now ?? Date.now;
    this.heartbeats = new Backoff({ what: 'backtest heartbeat', log: deps.log });
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref?.();
  }

  /** A single-symbol run (no job). */
  single(request: BacktestRequest): Promise<WalkForwardResponse> {
    return runSingle(this.deps, request);
  }

  /** Accepts a universe run for `userId`: the job as stored, queued. */
  async submit(userId: string, request: BacktestRequest): Promise<BacktestJob> {
    const { repository, marketData } = this.deps;
    if (this.closing) throw new AppError('unavailable', 'The server is shutting down');
    await marketData.instrument(request.benchmark);
    if ((await repository.activeCount(userId)) >= MAX_ACTIVE_PER_USER) {
      throw new AppError('rate_limited', `You have ${MAX_ACTIVE_PER_USER} backtest jobs queued or running; wait for one to finish`, { 'Retry-After': '10' });
    }
    const job = await repository.insert({
      id: newId('btj'),
      userId,
      request: { symbols: request.symbols, universe: request.universe, benchmark: request.benchmark, config: request.config },
      at: new Date(this.now()),
    });
    this.held.add(job.id);
    this.publish(job.id, userId, 'queued', job.progress);
    this.queue = this.queue.then(() => this.execute(job.id, userId, request));
    return strip(job);
  }

  /** The job `id` of `userId`; 404 when there is none (or it is someone else's). */
  async job(userId: string, id: string): Promise<BacktestJob> {
    const { repository } = this.deps;
    let job = await repository.byId(id);
    if (!job || job.userId !== userId) throw new AppError('not_found', `No backtest job ${id}`);
    const silentSince = (job.heartbeatAt?.getTime() ?? 0) + SILENT_AFTER_MS;
    if ((job.status === 'queued' || job.status === 'running') && !this.held.has(id) && silentSince < this.now()) {
      await repository.failSilent(new Date(this.now() - SILENT_AFTER_MS), 'interrupted: the server running it stopped', new Date(this.now()));
      job = (await repository.byId(id))!;
    }
    return strip(job);
  }

  /** Stops taking jobs and waits for the queue; a running job fails at its next step. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    await this.queue;
  }

  private async execute(id: string, userId: string, request: BacktestRequest): Promise<void> {
    const { repository, log } = this.deps;
    const at = () => new Date(this.now());
    let lastWrite = 0;
    let progress: JobProgress = { phase: 'queued', done: 0, total: 0 };
    try {
      if (this.closing) throw new Error('the server is shutting down');
      await repository.start(id, at());
      const report = async (phase: string, done: number, total: number) => {
        const phaseChanged = phase !== progress.phase;
        progress = { phase, done, total };
        this.publish(id, userId, 'running', progress);
        if (phaseChanged || done === total || this.now() - lastWrite >= PROGRESS_WRITE_MS) {
          lastWrite = this.now();
          // The database away: this progress is not written (the next is); the job goes on.
          await repository.progress(id, progress, at()).catch((error: unknown) => {
            if (!databaseUnreachable(error)) throw error;
          });
        }
      };
      const result = await runUniverse(this.deps, request, report, () => this.closing);
      progress = { phase: 'done', done: progress.total, total: progress.total };
      await this.untilWritten(() => repository.succeed(id, result, progress, at()));
      this.publish(id, userId, 'succeeded', progress);
    } catch (error) {
      const message = error instanceof AppError ? error.message : `The backtest could not be run: ${(error as Error).message}`;
      log.error('backtest job failed', { jobId: id, error: String(error) });
      await this.untilWritten(() => repository.fail(id, message, at())).catch((e) => log.error('could not record a failed backtest job', { jobId: id, error: String(e) }));
      this.publish(id, userId, 'failed', progress);
    } finally {
      this.held.delete(id);
    }
  }

  private publish(jobId: string, userId: string, status: JobStatus, progress: JobProgress): void {
    this.deps.bus.publish('backtest.progress', { jobId, userId, status, ...progress, at: new Date(this.now()).toISOString() });
  }

  private async beat(): Promise<void> {
    await this.deps.repository.heartbeat([...this.held], new Date(this.now())).then(
      () => this.heartbeats.succeeded(),
      (error: unknown) => void this.heartbeats.failed(error),
    );
  }

  /** A job's last write, tried again with backoff while the database is unreachable; any other error is thrown at once. */
  private async untilWritten(write: () => Promise<void>): Promise<void> {
    const backoff = new Backoff({ what: 'writing a backtest job', log: this.deps.log });
    for (let tries = 1; ; tries++) {
      try {
        return await write();
      } catch (error) {
        if (!databaseUnreachable(error) || tries >= RESULT_TRIES) throw error;
        await pause(backoff.failed(error));
      }
    }
  }
}

/** The job as the API shows it (without its owner and heartbeat). */
function strip({ userId, heartbeatAt, ...job }: BacktestJob & { userId: string; heartbeatAt: Date | null }): BacktestJob {
  return job;
}
