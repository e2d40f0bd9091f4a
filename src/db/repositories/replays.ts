/**
 * @module db/repositories/replays
 * Replay runs and their records in the replay ledger. A run starts with a
 * `replay` record naming its parameters and data source (hashed into the
 * replay chain); its records then land a slice at a time, each slice in one
 * transaction with the count of entries written since the run's stored books
 * (issue 27: small transactions, so the embedded database and the event loop
 * serve others between them). The books — every symbol's state, what a
 * resumed run recomputes from — are stored every so often, a symbol a row, a
 * few at a time; once a set is complete it becomes the one a resume reads.
 * An interrupted replay recomputes from its books and skips the entries it
 * had written: nothing written twice, nothing lost. Stored JSON comes back
 * through checked mappers.
 */
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { BooksSchema, ReplayParamsSchema, SymbolBookSchema, UniverseDescriptionSchema, type Books, type ReplayParams, type UniverseDescription } from '../../domain/replay';
import { storedAs } from '../../domain/check';
import type { Db } from '../client';
import { replayBooks, replayRuns, type ReplayRunRow } from '../schema';
import type { LedgerEntry, LedgerRepository } from './ledger';
import type { AppendedSegment } from './ledger-feed';
import type { EntryText } from './ledger-text';

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
  /** Where a resume starts: the session of the stored books, and the entries written since. */
  booksThrough: number;
  entriesSinceBooks: number;
  error: string | null;
  startedAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

const paramsOf = storedAs(ReplayParamsSchema);
const universeOf = storedAs(UniverseDescriptionSchema);
const booksOf = storedAs(BooksSchema);
const bookOf = storedAs(SymbolBookSchema);
const statusOf = (value: string, what: string): ReplayStatus => {
  const found = REPLAY_STATUSES.find((s) => s === value);
  if (!found) throw new RangeError(`${what}: unknown status ${value}`);
  return found;
};

function runOf(row: Omit<ReplayRunRow, 'books'>): ReplayRun {
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
    booksThrough: row.booksThrough,
    entriesSinceBooks: row.entriesSinceBooks,
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
  booksThrough: replayRuns.booksThrough,
  entriesSinceBooks: replayRuns.entriesSinceBooks,
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
    const segments: AppendedSegment[] = [];
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
      await this.ledger.forReplay(run.id).appendIn(tx, [startRecord], segments);
    });
    // The run's first record: its trade book starts empty here (ledger/book folds each slice after it).
    this.ledger.tell(segments.map((s) => ({ ...s, opens: true })));
    return (await this.get(run.id))!;
  }

  /**
   * Appends a slice of a run's records in one transaction, with the count of
   * entries written since its books (`entriesSinceBooks`, this slice's
   * included) and its signals, only from where the run stands (`progress.records`
   * written so far): a slice another instance wrote first (two resuming one
   * run, one of them after losing its lease) throws ReplayConflict and writes
   * nothing. Resolves to the records written.
   */
  async commitSlice(id: string, entries: readonly EntryText[], progress: { records: number; entriesSinceBooks: number; signals: number }): Promise<number> {
    const segments: AppendedSegment[] = [];
    const count = await this.db.transaction(async (tx) => {
      await this.claim(tx, id, progress.records, 'a slice of its records');
      const written = await this.ledger.forReplay(id).appendTextsIn(tx, entries, segments);
      await tx
        .update(replayRuns)
        .set({
          entriesSinceBooks: progress.entriesSinceBooks,
          signals: sql`${replayRuns.signals} + ${progress.signals}`,
          records: sql`${replayRuns.records} + ${written.length}`,
          updatedAt: new Date(),
        })
        .where(eq(replayRuns.id, id));
      return written.length;
    });
    this.ledger.tell(segments);
    return count;
  }

  /** The run's row locked, if it still stands at `records` written; ReplayConflict otherwise (another instance moved it). */
  private async claim(tx: Pick<Db, 'update'>, id: string, records: number, what: string): Promise<void> {
    const [claimed] = await tx
      .update(replayRuns)
      .set({ updatedAt: new Date() })
      .where(and(eq(replayRuns.id, id), eq(replayRuns.records, records)))
      .returning({ id: replayRuns.id });
    if (!claimed) throw new ReplayConflict(`replay ${id}: ${what} after record ${records} was written by another instance`);
  }

  /** Moves the run's progress (the sessions done, for readers and the progress bar), if it still stands at `records` written (ReplayConflict otherwise). */
  async progress(id: string, sessionsDone: number, records: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.claim(tx, id, records, `the progress to session ${sessionsDone}`);
      await tx.update(replayRuns).set({ sessionsDone }).where(eq(replayRuns.id, id));
    });
  }

  /**
   * Stores every symbol's book (its JSON) as of session `through`, `perStatement`
   * symbols a statement (`between` runs between them: the caller's yield),
   * then, in one transaction, makes it the set a resume reads — every entry
   * up to `through` is written by then, so none is to be skipped — and
   * removes the older set — if the run still stands at `options.records`
   * written (ReplayConflict otherwise).
   */
  async storeBooks(id: string, through: number, books: Readonly<Record<string, string>>, options: { records: number; perStatement: number; between?: () => Promise<void> }): Promise<void> {
    const symbols = Object.keys(books);
    for (let i = 0; i < symbols.length; i += options.perStatement) {
      if (i > 0) await options.between?.();
      const rows = symbols.slice(i, i + options.perStatement).map((symbol) => ({ replay_id: id, through, symbol, book: books[symbol]! }));
      await this.db.execute(sql`
        insert into ${replayBooks} (replay_id, through, symbol, book)
        select replay_id, through, symbol, book from json_to_recordset(${JSON.stringify(rows)}::json) as r(replay_id text, through integer, symbol text, book text)
        on conflict (replay_id, through, symbol) do update set book = excluded.book`);
    }
    await this.db.transaction(async (tx) => {
      await this.claim(tx, id, options.records, `the books through session ${through}`);
      await tx.update(replayRuns).set({ booksThrough: through, entriesSinceBooks: 0, books: null, updatedAt: new Date() }).where(eq(replayRuns.id, id));
      await tx.delete(replayBooks).where(and(eq(replayBooks.replayId, id), ne(replayBooks.through, through)));
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
    if (status === 'done') await this.db.delete(replayBooks).where(eq(replayBooks.replayId, id));
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

  /** A run's stored books, as of its `booksThrough` session (what a resume starts from). */
  async books(id: string): Promise<Books> {
    const [run] = await this.db.select({ books: replayRuns.books, through: replayRuns.booksThrough }).from(replayRuns).where(eq(replayRuns.id, id));
    if (!run) return {};
    // A run written before replay_books kept its books in one column.
    if (run.books) return booksOf(run.books, `replay run ${id} books`);
    const rows = await this.db.select({ symbol: replayBooks.symbol, book: replayBooks.book }).from(replayBooks).where(and(eq(replayBooks.replayId, id), eq(replayBooks.through, run.through)));
    return Object.fromEntries(rows.map((r) => [r.symbol, bookOf(JSON.parse(r.book), `replay run ${id} book of ${r.symbol}`)]));
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
