/**
 * A page of the ledger read over the signal index (issue 27): every filter
 * and offset gives the records and count the chain's own filtered read gives
 * (`signalRecords`: a count and an OFFSET over the records themselves), with
 * no trade book loaded — on the replay chain and the live one; the count kept
 * as signals are appended, per replay; and migration 0018's fill of records
 * written before the index existed the same as the index the appender keeps.
 * Over a seeded replay of 240 signals and 60 live ones (test/helpers/ledger-seed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { LedgerFilter, LedgerRepository } from '../../src/db/repositories/ledger';
import type { LedgerBooks } from '../../src/ledger/book';
import { ledgerFilter } from '../../src/ledger/filter';
import { createTestContext, type TestContext } from '../helpers/app';
import { seedRecords, seedSessions, writeLedgers } from '../helpers/ledger-seed';

let ctx: TestContext;
let replayId: string;
/** Loads of a trade book (of either chain) since the context opened. */
const bookLoads = { n: 0 };
beforeAll(async () => {
  ctx = await createTestContext({ env: { RATE_LIMIT_QUOTA: '100000' } });
  ({ replayId } = await writeLedgers(ctx.services.database.db, { signals: 240, liveSignals: 60 }));
  for (const books of [ctx.services.ledgerFigures, ctx.services.replayFigures] as LedgerBooks[]) {
    const book = books.book.bind(books);
    books.book = ((...args: Parameters<typeof book>) => {
      bookLoads.n++;
      return book(...args);
    }) as typeof book;
  }
});
afterAll(() => ctx.close());

type Page = { count: number; head: { seq: number; hash: string }; records: { seq: number; signal: { id: string }; outcome: { outcome: string } }[] };

/** The query string of a page, and the repository filter the same query means. */
function query(q: Record<string, string | number>): { search: string; filter: LedgerFilter } {
  const search = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
  return { search, filter: ledgerFilter(q as Parameters<typeof ledgerFilter>[0]) };
}

/** Each filter the route takes, alone and together (a day and a month of the seeded sessions). */
async function filtersOf(ledger: LedgerRepository): Promise<Record<string, string | number>[]> {
  const { rows } = await ledger.signalRecords({}, 1_000, 0);
  const day = rows[7]!.detectedAt!.toISOString().slice(0, 10);
  const month = rows[7]!.detectedAt!.toISOString().slice(0, 7);
  return [
    {},
    { patternType: 'vcp' },
    { scoreBand: 'strong' },
    { patternType: 'bull_flag', scoreBand: 'watchlist' },
    { since: day, until: day },
    { since: `${month}-01`, patternType: 'flat_base' },
    { until: `${month}-28`, scoreBand: 'ignore' },
    { patternType: 'no_such_pattern' },
  ];
}

async function expectPagesLikeTheChain(ledger: LedgerRepository, source: Record<string, string>) {
  for (const filters of await filtersOf(ledger)) {
    for (const [offset, limit] of [[0, 1], [0, 25], [13, 7], [200, 100], [5_000, 10]] as const) {
      const { search, filter } = query({ ...source, ...filters, offset, limit });
      const { status, body: page } = await ctx.json<Page>(`/api/transparency/ledger?${search}`);
      expect(status).toBe(200);
      const expected = await ledger.signalRecords(filter, limit, offset);
      expect({ search, count: page.count, seqs: page.records.map((r) => r.seq) }).toEqual({ search, count: expected.total, seqs: expected.rows.map((r) => r.seq) });
    }
  }
}

describe('a ledger page read over the signal index', () => {
  it('gives the records and count the chain itself gives, for every filter and offset, with no trade book loaded', async () => {
    const replay = ctx.services.replayLedger.forReplay(replayId);
    const before = bookLoads.n;
    await expectPagesLikeTheChain(replay, { source: 'replay' });
    await expectPagesLikeTheChain(ctx.services.ledger, { source: 'live' });
    expect(bookLoads.n - before).toBe(0);
    // The page shows each record's follow-ups as of its head: outcomes present (most seeded signals have one).
    const { body: page } = await ctx.json<Page>('/api/transparency/ledger?source=replay&limit=20');
    expect(page.head.seq).toBe((await replay.head()).seq);
    expect(page.records.filter((r) => r.outcome.outcome !== 'open').length).toBeGreaterThan(10);
  });

  it('keeps the count as signals are appended, each replay its own', async () => {
    const sessions = await seedSessions();
    const replay = ctx.services.replayLedger.forReplay(replayId);
    const other = ctx.services.replayLedger.forReplay('rpl_other00000000000000');
    const countOf = async (search: string) => (await ctx.json<Page>(`/api/transparency/ledger?${search}&limit=1`)).body.count;
    const before = await countOf('source=replay');
    const flagsBefore = await countOf('source=replay&patternType=bull_flag');
    // Signals 240… of the seed (new ids) to this replay, and the first 30 to another replay (the same ids, its own).
    await replay.append(seedRecords(240, 50, sessions, replayId));
    await other.append(seedRecords(0, 30, sessions, 'rpl_other00000000000000'));
    await replay.append(seedRecords(290, 5, sessions, replayId));
    const after = await replay.signalRecords({}, 1, 0);
    expect(after.total).toBe(before + 55);
    expect(await countOf('source=replay')).toBe(after.total);
    expect(await countOf('source=replay&patternType=bull_flag')).toBe((await replay.signalRecords({ patternType: 'bull_flag' }, 1, 0)).total);
    expect(await countOf('source=replay&patternType=bull_flag')).toBe(flagsBefore + 20); // signals 240–259 are bull flags (ledger-seed)
    const { body: last } = await ctx.json<Page>(`/api/transparency/ledger?source=replay&offset=${after.total - 3}&limit=10`);
    expect(last.records.map((r) => r.seq)).toEqual((await replay.signalRecords({}, 10, after.total - 3)).rows.map((r) => r.seq));
    expect(await other.signals.page(other.replayId, {}, (await other.head()).seq, 0, 1_000)).toEqual({
      total: 30,
      seqs: (await other.signalRecords({}, 1_000, 0)).rows.map((r) => r.seq),
    });
    await expectPagesLikeTheChain(replay, { source: 'replay' });
  });

  it("is filled in by migration 0018 for records written before it, with the ordinals the appender keeps", async () => {
    const { db } = ctx.services.database;
    const read = async (table: string) => (await db.execute(sql.raw(`select seq, replay_id, detected_at, pattern_type, score_band, n, n_pattern, n_band, n_pattern_band from ${table} order by seq`))) as unknown;
    const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows);
    const kept = { live: rowsOf(await read('ledger_signals')), replay: rowsOf(await read('replay_ledger_signals')) };
    expect(kept.replay.length).toBeGreaterThan(300);
    const fills = readFileSync(join(import.meta.dir, '../../drizzle/0018_ledger_signals.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .filter((statement) => /^\s*(--.*\n)*\s*INSERT INTO/.test(statement));
    expect(fills).toHaveLength(2);
    await db.execute(sql`delete from ledger_signals`);
    await db.execute(sql`delete from replay_ledger_signals`);
    for (const fill of fills) await db.execute(sql.raw(fill));
    expect({ live: rowsOf(await read('ledger_signals')), replay: rowsOf(await read('replay_ledger_signals')) }).toEqual(kept);
  });
});
