/**
 * @module ledger/book
 * The trades of a ledger kept in memory and extended by its head (issue 27):
 * what the scorecard and the monthly rollups read,
 * instead of every record's body on every request. A book is loaded once
 * from the facts kept beside the chain (db/repositories/ledger-facts: a few
 * hundred bytes a signal or outcome), page by page with the event loop free
 * between pages, and from then on reads only the facts after the head it
 * holds: a new signal is a new trade, an outcome closes its signal's trade.
 * Figures are computed once per head and key (`perHead`), and however many
 * callers ask at once, one load, one extension and one computation run.
 * The ledger's pages do not read it: they are read over the signal index
 * (db/repositories/ledger-signals).
 *
 * `LedgerBooks` holds the books of one chain: the live ledger's, or one per
 * replay (the few most recently read), and first fills in the facts of a
 * chain written before they were kept (a backfill over its records, once).
 *
 * Folded as records are appended (issue 27): each committed append is told
 * to the chain's books (db/repositories/ledger-feed), and a book holding the
 * head the append started from folds its records in (the facts the appender
 * had in hand, not read again), so a replay's book is at its head when the
 * replay ends — its figures computed ahead load nothing. A book is kept
 * (`keepSnapshot`) with its head, and a book not in memory (a restart, or
 * one evicted) resumes from that snapshot and reads only the facts after
 * it; a chain without one (stored before) is loaded from its facts once,
 * in pages with the event loop free between them, and kept then.
 *
 * @example
 * const book = await services.replayFigures.book(run.id);
 * const card = await book.perHead('scorecard', async () => compute(book.columns));
 */
import { yieldToEventLoop } from '../db/client';
import type { LedgerRepository } from '../db/repositories/ledger';
import type { LedgerFactRow } from '../db/schema';
import type { AppendedSegment } from '../db/repositories/ledger-feed';
import { columnsOf, snapshotBytes, SNAPSHOT_FORMAT } from './book-snapshot';
import { GENESIS_HASH } from './chain';
import { tradeOf, type Trade } from './performance';
import { TradeColumns } from './trade-columns';

export interface BookOptions {
  /** Trades read per query (small on PGlite, which runs in the server's thread). */
  pageSize: number;
}

const OPEN = { outcome: 'open' };

/** Signal ids looked up between two turns of the event loop as a kept book resumes. */
const RESUME_SLICE = 20_000;

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

export class TradeBook {
  columns = new TradeColumns();
  /** The chain head the book holds the trades of. */
  head = { seq: 0, hash: GENESIS_HASH };
  private loaded = false;
  /** The kept snapshot was looked for (once per book). */
  private resumed = false;
  /** Facts pages read from the chain (what a fold or a snapshot spares; tests count them). */
  pagesRead = 0;
  private extending: Promise<void> | undefined;
  private readonly held = new Map<string, { seq: number; value: Promise<unknown> }>();
  /**
   * Computations over the columns in flight (`perHead`): they read them across
   * turns of the event loop, so the book holds still meanwhile — appends told
   * wait in `deferred` and an extension waits — and a figure is of one head.
   */
  private busy = 0;
  private deferred: AppendedSegment[] = [];
  private idle: (() => void)[] = [];

  /** @param ledger the chain, scoped to the replay the book holds (unscoped: the live ledger) */
  constructor(
    readonly ledger: LedgerRepository,
    private readonly options: BookOptions,
  ) {}

  /** The book at the chain's current head (resumed, loaded or extended first, once however many ask). */
  async current(): Promise<TradeBook> {
    for (;;) {
      if (!this.loaded && !this.resumed) {
        this.extending ??= this.resume().finally(() => (this.extending = undefined));
        await this.extending;
        continue;
      }
      const head = await this.ledger.head();
      // At or past it: a fold may have moved the book while the head was read.
      if (this.loaded && head.seq <= this.head.seq) return this;
      if (this.busy > 0) {
        await new Promise<void>((resolve) => this.idle.push(resolve));
        continue;
      }
      if (!this.extending) {
        this.extending = this.extendTo(head).finally(() => (this.extending = undefined));
        await this.extending;
        return this;
      }
      await this.extending; // another caller's extension, perhaps to an older head: look again
    }
  }

  /** The trades `keep` accepts, in chain order. */
  trades(keep: (i: number) => boolean): Trade[] {
    const out: Trade[] = [];
    for (let i = 0; i < this.columns.n; i++) if (keep(i)) out.push(this.columns.trade(i));
    return out;
  }

  /** The trades of one pattern type, in chain order. */
  ofPattern(patternType: string): Trade[] {
    const { columns } = this;
    const code = columns.codeOf(patternType);
    return code < 0 ? [] : this.trades((i) => columns.patternType[i] === code);
  }

  /** `compute()` once per head and key; a failure is forgotten, so the next caller tries again. */
  perHead<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.held.get(key);
    if (hit && hit.seq === this.head.seq) return hit.value as Promise<T>;
    this.busy++;
    const value = (async () => {
      try {
        return await compute();
      } finally {
        if (--this.busy === 0) this.settled();
      }
    })();
    this.held.set(key, { seq: this.head.seq, value });
    value.catch(() => this.held.get(key)?.value === value && this.held.delete(key));
    return value;
  }

  /** Signal id → its trade's index (an outcome names its signal by id). */
  private bySignal = new Map<string, number>();

  /** Starts empty at `head`: the replay's first record (nothing of it is before). */
  opens(head: { seq: number; hash: string }): void {
    this.loaded = this.resumed = true;
    this.head = { seq: head.seq, hash: head.hash };
  }

  /**
   * Folds a committed append's records in when the book holds the head it
   * started from (and is not being extended meanwhile); else leaves it, and
   * the next read extends the book from the facts after its head.
   */
  fold(segment: AppendedSegment): void {
    if (this.busy > 0) return void this.deferred.push(segment);
    if (!this.loaded || this.extending || segment.from.seq !== this.head.seq || segment.from.hash !== this.head.hash) return;
    try {
      for (const { row, facts } of segment.records) this.apply({ seq: row.seq, kind: row.kind === 'event' ? 'state' : row.kind, signalId: row.signalId, detectedAt: row.detectedAt, facts });
    } catch (error) {
      this.unload(); // a record it could not fold: read again from the facts, not figures of part of a segment
      throw error;
    }
    this.head = { seq: segment.to.seq, hash: segment.to.hash };
  }

  /** The last computation ended: the appends told meanwhile are folded, in order, and the waiting reads go on. */
  private settled(): void {
    for (const segment of this.deferred.splice(0)) {
      try {
        this.fold(segment);
      } catch {
        // Unloaded (fold): the next read loads the book from the facts.
      }
    }
    for (const resolve of this.idle.splice(0)) resolve();
  }

  /** Forgets every trade: the next read loads the book again. */
  private unload(): void {
    this.columns = new TradeColumns();
    this.bySignal = new Map();
    this.head = { seq: 0, hash: GENESIS_HASH };
    this.loaded = false;
    this.resumed = true;
    this.held.clear();
  }

  /**
   * Keeps the book's trades with its head (db/repositories/ledger-figures),
   * for a restart to resume from; nothing when they are kept at its head
   * already (or it holds none yet).
   */
  async keep(): Promise<void> {
    if (!this.loaded) return;
    const head = { seq: this.head.seq, hash: this.head.hash };
    if (await this.ledger.figures.snapshotAt(head, SNAPSHOT_FORMAT)) return;
    await this.ledger.figures.keepSnapshot(head, SNAPSHOT_FORMAT, await snapshotBytes(this.columns));
  }

  /** The book from its kept snapshot, when one is kept at a head of this chain (its hash is the chain's there); else empty. */
  private async resume(): Promise<void> {
    this.resumed = true;
    const kept = await this.ledger.figures.snapshot(SNAPSHOT_FORMAT);
    if (!kept) return;
    const [hash] = [...(await this.ledger.hashesAt([kept.head.seq])).values()];
    if (hash !== kept.head.hash) return;
    await yieldToEventLoop();
    const columns = await columnsOf(kept.bytes);
    if (!columns) return;
    const bySignal = new Map<string, number>();
    for (let i = 0; i < columns.n; i++) {
      if (i > 0 && i % RESUME_SLICE === 0) await yieldToEventLoop();
      bySignal.set(columns.id[i]!, i);
    }
    [this.columns, this.bySignal, this.head, this.loaded] = [columns, bySignal, kept.head, true];
  }

  private apply(row: Pick<LedgerFactRow, 'seq' | 'kind' | 'signalId' | 'detectedAt' | 'facts'>): void {
    if (row.kind !== 'signal' && row.kind !== 'outcome') return;
    const facts = JSON.parse(row.facts) as Record<string, unknown>;
    const c = this.columns;
    if (row.kind === 'signal') {
      const i = c.add(row.seq, tradeOf(facts, OPEN), {
        detectedMs: row.detectedAt?.getTime() ?? Number.NaN,
        stopLoss: num(facts.stopLoss),
        target1: num(facts.target1),
      });
      this.bySignal.set(row.signalId, i);
    } else if (row.kind === 'outcome') {
      const i = this.bySignal.get(row.signalId);
      if (i !== undefined) c.update(i, tradeOf(c.signalFacts(i), facts as Record<string, unknown> & { outcome: string }));
    }
  }

  /** Reads the facts after the head held, through `head`, in chain order. */
  private async extendTo(head: { seq: number; hash: string }): Promise<void> {
    const { facts, replayId } = this.ledger;
    const { pageSize } = this.options;
    for (let after = this.head.seq; after < head.seq; ) {
      // A turn of the loop before each read and between the read and the parsing: PGlite answers in this thread
      // and settles in microtasks, so the head's read, a page's and its parsing would otherwise be one stretch.
      await yieldToEventLoop();
      const { rows, through } = await facts.page(replayId, after, head.seq, pageSize);
      this.pagesRead++;
      await yieldToEventLoop();
      for (const row of rows) this.apply(row);
      after = through;
    }
    this.loaded = true;
    this.head = head;
  }
}

/** Records the facts backfill reads per step (their bodies are parsed). */
const BACKFILL_PAGE = 250;

export class LedgerBooks {
  private readonly books = new Map<string, TradeBook>();
  private filling: Promise<void> | undefined;
  private complete = false;

  /**
   * @param ledger the chain (unscoped)
   * @param options pages, and how many replays' books are kept (the live ledger's is one book)
   */
  constructor(
    readonly ledger: LedgerRepository,
    private readonly options: BookOptions & { maxBooks: number } = { pageSize: 2_000, maxBooks: 3 },
  ) {
    ledger.feed.listen((segment) => this.appended(segment));
  }

  /** The book of one replay (or, without one, of the whole chain: the live ledger) at the current head. */
  async book(replayId?: string): Promise<TradeBook> {
    await this.filled();
    return this.held(replayId ?? '', true).current();
  }

  /** The book under `key` ('' the live ledger's), made when `make`, and now the most recently used. */
  private held(key: string, make: true): TradeBook;
  private held(key: string, make: false): TradeBook | undefined;
  private held(key: string, make: boolean): TradeBook | undefined {
    let book = this.books.get(key);
    if (book) this.books.delete(key); // re-inserted last: the most recently read
    else if (make) book = new TradeBook(key === '' ? this.ledger : this.ledger.forReplay(key), this.options);
    if (!book) return undefined;
    this.books.set(key, book);
    while (this.books.size > this.options.maxBooks) this.books.delete(this.books.keys().next().value!);
    return book;
  }

  /**
   * A committed append (db/repositories/ledger-feed): its records folded into
   * their book; a replay's first records start its book. The other replays'
   * books move to the new head with nothing to fold (none of their records).
   */
  appended(segment: AppendedSegment): void {
    const key = segment.replayId ?? '';
    if (segment.opens && !this.books.has(key)) this.held(key, true).opens(segment.from);
    for (const [bookKey, book] of this.books) book.fold(bookKey === key ? segment : { ...segment, records: [] });
  }

  /** Keeps a book in memory with its head (TradeBook `keep`), for a restart to resume from; none in memory: nothing. */
  async keep(replayId?: string): Promise<void> {
    await this.books.get(replayId ?? '')?.keep();
  }

  /**
   * Resolves once the chain's facts cover every record: at once for a chain
   * whose facts were kept from its first append; a chain written before is
   * filled in first, a page of records at a time (once, shared).
   */
  filled(): Promise<void> {
    if (this.complete) return Promise.resolve();
    this.filling ??= this.backfill().finally(() => (this.filling = undefined));
    return this.filling;
  }

  private async backfill(): Promise<void> {
    const { facts } = this.ledger;
    for (;;) {
      const step = await facts.backfillStep(BACKFILL_PAGE, (row) => (JSON.parse(row.body) as { data: Record<string, unknown> }).data);
      if (step.complete) break;
      await yieldToEventLoop();
    }
    this.complete = true;
  }
}
