/**
 * The scorecard and monthly figures kept per chain head (issue 27): a restart
 * answers a replay's scorecard from the figures kept in the database at its
 * head, without loading the trade book or computing anything; a head that
 * moved, another day, or other definitions are never served from the kept
 * row. Over a seeded replay of 300 signals (test/helpers/ledger-seed).
 */
import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test';
import { createMirror } from 'exact-mirror';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { Static } from 'elysia';
import { LedgerFiguresRepository } from '../../src/db/repositories/ledger-figures';
import { MonthlyResponse } from '../../src/modules/transparency/model';
import { scorecardJson, serialiseMonthly } from '../../src/modules/transparency/performance';
import { createTestContext, type TestContext } from '../helpers/app';
import { seedRecords, seedSessions, writeLedgers } from '../helpers/ledger-seed';
import { restartCounting } from '../helpers/restart-counting';
import { until } from '../helpers/until';

let ctx: TestContext;
let replayId: string;
const contexts: TestContext[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  ({ replayId } = await writeLedgers(ctx.services.database.db, { signals: 300, liveSignals: 0 }));
});
afterAll(async () => {
  for (const c of contexts.reverse()) await c.close();
  await ctx.close();
});

/** Another instance on the same database with nothing in memory (a restart), counting its pool tasks and trade-book reads. */
const restarted = () => restartCounting(ctx, contexts);

const SCORECARD = '/api/scorecard?source=replay';
type Card = { ledgerHead: { seq: number; hash: string }; allTime: { signals: number }; generatedAt: string };

describe('the replay scorecard kept per chain head', () => {
  it('is answered after a restart from the kept figures, with the same bytes, computing nothing; callers at once share one read of them', async () => {
    const first = await (await ctx.request(SCORECARD)).text();
    const { ctx: next, counts } = await restarted();
    // The first read of the kept row waits until all five callers have found their replay (the step before it),
    // so the five are at once whatever the database and the rate limit's store take to answer each.
    let found = 0;
    const current = next.services.replays.current.bind(next.services.replays);
    next.services.replays.current = async () => {
      const run = await current();
      found++;
      return run;
    };
    const read = LedgerFiguresRepository.prototype.held;
    const held = spyOn(LedgerFiguresRepository.prototype, 'held').mockImplementation(async function (this: LedgerFiguresRepository, ...args) {
      await until('five callers found their replay', () => found === 5);
      return read.apply(this, args);
    });
    try {
      const responses = await Promise.all(Array.from({ length: 5 }, () => next.request(SCORECARD)));
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      for (const response of responses) expect(await response.text()).toBe(first);
      expect(held).toHaveBeenCalledTimes(1);
      // A later read at the same head is answered from memory: the kept row is not read (nor expanded) again.
      expect(await (await next.request(SCORECARD)).text()).toBe(first);
      expect(held).toHaveBeenCalledTimes(1);
    } finally {
      held.mockRestore();
    }
    expect(counts).toEqual({ tasks: [], bookPages: 0 });
  });

  it('is computed again once the head moves: the kept figures of the old head are never served', async () => {
    const before = (await ctx.json<Card>(SCORECARD)).body;
    const sessions = await seedSessions();
    await ctx.services.replayLedger.forReplay(replayId).append(seedRecords(300, 1, sessions, replayId));
    const { ctx: next, counts } = await restarted();
    const after = (await next.json<Card>(SCORECARD)).body;
    expect(after.ledgerHead.seq).toBeGreaterThan(before.ledgerHead.seq);
    expect(after.ledgerHead).toEqual({ seq: (await ctx.services.replayLedger.head()).seq, hash: (await ctx.services.replayLedger.head()).hash });
    expect(after.allTime.signals).toBe(before.allTime.signals + 1);
    expect(counts.tasks).toContain('recordSection');
    expect(counts.bookPages).toBeGreaterThan(0);
    // …and kept at the new head: the next restart computes nothing.
    const again = await restarted();
    expect((await again.ctx.json<Card>(SCORECARD)).body).toEqual(after);
    expect(again.counts).toEqual({ tasks: [], bookPages: 0 });
  });

  it("is computed again on another day (its trailing windows move with the day), not served from the day before's", async () => {
    const today = Date.now();
    const kept = JSON.parse(await scorecardJson(ctx.services, { source: 'replay' }, today)) as Card;
    const { ctx: next, counts } = await restarted();
    const tomorrow = JSON.parse(await scorecardJson(next.services, { source: 'replay' }, today + 86_400_000)) as Card;
    expect(tomorrow.generatedAt).not.toBe(kept.generatedAt);
    expect(counts.tasks).toContain('recordSection');
  });
});

describe('kept figures (db/repositories/ledger-figures)', () => {
  const key = { figure: 'scorecard', variant: '2026-11-28', definitions: 'abc' };
  const head = { seq: 10, hash: 'h10' };

  it('are held only for the same head, variant and definitions', async () => {
    const figures = ctx.services.replayLedger.forReplay('rpl_other').figures;
    await figures.keep(key, head, '{"a":1}');
    expect(await figures.held(key, head)).toBe('{"a":1}');
    expect(await figures.held(key, { seq: 11, hash: 'h11' })).toBeUndefined();
    expect(await figures.held(key, { seq: 10, hash: 'other' })).toBeUndefined();
    expect(await figures.held({ ...key, variant: '2026-11-29' }, head)).toBeUndefined();
    expect(await figures.held({ ...key, definitions: 'changed' }, head)).toBeUndefined();
    expect(await ctx.services.replayLedger.forReplay('rpl_another').figures.held(key, head)).toBeUndefined();
  });

  it("keeps a book's figures of its newest head only: a newer head's row is not replaced by an older head's", async () => {
    const figures = ctx.services.replayLedger.forReplay('rpl_heads').figures;
    await figures.keep({ ...key, figure: 'monthly:2026-01' }, head, 'old month');
    await figures.keep(key, { seq: 12, hash: 'h12' }, 'newer');
    expect(await figures.held({ ...key, figure: 'monthly:2026-01' }, head)).toBeUndefined(); // dropped with its head
    await figures.keep(key, head, 'older');
    expect(await figures.held(key, { seq: 12, hash: 'h12' })).toBe('newer');
    expect(await figures.held(key, head)).toBeUndefined();
  });
});

describe('the monthly rollup serialised in slices', () => {
  it('has the same bytes as the mirror over the whole figure', async () => {
    const month = new Date((await seedSessions())[0]!.ts).toISOString().slice(0, 7); // the seeded replay's first signals
    const { body } = await ctx.json<Static<typeof MonthlyResponse>>(`/api/transparency/monthly?month=${month}&source=replay`);
    expect(body.signals.length).toBeGreaterThan(0);
    // 2,500 signals: more than two slices, the last one partial.
    const figure = { ...body, signals: Array.from({ length: 2_500 }, (_, i) => ({ ...body.signals[i % body.signals.length]!, id: `s${i}` })) };
    const whole = JSON.stringify(createMirror(MonthlyResponse, { TypeCompiler })(figure));
    expect(await serialiseMonthly(figure)).toBe(whole);
  });
});
