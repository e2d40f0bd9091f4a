/**
 * @module db/repositories/backtest-jobs
 * Rows of `backtest_jobs` (db/schema/backtest-jobs), typed: the JSON columns
 * come back through checked mappers. Every write moves a job forward
 * (queued → running → succeeded | failed) and never touches a finished one.
 */
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { BacktestJobSchema, JOB_STATUSES, JobProgressSchema, WalkForwardResponseSchema, type BacktestJob, type JobProgress, type JobStatus, type WalkForwardResponse } from '../../domain/backtest';
import { storedAs } from '../../domain/check';
import { literalUnion } from '../../domain/signal';
import type { Db } from '../client';
import { backtestJobs, type BacktestJobRow } from '../schema';

const requestOf = storedAs(BacktestJobSchema.properties.request);
const progressOf = storedAs(JobProgressSchema);
const resultOf = storedAs(WalkForwardResponseSchema);
const statusOf = storedAs(literalUnion(JOB_STATUSES));

export interface StoredBacktestJob extends BacktestJob {
  userId: string;
  heartbeatAt: Date | null;
}

function stored(row: BacktestJobRow): StoredBacktestJob {
  const what = `backtest job ${row.id}`;
  return {
    id: row.id,
    userId: row.userId,
    status: statusOf(row.status, `${what} status`),
    progress: progressOf(row.progress, `${what} progress`),
    request: requestOf(row.request, `${what} request`),
    result: row.result === null ? null : resultOf(row.result, `${what} result`),
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    heartbeatAt: row.heartbeatAt,
  };
}

const ACTIVE: JobStatus[] = ['queued', 'running'];

export class BacktestJobsRepository {
  constructor(private readonly db: Db) {}

  async insert(job: { id: string; userId: string; request: BacktestJob['request']; at: Date }): Promise<StoredBacktestJob> {
    const [row] = await this.db
      .insert(backtestJobs)
      .values({ id: job.id, userId: job.userId, status: 'queued', request: job.request, progress: { phase: 'queued', done: 0, total: 0 }, createdAt: job.at, heartbeatAt: job.at })
      .returning();
    return stored(row!);
  }

  async byId(id: string): Promise<StoredBacktestJob | undefined> {
    const [row] = await this.db.select().from(backtestJobs).where(eq(backtestJobs.id, id)).limit(1);
    return row && stored(row);
  }

  /** Queued or running jobs of a user. */
  async activeCount(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(backtestJobs)
      .where(and(eq(backtestJobs.userId, userId), inArray(backtestJobs.status, ACTIVE)));
    return row?.n ?? 0;
  }

  async start(id: string, at: Date): Promise<void> {
    await this.db.update(backtestJobs).set({ status: 'running', startedAt: at, heartbeatAt: at }).where(and(eq(backtestJobs.id, id), eq(backtestJobs.status, 'queued')));
  }

  /** Progress and heartbeat of an active job. */
  async progress(id: string, progress: JobProgress, at: Date): Promise<void> {
    await this.db.update(backtestJobs).set({ progress, heartbeatAt: at }).where(and(eq(backtestJobs.id, id), inArray(backtestJobs.status, ACTIVE)));
  }

  /** Heartbeats of active jobs this process holds (queued ones waiting their turn). */
  async heartbeat(ids: string[], at: Date): Promise<void> {
    if (ids.length) await this.db.update(backtestJobs).set({ heartbeatAt: at }).where(and(inArray(backtestJobs.id, ids), inArray(backtestJobs.status, ACTIVE)));
  }

  async succeed(id: string, result: WalkForwardResponse, progress: JobProgress, at: Date): Promise<void> {
    await this.db
      .update(backtestJobs)
      .set({ status: 'succeeded', result, progress, finishedAt: at, heartbeatAt: at })
      .where(and(eq(backtestJobs.id, id), inArray(backtestJobs.status, ACTIVE)));
  }

  async fail(id: string, error: string, at: Date): Promise<void> {
    await this.db.update(backtestJobs).set({ status: 'failed', error, finishedAt: at }).where(and(eq(backtestJobs.id, id), inArray(backtestJobs.status, ACTIVE)));
  }

  /** Marks failed the active jobs whose heartbeat is older than `before` (their server stopped); answers how many. */
  async failSilent(before: Date, error: string, at: Date): Promise<number> {
    const rows = await this.db
      .update(backtestJobs)
      .set({ status: 'failed', error, finishedAt: at })
      .where(and(inArray(backtestJobs.status, ACTIVE), lt(backtestJobs.heartbeatAt, before)))
      .returning({ id: backtestJobs.id });
    return rows.length;
  }
}
