import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Signal } from '../../../src/domain/signal';
import type { EntryPage, EntrySchema, SummarySchema } from '../../../src/modules/journal/model';
import { createTestContext, type TestContext } from '../../helpers/app';
import { allPages, as, expectAllUnauthorized, expectError, send, sessionCookie } from '../../helpers/account';
import { smallMarket } from '../../helpers/small-market';

let ctx: TestContext;
let alice: string;
let bob: string;
let signal: Signal;
beforeAll(async () => {
  ctx = await createTestContext({ provider: await smallMarket(30) });
  await ctx.services.runs.persist('daily');
  signal = (await ctx.services.runs.current('daily')).view.signals.find((s) => s.stopLoss !== null)!;
  alice = await sessionCookie(ctx, 'alice', 'free');
  bob = await sessionCookie(ctx, 'bob', 'free');
});
afterAll(() => ctx.close());

const record = (cookie: string, body: unknown) => ctx.json<EntrySchema>('/api/journal/entries', send('POST', body, { cookie }));
const trade = (over: Record<string, unknown> = {}) => ({ symbol: 'AAPL', side: 'long', entryPrice: 100, entryAt: '2026-11-02T15:00:00Z', size: 10, ...over });

describe('/api/journal/entries', () => {
  it('computes P&L, return, R from the linked signal’s stop and holding days', async () => {
    // Hand-checked: long 100 × (151.4 → 163.9) − 2.5 fees = 1247.5; 12.5 / 151.4 = 8.2563 %.
    const plain = await record(alice, trade({ symbol: 'nvda', entryPrice: 151.4, exitPrice: 163.9, size: 100, fees: 2.5, entryAt: '2026-11-18T15:02:00Z', exitAt: '2026-11-27T19:40:00Z', tags: ['A+'] }));
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ symbol: 'NVDA', status: 'closed', pnl: 1247.5, returnPct: 8.2563, stopLoss: null, initialRisk: null, rMultiple: null, holdingDays: 9, tags: ['A+'], notes: '', signalId: null });
    // Short: 20 × (50 − 55) − 1 = −101.
    const short = await record(alice, trade({ side: 'short', entryPrice: 50, exitPrice: 55, size: 20, fees: 1, exitAt: '2026-11-02T20:00:00Z' }));
    expect(short.body).toMatchObject({ pnl: -101, returnPct: -10, holdingDays: 0 });
    // Linked: the stop s gives risk |(s + 5) − s| × 10 = 50 and pnl 10 × 10 = 100, so R = 2.
    const stop = signal.stopLoss!;
    const side = signal.direction;
    const sign = side === 'long' ? 1 : -1;
    const linked = await record(alice, trade({ symbol: signal.symbol, side, signalId: signal.id, entryPrice: stop + 5 * sign, exitPrice: stop + 15 * sign, exitAt: '2026-11-10T15:00:00Z' }));
    expect(linked.status).toBe(201);
    expect(linked.body.stopLoss).toBe(stop);
    expect(linked.body.initialRisk).toBeCloseTo(50, 6);
    expect(linked.body.rMultiple).toBe(2);
    expect(linked.body.pnl).toBeCloseTo(100, 6);
    const open = await record(alice, trade());
    expect(open.body).toMatchObject({ status: 'open', pnl: null, rMultiple: null, holdingDays: null, exitPrice: null, exitAt: null });
  });

  it('closes, retags and reopens an entry with PATCH, and deletes it', async () => {
    const made = await record(bob, trade());
    const closed = await ctx.json<EntrySchema>(`/api/journal/entries/${made.body.id}`, send('PATCH', { exitPrice: 110, exitAt: '2026-11-05T15:00:00Z', tags: ['swing'] }, { cookie: bob }));
    expect(closed.body).toMatchObject({ status: 'closed', pnl: 100, holdingDays: 3, tags: ['swing'] });
    const reopened = await ctx.json<EntrySchema>(`/api/journal/entries/${made.body.id}`, send('PATCH', { exitPrice: null, exitAt: null }, { cookie: bob }));
    expect(reopened.body.status).toBe('open');
    const half = await ctx.request(`/api/journal/entries/${made.body.id}`, send('PATCH', { exitPrice: 120 }, { cookie: bob }));
    expect((await expectError(half, 400, 'invalid_body')).error).toContain('exitAt');
    expect((await ctx.request(`/api/journal/entries/${made.body.id}`, as(bob, 'DELETE'))).status).toBe(200);
    await expectError(await ctx.request(`/api/journal/entries/${made.body.id}`, as(bob)), 404, 'not_found');
  });

  it('answers 400 naming the bad field', async () => {
    const cases: [unknown, string][] = [
      [trade({ symbol: undefined }), 'symbol'],
      [trade({ symbol: 'ZZZZZ' }), 'ZZZZZ'],
      [trade({ side: 'up' }), 'side'],
      [trade({ entryPrice: 0 }), 'entryPrice'],
      [trade({ entryPrice: '100' }), 'entryPrice'],
      [trade({ entryAt: '2026-11-02' }), 'entryAt'],
      [trade({ size: -1 }), 'size'],
      [trade({ fees: -1 }), 'fees'],
      [trade({ notes: 'x'.repeat(4001) }), 'notes'],
      [trade({ tags: ['ok', 'ok'] }), 'tags'],
      [trade({ tags: 'swing' }), 'tags'],
      [trade({ exitPrice: 101 }), 'exitAt'],
      [trade({ exitPrice: 101, exitAt: '2026-11-01T15:00:00Z' }), 'exitAt'],
      [trade({ signalId: 'AAPL-vcp-1999-01-01T00:00:00.000Z' }), 'signalId'],
      [trade({ symbol: signal.symbol === 'AAPL' ? 'MSFT' : 'AAPL', signalId: signal.id }), 'signalId'],
      [trade({ leverage: 5 }), 'leverage'],
    ];
    for (const [body, names] of cases) {
      const error = await expectError(await ctx.request('/api/journal/entries', send('POST', body, { cookie: alice })), 400);
      expect(error.error).toContain(names);
    }
    await expectError(await ctx.request('/api/journal/entries/jrn_x', as(alice)), 400, 'invalid_parameter');
    await expectError(await ctx.request('/api/journal/entries?tag=%20bad', as(alice)), 400, 'invalid_parameter');
  });

  it('answers 401 without a credential on every route', async () => {
    const id = 'jrn_00000000000000000000';
    await expectAllUnauthorized(ctx, [
      ['/api/journal/entries'],
      ['/api/journal/entries', send('POST', trade())],
      [`/api/journal/entries/${id}`],
      [`/api/journal/entries/${id}`, send('PATCH', { fees: 1 })],
      [`/api/journal/entries/${id}`, { method: 'DELETE' }],
      ['/api/journal/summary'],
    ]);
  });

  it('answers 404 for another user’s entry and keeps it out of their lists and summary (BOLA)', async () => {
    const mine = await record(alice, trade({ notes: 'secret' }));
    for (const [path, init] of [
      [`/api/journal/entries/${mine.body.id}`, as(bob)],
      [`/api/journal/entries/${mine.body.id}`, send('PATCH', { notes: 'pwned' }, { cookie: bob })],
      [`/api/journal/entries/${mine.body.id}`, as(bob, 'DELETE')],
    ] as const) {
      await expectError(await ctx.request(path, init), 404, 'not_found');
    }
    const bobs = await ctx.json<EntryPage>('/api/journal/entries?limit=200', as(bob));
    expect(bobs.body.items.some((e) => e.id === mine.body.id)).toBe(false);
    expect((await ctx.json<EntrySchema>(`/api/journal/entries/${mine.body.id}`, as(alice))).body.notes).toBe('secret');
  });

  it('pages by entry time in both orders and filters by symbol and tag', async () => {
    const carol = await sessionCookie(ctx, 'carol');
    const ids: string[] = [];
    for (let day = 1; day <= 5; day++) ids.push((await record(carol, trade({ entryAt: `2026-10-0${day}T15:00:00Z`, tags: day % 2 ? ['odd'] : [], symbol: day === 3 ? 'MSFT' : 'AAPL' }))).body.id);
    expect((await allPages<EntrySchema>(ctx, '/api/journal/entries', as(carol), 2)).items.map((e) => e.id)).toEqual([...ids].reverse());
    expect((await allPages<EntrySchema>(ctx, '/api/journal/entries?order=asc', as(carol), 3)).items.map((e) => e.id)).toEqual(ids);
    expect((await ctx.json<EntryPage>('/api/journal/entries?tag=odd&order=asc', as(carol))).body.items.map((e) => e.id)).toEqual(ids.filter((_, i) => i % 2 === 0));
    expect((await ctx.json<EntryPage>('/api/journal/entries?symbol=msft', as(carol))).body.items.map((e) => e.id)).toEqual(ids.slice(2, 3));
  });
});

describe('/api/journal/summary', () => {
  it('gives the scorecard’s figures over the user’s own trades', async () => {
    const dana = await sessionCookie(ctx, 'dana');
    const stop = signal.stopLoss!;
    const sign = signal.direction === 'long' ? 1 : -1;
    const linked = (exitMove: number) => trade({ symbol: signal.symbol, side: signal.direction, signalId: signal.id, entryPrice: stop + 5 * sign, exitPrice: stop + (5 + exitMove) * sign, exitAt: '2026-11-09T15:00:00Z' });
    for (const body of [
      trade({ exitPrice: 130, exitAt: '2026-11-04T15:00:00Z' }), // +300, 2 days
      trade({ exitPrice: 90, exitAt: '2026-11-03T15:00:00Z' }), // −100, 1 day
      trade({ exitPrice: 100, exitAt: '2026-11-02T18:00:00Z' }), // 0, 0 days
      trade(), // open
      linked(10), // +100, R = 2, 7 days
      linked(-5), // −50, R = −1, 7 days
    ]) {
      expect((await record(dana, body)).status).toBe(201);
    }
    const { body } = await ctx.json<SummarySchema>('/api/journal/summary', as(dana));
    // P&L [300, −100, 0, 100, −50]: total 250, mean 50, Σwins 400 / Σ|losses| 150 = 2.6667.
    expect(body).toMatchObject({ entries: 6, open: 1, closed: 5, wins: 2, losses: 2, breakeven: 1, winRate: 0.4, avgHoldingDays: 3.4, withoutStop: 3 });
    expect(body.pnl).toMatchObject({ total: 250, fees: 0, average: 50, averageWin: 200, averageLoss: 75, expectancy: 50, profitFactor: 2.6667 });
    // Wilson 95% for 2 of 5 (Newcombe 1998, method 3): 0.1176–0.7693.
    expect(body.winRateInterval).toEqual({ lower: 0.1176, upper: 0.7693 });
    // Student-t 95% of the mean: 50 ± 2.7764 × sd/√5, sd of [300, −100, 0, 100, −50] = 158.1139.
    expect(body.pnl.averageInterval.lower).toBeCloseTo(50 - (2.776445 * 158.113883) / Math.sqrt(5), 3);
    // R over the two linked trades [2, −1], as the scorecard counts them.
    expect(body.r).toMatchObject({ signals: 2, closed: 2, wins: 1, losses: 1, hitRate: 0.5, avgR: 0.5, totalR: 1, expectancyR: 0.5, profitFactor: 2, avgDaysHeld: 7 });
    const filtered = await ctx.json<SummarySchema>(`/api/journal/summary?symbol=${signal.symbol}`, as(dana));
    expect(filtered.body.closed).toBe(signal.symbol === 'AAPL' ? 5 : 2);
  });
});
