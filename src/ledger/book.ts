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
 * @example
 * const book = await services.replayFigures.book(run.id);
 * const card = await book.perHead('scorecard', async () => compute(book.columns));
 */
import { yieldToEventLoop } from '../db/client';
import type { LedgerRepository } from '../db/repositories/ledger';
import type { LedgerFactRow } from '../db/schema';
import { GENESIS_HASH } from './chain';
import { tradeOf, type Trade } from './performance';
import { TradeColumns } from './trade-columns';

export interface BookOptions {
  /** Trades read per query (small on PGlite, which runs in the server's thread). */
  pageSize: number;
}

const OPEN = { outcome: 'open' };

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

export class TradeBook {
  readonly columns = new TradeColumns();
  /** The chain head the book holds the trades of. */
  head = { seq: 0, hash: GENESIS_HASH };
  private loaded = false;
  private extending: Promise<void> | undefined;
  private readonly held = new Map<string, { seq: number; value: Promise<unknown> }>();

  /** @param ledger the chain, scoped to the replay the book holds (unscoped: the live ledger) */
  constructor(
    readonly ledger: LedgerRepository,
    private readonly options: BookOptions,
  ) {}

  /** The book at the chain's current head (loaded or extended first, once however many ask). */
  async current(): Promise<TradeBook> {
    for (;;) {
      const head = await this.ledger.head();
      if (this.loaded && head.seq === this.head.seq) return this;
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
    const value = compute();
    this.held.set(key, { seq: this.head.seq, value });
    value.catch(() => this.held.get(key)?.value === value && this.held.delete(key));
    return value;
  }

  /** Signal id → its trade's index (an outcome names its signal by id). */
  private readonly bySignal = new Map<string, number>();

  private apply(row: LedgerFactRow): void {
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
  ) {}

  /** The book of one replay (or, without one, of the whole chain: the live ledger) at the current head. */
  async book(replayId?: string): Promise<TradeBook> {
    await this.filled();
    const key = replayId ?? '';
    let book = this.books.get(key);
    if (book) this.books.delete(key); // re-inserted last: the most recently read
    else book = new TradeBook(replayId === undefined ? this.ledger : this.ledger.forReplay(replayId), this.options);
    this.books.set(key, book);
    while (this.books.size > this.options.maxBooks) this.books.delete(this.books.keys().next().value!);
    return book.current();
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
