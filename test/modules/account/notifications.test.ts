/**
 * /api/notifications (list, unread filter, mark read, mark all read) and
 * /api/breakouts/notifications (breakout events of the symbols on the user's
 * watchlists), over the notifications a persisted scan run made by firing a
 * rule: each user sees and changes only their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { BREAKOUT_STATES } from '../../../src/domain/signal';
import type { BreakoutEventPage, NotificationPage, NotificationSchema, ReadAllResponse } from '../../../src/modules/notifications/model';
import type { WatchlistSchema } from '../../../src/modules/watchlists/model';
import { createTestContext, type TestContext } from '../../helpers/app';
import { allPages, as, expectAllUnauthorized, expectError, send, sessionCookie } from '../../helpers/account';
import { smallMarket } from '../../helpers/small-market';

let ctx: TestContext;
let alice: string;
let bob: string;
/** The symbols of the run's signals alice's rule watches. */
let watched: string[];
/** How many of the run's signals the rule matches: one notification each. */
let expectedCount: number;

beforeAll(async () => {
  ctx = await createTestContext({ provider: await smallMarket(30) });
  alice = await sessionCookie(ctx, 'alice', 'free');
  bob = await sessionCookie(ctx, 'bob', 'free');
  // What the next persisted run lists: the same scan, not persisted.
  const signals = (await ctx.services.signals.scan('daily', Date.now())).signals;
  watched = [...new Set(signals.map((s) => s.symbol))].slice(0, 4);
  expectedCount = signals.filter((s) => watched.includes(s.symbol)).length;
  expect(expectedCount).toBeGreaterThan(2);
  const rule = await ctx.request('/api/alerts/v2', send('POST', { name: 'Everything on a few symbols', symbols: watched, direction: 'any', states: [...BREAKOUT_STATES], cooldownMinutes: 0 }, { cookie: alice }));
  expect(rule.status).toBe(201);
  await ctx.services.runs.persist('daily');
});
afterAll(() => ctx.close());

const list = (cookie: string, query = '') => ctx.json<NotificationPage>(`/api/notifications${query}`, as(cookie));

describe('/api/notifications', () => {
  it('lists one notification per matching signal, newest first, with the unread count, paged by cursor', async () => {
    const first = await list(alice);
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(expectedCount);
    expect(first.body.unreadCount).toBe(expectedCount);
    for (const n of first.body.items) {
      expect(n).toMatchObject({ kind: 'alert', readAt: null, rule: { name: 'Everything on a few symbols' } });
      expect(watched).toContain(n.symbol);
    }
    const times = first.body.items.map((n) => n.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    for (const order of ['desc', 'asc']) {
      const { items, pages } = await allPages<NotificationSchema>(ctx, `/api/notifications?order=${order}`, as(alice), 2);
      expect(pages).toBeGreaterThan(1);
      expect(new Set(items.map((n) => n.id)).size).toBe(expectedCount);
    }
  });

  it('marks one read (and again without change), filters the unread ones, then marks all read', async () => {
    const [one] = (await list(alice)).body.items;
    const read = await ctx.json<NotificationSchema>(`/api/notifications/${one!.id}/read`, as(alice, 'POST'));
    expect(read.status).toBe(200);
    expect(read.body.readAt).not.toBeNull();
    const again = await ctx.json<NotificationSchema>(`/api/notifications/${one!.id}/read`, as(alice, 'POST'));
    expect(again.body.readAt).toBe(read.body.readAt);
    const unread = await list(alice, '?unread=true');
    expect(unread.body.items.map((n) => n.id)).not.toContain(one!.id);
    expect(unread.body.items).toHaveLength(expectedCount - 1);
    expect(unread.body.unreadCount).toBe(expectedCount - 1);
    const all = await ctx.json<ReadAllResponse>('/api/notifications/read-all', as(alice, 'POST'));
    expect(all.body).toEqual({ updated: expectedCount - 1, unreadCount: 0 });
    expect((await list(alice, '?unread=true')).body.items).toEqual([]);
    expect((await list(alice)).body.items.every((n) => n.readAt !== null)).toBe(true);
  });

  it('answers 400 naming the bad parameter', async () => {
    expect((await expectError(await ctx.request('/api/notifications?unread=yes', as(alice)), 400, 'invalid_parameter')).error).toContain('unread');
    expect((await expectError(await ctx.request('/api/notifications?limit=ten', as(alice)), 400)).error).toContain('limit');
    // The spec's pagination rule: limit is clamped to [1, 200], not refused.
    expect((await list(alice, '?limit=0')).body.pagination.limit).toBe(1);
    expect((await list(alice, '?limit=900')).body.pagination.limit).toBe(200);
    expect((await expectError(await ctx.request('/api/notifications/ntf_x/read', as(alice, 'POST')), 400)).error).toContain('notification id');
  });

  it('answers 401 without a credential on every route', async () => {
    await expectAllUnauthorized(ctx, [
      ['/api/notifications'],
      ['/api/notifications/ntf_8k2qd0xw5n3c7v1b9m4f/read', { method: 'POST' }],
      ['/api/notifications/read-all', { method: 'POST' }],
      ['/api/breakouts/notifications'],
    ]);
  });

  it('shows and changes only the user’s own (404 for another’s, BOLA)', async () => {
    const [alices] = (await list(alice)).body.items;
    expect((await list(bob)).body).toMatchObject({ items: [], unreadCount: 0 });
    await expectError(await ctx.request(`/api/notifications/${alices!.id}/read`, as(bob, 'POST')), 404, 'not_found');
    expect((await ctx.json<ReadAllResponse>('/api/notifications/read-all', as(bob, 'POST'))).body).toEqual({ updated: 0, unreadCount: 0 });
  });
});

describe('/api/breakouts/notifications', () => {
  let list1: WatchlistSchema;
  beforeAll(async () => {
    const made = await ctx.json<WatchlistSchema>('/api/watchlists', send('POST', { name: 'Two', symbols: watched.slice(0, 2) }, { cookie: bob }));
    expect(made.status).toBe(201);
    list1 = made.body;
  });

  it('lists the breakout events of the symbols on the user’s watchlists, each naming its watchlists, paged', async () => {
    const events = await ctx.json<BreakoutEventPage>('/api/breakouts/notifications', as(bob));
    expect(events.status).toBe(200);
    expect(events.body.items.length).toBeGreaterThan(0);
    for (const e of events.body.items) {
      expect(watched.slice(0, 2)).toContain(e.symbol);
      expect(e.watchlistIds).toEqual([list1.id]);
    }
    const { items } = await allPages<{ id: string }>(ctx, '/api/breakouts/notifications', as(bob), 1);
    expect(new Set(items.map((e) => e.id)).size).toBe(events.body.items.length);
    const one = await ctx.json<BreakoutEventPage>(`/api/breakouts/notifications?symbol=${watched[0]}&watchlistId=${list1.id}&timeframe=daily`, as(bob));
    expect(one.body.items.length).toBeGreaterThan(0);
    expect(one.body.items.every((e) => e.symbol === watched[0] && e.timeframe === 'daily')).toBe(true);
    // A symbol on none of the user's watchlists: nothing (not the market's events).
    expect((await ctx.json<BreakoutEventPage>(`/api/breakouts/notifications?symbol=${watched[3]}`, as(bob))).body.items).toEqual([]);
    // A user without watchlists: nothing.
    expect((await ctx.json<BreakoutEventPage>('/api/breakouts/notifications', as(alice))).body.items).toEqual([]);
  });

  it('answers 404 for another user’s watchlist (BOLA) and 400 for bad parameters', async () => {
    await expectError(await ctx.request(`/api/breakouts/notifications?watchlistId=${list1.id}`, as(alice)), 404, 'not_found');
    expect((await expectError(await ctx.request('/api/breakouts/notifications?watchlistId=nope', as(bob)), 400)).error).toContain('watchlist id');
    expect((await expectError(await ctx.request('/api/breakouts/notifications?timeframe=weekly', as(bob)), 400)).error).toContain('timeframe');
  });
});
