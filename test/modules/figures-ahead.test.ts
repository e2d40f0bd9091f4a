/**
 * The replay's figures computed ahead (issue 27, modules/transparency/ahead):
 * once a replay is done its scorecard of the day and the monthly rollup of
 * every month it covers are kept at its head, so a restart answers each with
 * no trade book loaded and no pool task; a moved head gets its figures
 * computed again, equal to a computation from scratch; a request meanwhile
 * shares the computation in flight. Over a seeded replay of 200 signals
 * (test/helpers/ledger-seed).
 */
import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test';
import { sql } from 'drizzle-orm';
import { LedgerFiguresRepository } from '../../src/db/repositories/ledger-figures';
import { SNAPSHOT_FORMAT } from '../../src/ledger/book-snapshot';
import { computeAhead, monthsOf } from '../../src/modules/transparency/ahead';
import { FIGURE_DEFINITIONS, monthlyJson, scorecardJson } from '../../src/modules/transparency/performance';
import { createTestContext, type TestContext } from '../helpers/app';
import { seedRecords, seedSessions, writeLedgers } from '../helpers/ledger-seed';
import { restartCounting } from '../helpers/restart-counting';

let ctx: TestContext;
let replayId: string;
const contexts: TestContext[] = [];
const NOW = Date.now();
beforeAll(async () => {
  ctx = await createTestContext();
  ({ replayId } = await writeLedgers(ctx.services.database.db, { signals: 200, liveSignals: 0 }));
});
afterAll(async () => {
  for (const c of contexts.reverse()) await c.close();
  await ctx.close();
});

/** Another instance on the same database with nothing in memory (a restart), counting its pool tasks and trade-book reads. */
const restarted = () => restartCounting(ctx, contexts);

/** The figures kept at the replay's head (figure names). */
async function keptNow(): Promise<string[]> {
  const ledger = ctx.services.replayLedger.forReplay(replayId);
  return (await ledger.figures.keptAt(await ledger.head(), FIGURE_DEFINITIONS)).map((k) => k.figure).sort();
}

const noGeneratedAt = (json: string) => json.replace(/"generatedAt":"[^"]*"/g, '"generatedAt":""');

describe("the replay's figures computed ahead", () => {
  it('keeps the scorecard and every month the replay covers, so a restart answers them with no book loaded and no pool task', async () => {
    const run = (await ctx.services.replays.current())!;
    const months = monthsOf(run.params.from, run.params.to);
    // The seeded replay covers two years of sessions (ledger-seed: the last 504 daily bars).
    expect(months.length).toBeGreaterThanOrEqual(24);
    expect(months[0]).toBe(run.params.from.slice(0, 7));
    expect(months.at(-1)).toBe(run.params.to.slice(0, 7));
    await computeAhead(ctx.services, () => false, NOW);
    expect(await keptNow()).toEqual(['scorecard', ...months.map((m) => `monthly:${m}`)].sort());

    const { ctx: next, counts } = await restarted();
    await computeAhead(next.services, () => false, NOW); // all kept: computes nothing
    expect(await scorecardJson(next.services, { source: 'replay' }, NOW)).toBe(await scorecardJson(ctx.services, { source: 'replay' }, NOW));
    const month = months[0]!;
    const reply = await next.request(`/api/transparency/monthly?month=${month}&source=replay`);
    expect(reply.status).toBe(200);
    expect(await reply.text()).toBe(await monthlyJson(ctx.services, { month, source: 'replay' }));
    expect(counts).toEqual({ tasks: [], bookPages: 0 });
    // The pass kept the replay's book too (loaded once from the facts: a replay stored before): a restart resumes it.
    const ledger = ctx.services.replayLedger.forReplay(replayId);
    expect(await ledger.figures.snapshotAt(await ledger.head(), SNAPSHOT_FORMAT)).toBe(true);
    expect((await next.services.replayFigures.book(replayId)).columns.n).toBe(200);
    expect(counts.bookPages).toBe(0);
  });

  it('computes the figures of a moved head again, equal to a computation from scratch', async () => {
    const sessions = await seedSessions();
    await ctx.services.replayLedger.forReplay(replayId).append(seedRecords(200, 40, sessions, replayId));
    expect(await keptNow()).toEqual([]); // the old head's rows are never served at the new head
    await computeAhead(ctx.services, () => false, NOW);
    const run = (await ctx.services.replays.current())!;
    expect((await keptNow()).length).toBe(1 + monthsOf(run.params.from, run.params.to).length);
    const ahead = { card: await scorecardJson(ctx.services, { source: 'replay' }, NOW), month: await monthlyJson(ctx.services, { month: run.params.from.slice(0, 7), source: 'replay' }) };

    // From scratch: nothing kept, nothing in memory.
    await ctx.services.database.db.execute(sql`delete from ledger_figures`);
    const { ctx: fresh, counts } = await restarted();
    const scratch = { card: await scorecardJson(fresh.services, { source: 'replay' }, NOW), month: await monthlyJson(fresh.services, { month: run.params.from.slice(0, 7), source: 'replay' }) };
    expect(counts.bookPages).toBeGreaterThan(0);
    expect(scratch.card).toBe(ahead.card);
    expect(noGeneratedAt(scratch.month)).toBe(noGeneratedAt(ahead.month));
    expect(JSON.parse(scratch.card).allTime.signals).toBe(240);
  });

  it('shares a computation in flight with a request for the same figure, and ends at the next figure once stopping', async () => {
    await ctx.services.database.db.execute(sql`delete from ledger_figures`);
    const { ctx: next } = await restarted();
    const keep = spyOn(LedgerFiguresRepository.prototype, 'keep');
    try {
      let stopping = false;
      const ahead = computeAhead(next.services, () => stopping, NOW);
      const reply = await next.request('/api/scorecard?source=replay');
      stopping = true; // the scorecard is first; the months are left
      await ahead;
      expect(reply.status).toBe(200);
      const figures = keep.mock.calls.map(([key]) => key.figure);
      expect(figures.filter((f) => f === 'scorecard')).toHaveLength(1);
      expect(figures.filter((f) => f.startsWith('monthly:')).length).toBeLessThanOrEqual(1);
    } finally {
      keep.mockRestore();
    }
  });
});
