import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { WatchlistPage, WatchlistSchema } from '../../../src/modules/watchlists/model';
import { createTestContext, type TestContext } from '../../helpers/app';
import { allPages, as, expectAllUnauthorized, expectError, send, sessionCookie } from '../../helpers/account';
import { smallMarket } from '../../helpers/small-market';

let ctx: TestContext;
let alice: string;
let bob: string;
beforeAll(async () => {
  ctx = await createTestContext({ provider: await smallMarket(30), env: { WATCHLISTS_PER_TIER: '3,5,10', WATCHLIST_SYMBOLS_PER_TIER: '4,8,20' } });
  await ctx.services.runs.persist('daily');
  alice = await sessionCookie(ctx, 'alice', 'free');
  bob = await sessionCookie(ctx, 'bob', 'pro');
});
afterAll(() => ctx.close());

const create = (cookie: string, body: unknown, headers: Record<string, string> = {}) => ctx.json<WatchlistSchema>('/api/watchlists', send('POST', body, { cookie, ...headers }));

describe('/api/watchlists', () => {
  it('creates a watchlist, answers each symbol with its newest signal, and lists it', async () => {
    const [latest] = (await ctx.services.runs.current('daily')).view.signals;
    expect(latest).toBeDefined();
    const created = await create(alice, { name: 'Leaders', symbols: [latest!.symbol.toLowerCase(), 'SPY'] });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^wl_[0-9a-z]{20}$/);
    expect(created.body.symbols.map((s) => s.symbol)).toEqual([latest!.symbol, 'SPY']);
    const withSignal = created.body.symbols[0]!.latestSignal;
    expect(withSignal).not.toBeNull();
    const newest = await ctx.services.scans.latestSignalsOf([latest!.symbol]);
    expect(withSignal!.id).toBe(newest.get(latest!.symbol)!.id);
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(created.headers.get(header)).not.toBeNull();

    const listed = await ctx.json<WatchlistPage>('/api/watchlists', as(alice));
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((w) => w.id)).toContain(created.body.id);
    expect(listed.body.pagination).toMatchObject({ limit: 50, offset: 0, order: 'desc', hasMore: false, nextCursor: null });
    const one = await ctx.json<WatchlistSchema>(`/api/watchlists/${created.body.id}`, as(alice));
    expect(one.body).toEqual(created.body);
  });

  it('reads with a read key, and writes with a key only when it has the write scope', async () => {
    const { key } = await ctx.services.auth.keys.create({ userId: 'alice', name: 'k', tier: 'free' });
    expect((await ctx.request('/api/watchlists', as(key))).status).toBe(200);
    const write = await ctx.request('/api/watchlists', send('POST', { name: 'x' }, { authorization: `Bearer ${key}` }));
    expect((await expectError(write, 403, 'insufficient_scope')).error).toContain("lacks the 'write' scope");
    // A user whose tier was never stated by a session: the key acts at its own (auth/user-tiers).
    const writer = await ctx.services.auth.keys.create({ userId: 'walt', name: 'w', tier: 'pro', scopes: ['read', 'write'] });
    const made = await ctx.request('/api/watchlists', send('POST', { name: 'by a bot' }, { authorization: `Bearer ${writer.key}` }));
    expect(made.status).toBe(201);
  });

  it('renames, adds and removes symbols, and deletes', async () => {
    const made = await create(bob, { name: 'Temp' });
    const id = made.body.id;
    const renamed = await ctx.json<WatchlistSchema>(`/api/watchlists/${id}`, send('PATCH', { name: 'Banks' }, { cookie: bob }));
    expect(renamed.body.name).toBe('Banks');
    const added = await ctx.json<WatchlistSchema>(`/api/watchlists/${id}/symbols`, send('POST', { symbols: ['jpm', 'C', 'JPM'] }, { cookie: bob }));
    expect(added.status).toBe(200);
    expect(added.body.symbols.map((s) => s.symbol)).toEqual(['JPM', 'C']);
    const again = await ctx.json<WatchlistSchema>(`/api/watchlists/${id}/symbols`, send('POST', { symbols: ['C', 'WMT'] }, { cookie: bob }));
    expect(again.body.symbols.map((s) => s.symbol)).toEqual(['JPM', 'C', 'WMT']);
    const removed = await ctx.json<WatchlistSchema>(`/api/watchlists/${id}/symbols/c`, as(bob, 'DELETE'));
    expect(removed.body.symbols.map((s) => s.symbol)).toEqual(['JPM', 'WMT']);
    await expectError(await ctx.request(`/api/watchlists/${id}/symbols/C`, as(bob, 'DELETE')), 404, 'not_found');
    const deleted = await ctx.json<WatchlistSchema>(`/api/watchlists/${id}`, as(bob, 'DELETE'));
    expect(deleted.body.id).toBe(id);
    await expectError(await ctx.request(`/api/watchlists/${id}`, as(bob)), 404, 'not_found');
  });

  it('answers 400 naming the bad field for each invalid body and parameter', async () => {
    const cases: [string, RequestInit, string][] = [
      ['/api/watchlists', send('POST', { name: '' }, { cookie: alice }), 'name'],
      ['/api/watchlists', send('POST', { name: 'x'.repeat(101) }, { cookie: alice }), 'name'],
      ['/api/watchlists', send('POST', { name: 'x', symbols: 'AAPL' }, { cookie: alice }), 'symbols'],
      ['/api/watchlists', send('POST', { name: 'x', symbols: ['not a symbol'] }, { cookie: alice }), 'symbols'],
      ['/api/watchlists', send('POST', { name: 'x', symbols: ['ZZZZZ'] }, { cookie: alice }), 'ZZZZZ'],
      ['/api/watchlists', send('POST', { name: 'x', colour: 'red' }, { cookie: alice }), 'colour'],
      ['/api/watchlists', send('POST', ['name'], { cookie: alice }), 'body'],
      ['/api/watchlists', { method: 'POST', headers: { cookie: alice, 'content-type': 'application/json' }, body: '{"name":' }, 'JSON'],
      ['/api/watchlists/nope', as(alice), 'id'],
      ['/api/watchlists?limit=abc', as(alice), 'limit'],
      ['/api/watchlists?order=up', as(alice), 'order'],
    ];
    for (const [path, init, names] of cases) {
      const error = await expectError(await ctx.request(path, init), 400);
      expect(error.error).toContain(names);
    }
    const big = await ctx.request('/api/watchlists', send('POST', { name: 'x', symbols: Array(5000).fill('AAPL') }, { cookie: alice }));
    await expectError(big, 413, 'payload_too_large');
  });

  it('answers 401 without a credential on every route', async () => {
    const id = 'wl_00000000000000000000';
    await expectAllUnauthorized(ctx, [
      ['/api/watchlists'],
      ['/api/watchlists', send('POST', { name: 'x' })],
      [`/api/watchlists/${id}`],
      [`/api/watchlists/${id}`, send('PATCH', { name: 'x' })],
      [`/api/watchlists/${id}`, { method: 'DELETE' }],
      [`/api/watchlists/${id}/symbols`, send('POST', { symbols: ['AAPL'] })],
      [`/api/watchlists/${id}/symbols/AAPL`, { method: 'DELETE' }],
    ]);
  });

  it('answers 404 for another user’s watchlist on every route and leaves it untouched (BOLA)', async () => {
    const mine = await create(alice, { name: 'Private', symbols: ['AAPL'] });
    const id = mine.body.id;
    for (const [path, init] of [
      [`/api/watchlists/${id}`, as(bob)],
      [`/api/watchlists/${id}`, send('PATCH', { name: 'pwned' }, { cookie: bob })],
      [`/api/watchlists/${id}/symbols`, send('POST', { symbols: ['MSFT'] }, { cookie: bob })],
      [`/api/watchlists/${id}/symbols/AAPL`, as(bob, 'DELETE')],
      [`/api/watchlists/${id}`, as(bob, 'DELETE')],
    ] as const) {
      await expectError(await ctx.request(path, init), 404, 'not_found');
    }
    const bobs = await ctx.json<WatchlistPage>('/api/watchlists', as(bob));
    expect(bobs.body.items.some((w) => w.id === id)).toBe(false);
    const still = await ctx.json<WatchlistSchema>(`/api/watchlists/${id}`, as(alice));
    expect(still.body).toMatchObject({ name: 'Private', symbols: [{ symbol: 'AAPL' }] });
  });

  it('holds the tier’s caps: watchlists and symbols per watchlist (403 past them, a higher tier more)', async () => {
    const carol = await sessionCookie(ctx, 'carol', 'free');
    for (let i = 0; i < 3; i++) expect((await create(carol, { name: `w${i}` })).status).toBe(201);
    const fourth = await ctx.request('/api/watchlists', send('POST', { name: 'w3' }, { cookie: carol }));
    expect((await expectError(fourth, 403, 'forbidden')).error).toContain('3 watchlists');
    const tooMany = await ctx.request('/api/watchlists', send('POST', { name: 'big', symbols: ['AAPL', 'MSFT', 'JPM', 'C', 'WMT'] }, { cookie: await sessionCookie(ctx, 'dave', 'free') }));
    expect((await expectError(tooMany, 403, 'forbidden')).error).toContain('at most 4 symbols');
    const pro = await create(await sessionCookie(ctx, 'dave', 'pro'), { name: 'big', symbols: ['AAPL', 'MSFT', 'JPM', 'C', 'WMT'] });
    expect(pro.status).toBe(201);
    const [first] = (await ctx.json<WatchlistPage>('/api/watchlists', as(carol))).body.items;
    await ctx.request(`/api/watchlists/${first!.id}/symbols`, send('POST', { symbols: ['AAPL', 'MSFT', 'JPM', 'C'] }, { cookie: carol }));
    const over = await ctx.request(`/api/watchlists/${first!.id}/symbols`, send('POST', { symbols: ['WMT'] }, { cookie: carol }));
    await expectError(over, 403, 'forbidden');
  });

  it('holds the cap under concurrent creates', async () => {
    const erin = await sessionCookie(ctx, 'erin', 'free');
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => ctx.request('/api/watchlists', send('POST', { name: `c${i}` }, { cookie: erin }))));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(3);
    expect(replies.filter((r) => r.status === 403)).toHaveLength(5);
  });

  it('pages by cursor without repeats or gaps, in both orders', async () => {
    const frank = await sessionCookie(ctx, 'frank', 'enterprise');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await create(frank, { name: `p${i}` })).body.id);
    const desc = await allPages<WatchlistSchema>(ctx, '/api/watchlists', as(frank), 3);
    expect(desc.pages).toBe(3);
    expect(desc.items.map((w) => w.id)).toEqual([...ids].reverse());
    const asc = await allPages<WatchlistSchema>(ctx, '/api/watchlists?order=asc', as(frank), 2);
    expect(asc.items.map((w) => w.id)).toEqual(ids);
    const offset = await ctx.json<WatchlistPage>('/api/watchlists?limit=2&offset=2&order=asc', as(frank));
    expect(offset.body.items.map((w) => w.id)).toEqual(ids.slice(2, 4));
    expect(offset.body.pagination).toMatchObject({ offset: 2, total: 7, hasMore: true });
    const clamped = await ctx.json<WatchlistPage>('/api/watchlists?limit=1000', as(frank));
    expect(clamped.body.pagination.limit).toBe(200);
    const malformed = await ctx.json<WatchlistPage>('/api/watchlists?cursor=garbage&limit=2', as(frank));
    expect(malformed.body.items.map((w) => w.id)).toEqual(ids.slice(5).reverse());
  });
});
