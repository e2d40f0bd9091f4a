/**
 * The trade books folded as records are appended (issue 27, ledger/book and
 * db/repositories/ledger-feed): on both chains, with outcomes appended in
 * later transactions than their signals, a book that held the head an
 * append started from folds its records in without reading a page of facts,
 * and holds exactly the columns (ledger/book-snapshot, byte for byte) a book
 * loaded from scratch holds, so its scorecard and months are the same bytes
 * (generatedAt aside). A kept book resumes a restart with no page read, and
 * extends with only the facts after its head. Over test/helpers/ledger-seed's
 * records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { sql } from 'drizzle-orm';
import { entryText } from '../../src/db/repositories/ledger-text';
import { snapshotBytes, SNAPSHOT_FORMAT } from '../../src/ledger/book-snapshot';
import type { TradeColumns } from '../../src/ledger/trade-columns';
import { monthlyJson, scorecardJson } from '../../src/modules/transparency/performance';
import type { LedgerEntry } from '../../src/db/repositories/ledger';
import { createTestContext, type TestContext } from '../helpers/app';
import { seedRecords, seedSessions } from '../helpers/ledger-seed';
import { restartCounting } from '../helpers/restart-counting';

let ctx: TestContext;
const contexts: TestContext[] = [];
const replayId = 'rpl_folded00000000000000';
const NOW = Date.now();
let sessions: { ts: number; close: number }[];
let records = 1;
/** Outcomes held back from the first appends, to land after later signals. */
const heldBack: { replay: LedgerEntry[]; live: LedgerEntry[] } = { replay: [], live: [] };

beforeAll(async () => {
  ctx = await createTestContext();
  sessions = await seedSessions();
});
afterAll(async () => {
  for (const c of contexts.reverse()) await c.close();
  await ctx.close();
});

/** A book's columns as its snapshot's bytes (every trade, code and word: equal bytes, equal books). */
const snapshotText = async (c: TradeColumns) => Buffer.from(await snapshotBytes(c)).toString('base64');

const noGeneratedAt = (json: string) => json.replace(/"generatedAt":"[^"]*"/g, '"generatedAt":""');
const outcomes = (entries: LedgerEntry[]) => entries.filter((e) => e.kind === 'outcome');
const others = (entries: LedgerEntry[]) => entries.filter((e) => e.kind !== 'outcome');

/** One replay slice through the server's own repositories (their appends are told to its books). */
async function slice(entries: LedgerEntry[]): Promise<void> {
  records += await ctx.services.replays.commitSlice(replayId, entries.map((e) => entryText(e, 'replay')), { records, entriesSinceBooks: 0, signals: entries.filter((e) => e.kind === 'signal').length });
}

/** Drops the kept figures (not the books' snapshots), so the next read computes them over its own book. */
async function forgetFigures(): Promise<void> {
  await ctx.services.database.db.execute(sql`delete from ledger_figures where figure not like 'book:%'`);
}

describe('trade books folded as records are appended', () => {
  it('folds both chains with no facts read, into the same columns and the same figures as a load from scratch', async () => {
    const { replays, ledger, replayFigures, ledgerFigures } = ctx.services;
    const run = { timeframe: 'daily' as const, from: new Date(sessions[0]!.ts).toISOString().slice(0, 10), to: new Date(sessions.at(-1)!.ts).toISOString().slice(0, 10), universe: { kind: 'symbols' as const, symbols: ['AAPL', 'MSFT'] }, benchmark: 'SPY' };
    await replays.start(
      { id: replayId, key: 'folded', params: run, source: 'synthetic', origin: 'test', universe: { kind: 'symbols', membership: 'a fixed list', symbols: 2, membersWithoutData: 0, minCoverage: 1, survivorshipBias: true, survivorshipNote: 'seeded' }, sessionsTotal: sessions.length },
      { kind: 'replay', signalId: replayId, replayId, data: { mode: 'replay', params: run } },
    );
    const live = await ledgerFigures.book(); // the live book, loaded (empty) before its first append
    expect(live.columns.n).toBe(0);
    // Signals 0–119 without their outcomes; then their outcomes with signals 120–239; then those signals' outcomes.
    const [first, second] = [seedRecords(0, 120, sessions, replayId), seedRecords(120, 120, sessions, replayId)];
    await slice(others(first));
    await slice([...others(second).slice(0, 100), ...outcomes(first), ...others(second).slice(100)]);
    heldBack.replay = outcomes(second);
    await slice(heldBack.replay.slice(0, 40));
    heldBack.replay = heldBack.replay.slice(40);
    await replays.finish(replayId, 'done');
    const [liveFirst, liveSecond] = [seedRecords(0, 60, sessions), seedRecords(60, 60, sessions)];
    await ledger.append(others(liveFirst));
    await ledger.append([...outcomes(liveFirst), ...others(liveSecond)]);
    heldBack.live = outcomes(liveSecond);

    const folded = await replayFigures.book(replayId);
    expect(folded.pagesRead).toBe(0);
    expect(folded.columns.n).toBe(240);
    expect((await ledgerFigures.book()).pagesRead).toBe(0);
    expect(live.columns.n).toBe(120);

    const { ctx: scratch, counts } = await restartCounting(ctx, contexts);
    const loaded = await scratch.services.replayFigures.book(replayId);
    expect(counts.bookPages).toBeGreaterThan(0);
    expect(await snapshotText(loaded.columns)).toBe(await snapshotText(folded.columns));
    expect({ seq: loaded.head.seq, hash: loaded.head.hash }).toEqual({ seq: folded.head.seq, hash: folded.head.hash });
    expect(await snapshotText((await scratch.services.ledgerFigures.book()).columns)).toBe(await snapshotText(live.columns));

    const month = run.from.slice(0, 7);
    for (const source of ['replay', 'live'] as const) {
      const fromScratch = [await scorecardJson(scratch.services, { source }, NOW), await monthlyJson(scratch.services, { source, month })];
      await forgetFigures();
      const fromFold = [await scorecardJson(ctx.services, { source }, NOW), await monthlyJson(ctx.services, { source, month })];
      expect(fromFold.map(noGeneratedAt)).toEqual(fromScratch.map(noGeneratedAt));
      expect(JSON.parse(fromFold[0]!).allTime.closed).toBeGreaterThan(0);
    }
  }, 60_000);

  it('resumes a kept book with no facts read, and extends it with only the outcomes appended after it', async () => {
    await ctx.services.replayFigures.keep(replayId);
    await ctx.services.ledgerFigures.keep();
    const ledger = ctx.services.replayLedger.forReplay(replayId);
    expect(await ledger.figures.snapshotAt(await ledger.head(), SNAPSHOT_FORMAT)).toBe(true);

    const { ctx: resumed, counts } = await restartCounting(ctx, contexts);
    const book = await resumed.services.replayFigures.book(replayId);
    expect(counts.bookPages).toBe(0);
    const liveResumed = await resumed.services.ledgerFigures.book();
    expect(liveResumed.pagesRead).toBe(0);
    expect(liveResumed.columns.n).toBe(120);
    expect(await snapshotText(book.columns)).toBe(await snapshotText((await ctx.services.replayFigures.book(replayId)).columns));

    // The rest of the outcomes land after the kept head: the server folds them, the resumed one reads only them.
    await ctx.services.ledger.append(heldBack.live);
    const { replays } = ctx.services;
    await ctx.services.database.db.execute(sql`update replay_runs set status = 'running' where id = ${replayId}`);
    await slice(heldBack.replay);
    await replays.finish(replayId, 'done');
    const folded = await ctx.services.replayFigures.book(replayId);
    expect(folded.pagesRead).toBe(0);
    const extended = await resumed.services.replayFigures.book(replayId);
    expect(counts.bookPages).toBe(1);
    expect(await snapshotText(extended.columns)).toBe(await snapshotText(folded.columns));
    expect((await resumed.services.ledgerFigures.book()).pagesRead).toBe(1);
    expect(await snapshotText(liveResumed.columns)).toBe(await snapshotText((await ctx.services.ledgerFigures.book()).columns));

    // And both equal a load from scratch (no snapshot kept).
    await ctx.services.database.db.execute(sql`delete from ledger_figures`);
    const { ctx: scratch } = await restartCounting(ctx, contexts);
    expect(await snapshotText((await scratch.services.replayFigures.book(replayId)).columns)).toBe(await snapshotText(folded.columns));
    expect(await snapshotText((await scratch.services.ledgerFigures.book()).columns)).toBe(await snapshotText((await ctx.services.ledgerFigures.book()).columns));
    // Signal 238 (ledger-seed: closes) had its outcome held back to the last slice: closed now.
    expect(folded.columns.outcomeOf(238)).not.toBe('open');
  }, 60_000);

  it('holds a book still while a figure is computed over it: an append told meanwhile is folded when the computation ends', async () => {
    const book = await ctx.services.ledgerFigures.book();
    const [n, head, pages] = [book.columns.n, book.head.seq, book.pagesRead];
    const more = seedRecords(200, 3, sessions);
    const during = await book.perHead('test:during-append', async () => {
      await ctx.services.ledger.append(more);
      return { n: book.columns.n, head: book.head.seq };
    });
    expect(during).toEqual({ n, head });
    expect(book.columns.n).toBe(n + 3);
    expect(book.head.seq).toBeGreaterThan(head);
    expect((await ctx.services.ledgerFigures.book()).pagesRead).toBe(pages);
  });
});
