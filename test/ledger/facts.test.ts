/**
 * The facts kept beside a chain and the trade books read from them (issue 27):
 * appended by the appender in its transaction whatever batches the records
 * come in; a book whose figures are exactly those of the records' bodies (the
 * list-based definitions of ledger/performance); extended by the facts after
 * its head and nothing else; the CSV rendered from them exactly as from the
 * records; and a chain written before the facts were kept filled in once by
 * the backfill.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/db/client';
import { LedgerRepository, REPLAY_CHAIN, type LedgerEntry } from '../../src/db/repositories/ledger';
import { LedgerBooks } from '../../src/ledger/book';
import { LedgerCsv } from '../../src/ledger/csv';
import { csvHeader, csvRows, ledgerEntries } from '../../src/ledger/serialize';
import { confidenceInputs, tallyColumns } from '../../src/ledger/figures';
import { confidenceCheck, confidenceOf, performance, performanceBy, tradesWhere } from '../../src/ledger/performance';
import { freshDatabaseUrl } from '../helpers/db';
import { seedRecords, seedSessions } from '../helpers/ledger-seed';

let database: Database;
let drop: (() => Promise<void>) | undefined;
let sessions: { ts: number; close: number }[];
beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh?.drop;
  database = await openDatabase({ url: fresh?.url, dataDir: ':memory:' });
  sessions = await seedSessions();
});
afterAll(async () => {
  await database.close();
  await drop?.();
});

/** The figures the book gives and the figures of the records' bodies, side by side. */
async function bothWays(ledger: LedgerRepository, books: LedgerBooks, replayId?: string) {
  const book = await books.book(replayId);
  const c = book.columns;
  const { all, by } = await tallyColumns(c, () => true, { band: c.scoreBand, pattern: c.patternType, direction: c.direction, regime: c.regime });
  const trades = await tradesWhere(replayId === undefined ? ledger : ledger.forReplay(replayId), {});
  return {
    book: { all, by, confidence: (({ p, y }) => confidenceOf(p, y))(await confidenceInputs(c)), n: c.n },
    records: {
      all: performance(trades),
      by: { band: performanceBy(trades, (t) => t.scoreBand), pattern: performanceBy(trades, (t) => t.patternType), direction: performanceBy(trades, (t) => t.direction), regime: performanceBy(trades, (t) => t.regime) },
      confidence: confidenceCheck(trades),
      n: trades.length,
    },
  };
}

const kinds = (entries: LedgerEntry[], kind: string) => entries.filter((e) => e.kind === kind);

describe('trades kept beside the live chain', () => {
  let ledger: LedgerRepository;
  let books: LedgerBooks;
  beforeAll(async () => {
    ledger = new LedgerRepository(database.db);
    books = new LedgerBooks(ledger, { pageSize: 64, maxBooks: 2 });
  });

  it("appends each signal's, outcome's and state change's facts with its record, whether follow-ups come with it or later", async () => {
    const together = seedRecords(0, 30, sessions);
    const apart = seedRecords(30, 30, sessions);
    await ledger.append(together);
    await ledger.append(kinds(apart, 'signal'));
    await ledger.append(kinds(apart, 'event'));
    await ledger.append(kinds(apart, 'outcome'));
    const head = await ledger.head();
    const { rows: facts, through } = await ledger.facts.page(undefined, 0, head.seq, 1000);
    expect(through).toBe(head.seq);
    const all = [...together, ...apart];
    expect(facts).toHaveLength(all.length); // every record of these kinds has its facts, in the records' order
    for (const f of facts) {
      const entry = all.find((e) => e.signalId === f.signalId && (e.kind === f.kind || (e.kind === 'event' && f.kind === 'state')))!;
      if (f.kind === 'signal') expect(JSON.parse(f.facts)).toMatchObject({ id: entry.data.id, stopLoss: entry.data.stopLoss, target1: entry.data.target1, state: 'triggered' });
      if (f.kind === 'state') expect(JSON.parse(f.facts)).toEqual({ state: 'confirmed' });
      if (f.kind === 'outcome') expect(JSON.parse(f.facts)).toMatchObject({ outcome: entry.data.outcome, rMultiple: entry.data.rMultiple });
    }
  });

  it('reads the live chain by seq ranges, page after page, to its head: the same facts as one read', async () => {
    const head = await ledger.head();
    const whole = (await ledger.facts.page(undefined, 0, head.seq, head.seq)).rows;
    const paged: typeof whole = [];
    const ends: number[] = [];
    for (let after = 0; after < head.seq; ) {
      const { rows, through } = await ledger.facts.page(undefined, after, head.seq, 7);
      expect(rows.every((r) => r.seq > after && r.seq <= after + 7)).toBe(true);
      paged.push(...rows);
      ends.push((after = through));
    }
    expect(paged).toEqual(whole);
    expect(ends.at(-1)).toBe(head.seq);
  });

  it('gives the figures of the records themselves', async () => {
    await ledger.append(seedRecords(60, 400, sessions));
    const { book, records } = await bothWays(ledger, books);
    expect(book.n).toBe(460);
    expect(book).toEqual(records);
    expect(book.all.closed).toBeGreaterThan(300);
  });

  it('extends by the facts after its head, reading nothing else, when another instance appended', async () => {
    const book = await books.book();
    const before = book.columns.n;
    const read: number[] = [];
    const page = ledger.facts.page.bind(ledger.facts);
    ledger.facts.page = async (...args: Parameters<typeof page>) => {
      const answer = await page(...args);
      read.push(answer.rows.length);
      return answer;
    };
    // Another instance's repository: its appends are told to its own books, not to this one's.
    const other = new LedgerRepository(database.db);
    const more = seedRecords(460, 5, sessions);
    await other.append(kinds(more, 'signal'));
    await other.append(kinds(more, 'outcome'));
    await books.book();
    ledger.facts.page = page;
    expect(book.columns.n).toBe(before + 5);
    expect(read.reduce((a, b) => a + b, 0)).toBe(5 + kinds(more, 'outcome').length); // the new signals and outcomes, each read once
    const { book: figures, records } = await bothWays(ledger, books);
    expect(figures).toEqual(records);
  });

  it('folds what its own chain appends, reading no facts (issue 27: ledger-feed)', async () => {
    const book = await books.book();
    const before = book.columns.n;
    const pagesBefore = book.pagesRead;
    const more = seedRecords(465, 5, sessions);
    await ledger.append(kinds(more, 'signal'));
    await ledger.append(kinds(more, 'outcome'));
    await books.book();
    expect(book.columns.n).toBe(before + 5);
    expect(book.pagesRead).toBe(pagesBefore);
    const { book: figures, records } = await bothWays(ledger, books);
    expect(figures).toEqual(records);
  });

  it("gives each trade as the records give it, with the alert verdict its signal was surfaced with (the record's alert policy reads it)", async () => {
    const book = await books.book();
    const trades = await tradesWhere(ledger, {});
    expect(book.trades(() => true)).toEqual(trades);
    expect(trades.filter((t) => t.alert?.verdict === 'blocked').length).toBeGreaterThan(100);
    expect(trades.filter((t) => t.alert === null).length).toBeGreaterThan(100);
  });

  it('renders the CSV from the facts exactly as from the records and their follow-ups', async () => {
    const head = await ledger.head();
    const rows = await ledger.signalPage(0, head.seq, 10_000);
    const expected = csvHeader() + csvRows(ledgerEntries(rows, await ledger.followUps(rows.map((r) => r.signalId), head.seq)));
    const csv = await new LedgerCsv(ledger, { chunkSignals: 37, maxCachedBytes: 2 ** 20 }).open(null);
    expect(await new Response(csv.stream).text()).toBe(expected);
    expect(csv.etag).toBe(`"${head.hash}"`);
    // Too large to keep: streamed to the client chunk by chunk, the same bytes.
    const live = await new LedgerCsv(ledger, { chunkSignals: 37, maxCachedBytes: 1 }).open(null);
    expect(await new Response(live.stream).text()).toBe(expected);
  });

  it('renders the CSV a slice at a time, the event loop turned between a page read, each slice of its parsing and each chunk written (issue 27)', async () => {
    const chunkSignals = 37;
    let facts = 0;
    const page = ledger.facts.page.bind(ledger.facts);
    ledger.facts.page = async (...args: Parameters<typeof page>) => {
      const answer = await page(...args);
      facts += answer.rows.length;
      return answer;
    };
    // A turn of the event loop is a setImmediate callback run: count them while the CSV renders.
    let turns = 0;
    let rendering = true;
    const turn = () => {
      turns++;
      if (rendering) setImmediate(turn);
    };
    setImmediate(turn);
    try {
      const csv = await new LedgerCsv(ledger, { chunkSignals, maxCachedBytes: 2 ** 20 }).open(null);
      await new Response(csv.stream).text();
    } finally {
      rendering = false;
      ledger.facts.page = page;
    }
    const signals = (await ledger.signalPage(0, (await ledger.head()).seq, 10_000)).length;
    // At least one turn per slice of `chunkSignals` facts parsed and per chunk of `chunkSignals` rows written.
    expect(facts).toBeGreaterThan(4 * chunkSignals);
    expect(turns).toBeGreaterThanOrEqual(Math.ceil(facts / chunkSignals) + Math.ceil(signals / chunkSignals));
  });

  it('fills in the facts of a chain written before they were kept, once', async () => {
    const { book: expected } = await bothWays(ledger, books);
    const before = await ledger.facts.page(undefined, 0, (await ledger.head()).seq, 100_000);
    await database.db.execute(sql`delete from ledger_facts`);
    await database.db.execute(sql`update ledger_chain_state set facts_complete = false, facts_through = 0 where chain = 'live'`);
    const fresh = new LedgerBooks(ledger, { pageSize: 64, maxBooks: 2 });
    const { book } = await bothWays(ledger, fresh);
    expect(book).toEqual(expected);
    expect(await ledger.facts.page(undefined, 0, (await ledger.head()).seq, 100_000)).toEqual(before);
    expect(await ledger.facts.state()).toMatchObject({ factsComplete: true, factsThrough: (await ledger.head()).seq });
  });
});

describe('trades kept beside the replay chain', () => {
  it("keeps each replay's trades apart: a book holds one replay's", async () => {
    const chain = new LedgerRepository(database.db, REPLAY_CHAIN);
    const books = new LedgerBooks(chain, { pageSize: 50, maxBooks: 2 });
    await chain.forReplay('rpl_a').append(seedRecords(0, 120, sessions, 'rpl_a'));
    await chain.forReplay('rpl_b').append(seedRecords(0, 80, sessions, 'rpl_b'));
    const a = await bothWays(chain, books, 'rpl_a');
    const b = await bothWays(chain, books, 'rpl_b');
    expect([a.book.n, b.book.n]).toEqual([120, 80]);
    expect(a.book).toEqual(a.records);
    expect(b.book).toEqual(b.records);
  });
});
