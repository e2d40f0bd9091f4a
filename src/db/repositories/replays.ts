/**
 * @module db/repositories/replays
 * Replay runs and their records in the replay ledger. A run starts with a
 * `replay` record naming its parameters and data source (hashed into the
 * replay chain); each chunk of sessions then lands in one transaction with
 * the run's progress and per-symbol books, so an interrupted replay resumes
 * exactly after its last chunk, with nothing written twice and nothing lost.
 * Stored JSON comes back through checked mappers.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { BooksSchema, ReplayParamsSchema, UniverseDescriptionSchema, type Books, type ReplayParams, type UniverseDescription } from '../../domain/replay';
import { storedAs } from '../../domain/check';
import type { Db } from '../client';
import { replayRuns, type ReplayRunRow } from '../schema';
import type { LedgerEntry, LedgerRepository } from './ledger';

export const REPLAY_STATUSES = ['running', 'done', 'failed'] as const;
export type ReplayStatus = (typeof REPLAY_STATUSES)[number];

/** A replay run as readers see it (without its books). */
export interface ReplayRun {
  id: string;
  key: string;
  timeframe: string;
  from: string;
  to: string;
  source: string;
  origin: string;
  params: ReplayParams;
  universe: UniverseDescription;
  status: ReplayStatus;
  sessionsTotal: number;
  sessionsDone: number;
  signals: number;
  records: number;
  error: string | null;
  startedAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

const paramsOf = storedAs(ReplayParamsSchema);
const universeOf = storedAs(UniverseDescriptionSchema);
const booksOf = storedAs(BooksSchema);
const statusOf = (value: string, what: string): ReplayStatus => {
  const found = REPLAY_STATUSES.find((s) => s === value);
  if (!found) throw new RangeError(`${what}: unknown status ${value}`);
  return found;
};

function runOf(row: ReplayRunRow): ReplayRun {
  const what = `replay run ${row.id}`;
  return {
    id: row.id,
    key: row.key,
    timeframe: row.timeframe,
    from: row.fromDate,
    to: row.toDate,
    source: row.source,
    origin: row.origin,
    params: paramsOf(row.params, `${what} params`),
    universe: universeOf(row.universe, `${what} universe`),
    status: statusOf(row.status, what),
    sessionsTotal: row.sessionsTotal,
    sessionsDone: row.sessionsDone,
    signals: row.signals,
    records: row.records,
    error: row.error,
    startedAt: row.startedAt,
    updatedAt: row.updatedAt,
    finishedAt: row.finishedAt,
  };
}

/** Columns of a run without its books (the books can be megabytes). */
const SUMMARY = {
  id: replayRuns.id,
  key: replayRuns.key,
  timeframe: replayRuns.timeframe,
  fromDate: replayRuns.fromDate,
  toDate: replayRuns.toDate,
  source: replayRuns.source,
  origin: replayRuns.origin,
  params: replayRuns.params,
  universe: replayRuns.universe,
  status: replayRuns.status,
  sessionsTotal: replayRuns.sessionsTotal,
  sessionsDone: replayRuns.sessionsDone,
  signals: replayRuns.signals,
  records: replayRuns.records,
  books: sql<null>`null`,
  error: replayRuns.error,
  startedAt: replayRuns.startedAt,
  updatedAt: replayRuns.updatedAt,
  finishedAt: replayRuns.finishedAt,
};

export interface NewReplayRun {
  id: string;
  key: string;
  params: ReplayParams;
  source: string;
  origin: string;
  universe: UniverseDescription;
  sessionsTotal: number;
}

/** A replay chunk that another instance committed first: this one stops, leaving the run to it. */
export class ReplayConflict extends Error {
  override readonly name = 'ReplayConflict';
}

export class ReplayRunsRepository {
  /** @param ledger the replay chain (unscoped); each run appends through its own scope */
  constructor(
    private readonly db: Db,
    readonly ledger: LedgerRepository,
  ) {
    if (ledger.chain.name !== 'replay') throw new RangeError('replay runs append to the replay chain');
  }

  /** Records a new run and its `replay` record (parameters and data source) in one transaction. */
  async start(run: NewReplayRun, startRecord: LedgerEntry): Promise<ReplayRun> {
    const now = new Date();
    await this.db.transaction(async (tx) => {
      await tx.insert(replayRuns).values({
        id: run.id,
        key: run.key,
        timeframe: run.params.timeframe,
        fromDate: run.params.from,
        toDate: run.params.to,
        source: run.source,
        origin: run.origin,
        params: run.params,
        universe: run.universe,
        status: 'running',
        sessionsTotal: run.sessionsTotal,
        sessionsDone: 0,
        signals: 0,
        records: 1,
        startedAt: now,
        updatedAt: now,
      });
      await this.ledger.forReplay(run.id).appendIn(tx, [startRecord]);
    });
    return (await this.get(run.id))!;
  }

  /**
   * Appends a chunk's records and moves the run's progress, in one transaction,
   * only from where the run stands (`progress.from` sessions done): a chunk
   * another instance committed first (two resuming one run, one of them after
   * losing its lease) throws ReplayConflict and writes nothing.
   * Resolves to the records written.
   */
  async commitChunk(id: string, entries: LedgerEntry[], progress: { from: number; sessionsDone: number; signals: number; books: Books }): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(replayRuns)
        .set({ sessionsDone: progress.sessionsDone })
        .where(and(eq(replayRuns.id, id), eq(replayRuns.sessionsDone, progress.from)))
        .returning({ id: replayRuns.id });
      if (!claimed) throw new ReplayConflict(`replay ${id}: sessions ${progress.from}–${progress.sessionsDone} were committed by another instance`);
      const written = await this.ledger.forReplay(id).appendIn(tx, entries);
      await tx
        .update(replayRuns)
        .set({
          sessionsDone: progress.sessionsDone,
          signals: sql`${replayRuns.signals} + ${progress.signals}`,
          records: sql`${replayRuns.records} + ${written.length}`,
          books: progress.books,
          updatedAt: new Date(),
        })
        .where(eq(replayRuns.id, id));
      return written.length;
    });
  }

  /** Marks a run running again (a resumed one). */
  async resume(id: string): Promise<void> {
    await this.db.update(replayRuns).set({ status: 'running', error: null, finishedAt: null, updatedAt: new Date() }).where(eq(replayRuns.id, id));
  }

  /** Ends a run: `done` (its books are dropped: nothing resumes a finished run) or `failed` with the reason. */
  async finish(id: string, status: 'done' | 'failed', error?: string): Promise<void> {
    const now = new Date();
    await this.db
      .update(replayRuns)
      .set({ status, error: error ?? null, finishedAt: now, updatedAt: now, ...(status === 'done' ? { books: null } : {}) })
      .where(eq(replayRuns.id, id));
  }

  async get(id: string): Promise<ReplayRun | undefined> {
    const [row] = await this.db.select(SUMMARY).from(replayRuns).where(eq(replayRuns.id, id));
    return row && runOf(row);
  }

  /** The newest run with this key (the same parameters and source), any status. */
  async byKey(key: string): Promise<ReplayRun | undefined> {
    const [row] = await this.db.select(SUMMARY).from(replayRuns).where(eq(replayRuns.key, key)).orderBy(desc(replayRuns.startedAt)).limit(1);
    return row && runOf(row);
  }

  /** A run's books after its last committed chunk (what a resume starts from). */
  async books(id: string): Promise<Books> {
    const [row] = await this.db.select({ books: replayRuns.books }).from(replayRuns).where(eq(replayRuns.id, id));
    return row?.books ? booksOf(row.books, `replay run ${id} books`) : {};
  }

  /** The run a reader sees by default: the newest finished one, else the newest of any status. */
  async current(): Promise<ReplayRun | undefined> {
    const [done] = await this.db.select(SUMMARY).from(replayRuns).where(eq(replayRuns.status, 'done')).orderBy(desc(replayRuns.finishedAt)).limit(1);
    if (done) return runOf(done);
    const [any] = await this.db.select(SUMMARY).from(replayRuns).orderBy(desc(replayRuns.updatedAt)).limit(1);
    return any && runOf(any);
  }

  /** Runs newest first. */
  async list(limit = 20): Promise<ReplayRun[]> {
    return (await this.db.select(SUMMARY).from(replayRuns).orderBy(desc(replayRuns.startedAt)).limit(limit)).map(runOf);
  }

  /** Runs of a data source and origin (the boot replay looks for its own). */
  async of(source: string, origin: string): Promise<ReplayRun[]> {
    return (await this.db.select(SUMMARY).from(replayRuns).where(and(eq(replayRuns.source, source), eq(replayRuns.origin, origin))).orderBy(desc(replayRuns.startedAt))).map(runOf);
  }
}
