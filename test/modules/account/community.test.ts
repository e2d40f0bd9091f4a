import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Signal } from '../../../src/domain/signal';
import type { FeedPage, ModeratedPostSchema, ModerationPage, PostSchema, ReportResponse } from '../../../src/modules/community/model';
import { authorPseudonym } from '../../../src/modules/community/service';
import { createTestContext, type TestContext } from '../../helpers/app';
import { allPages, as, expectAllUnauthorized, expectError, send, sessionCookie } from '../../helpers/account';
import { smallMarket } from '../../helpers/small-market';

let ctx: TestContext;
let alice: string;
let bob: string;
let admin: string;
let signal: Signal;
beforeAll(async () => {
  ctx = await createTestContext({ provider: await smallMarket(30), env: { ADMIN_USER_IDS: 'mod-1', COMMUNITY_POST_QUOTA: '5', COMMUNITY_HIDE_AFTER_REPORTS: '3' } });
  await ctx.services.runs.persist('daily');
  signal = (await ctx.services.runs.current('daily')).view.signals[0]!;
  alice = await sessionCookie(ctx, 'alice');
  bob = await sessionCookie(ctx, 'bob');
  admin = await sessionCookie(ctx, 'mod-1');
});
afterAll(() => ctx.close());

const post = (cookie: string, body: unknown, headers: Record<string, string> = {}) => ctx.json<PostSchema>('/api/community/feed', send('POST', body, { cookie, ...headers }));

describe('/api/community/feed', () => {
  it('posts with a session and shows the post publicly under a pseudonym, tagged with the signal’s symbol', async () => {
    const created = await post(alice, { body: 'Watching this base', signalId: signal.id, symbols: ['spy'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ body: 'Watching this base', signalId: signal.id, symbols: [signal.symbol, 'SPY'], editedAt: null, author: authorPseudonym('alice') });
    expect(created.body.author).toMatch(/^usr_[0-9a-f]{16}$/);
    expect(JSON.stringify(created.body)).not.toContain('alice');
    const feed = await ctx.json<FeedPage>('/api/community/feed', {});
    expect(feed.status).toBe(200);
    expect(feed.body.items[0]).toEqual(created.body);
    expect((await ctx.json<PostSchema>(`/api/community/feed/${created.body.id}`, {})).body).toEqual(created.body);
    const tagged = await ctx.json<FeedPage>(`/api/community/feed?symbol=${signal.symbol.toLowerCase()}`, {});
    expect(tagged.body.items.map((p) => p.id)).toContain(created.body.id);
    expect((await ctx.json<FeedPage>('/api/community/feed?symbol=IWM', {})).body.items.map((p) => p.id)).not.toContain(created.body.id);
  });

  it('lets the author edit and delete their post, and answers 403 to anyone else (404 for none)', async () => {
    const mine = await post(alice, { body: 'first take' });
    const edited = await ctx.json<PostSchema>(`/api/community/feed/${mine.body.id}`, send('PATCH', { body: 'second take' }, { cookie: alice }));
    expect(edited.body.body).toBe('second take');
    expect(Date.parse(edited.body.editedAt!)).not.toBeNaN();
    await expectError(await ctx.request(`/api/community/feed/${mine.body.id}`, send('PATCH', { body: 'hijacked' }, { cookie: bob })), 403, 'forbidden');
    await expectError(await ctx.request(`/api/community/feed/${mine.body.id}`, as(bob, 'DELETE')), 403, 'forbidden');
    expect((await ctx.json<PostSchema>(`/api/community/feed/${mine.body.id}`, {})).body.body).toBe('second take');
    expect((await ctx.request(`/api/community/feed/${mine.body.id}`, as(alice, 'DELETE'))).status).toBe(200);
    await expectError(await ctx.request(`/api/community/feed/${mine.body.id}`), 404, 'not_found');
    await expectError(await ctx.request(`/api/community/feed/${mine.body.id}`, send('PATCH', { body: 'x' }, { cookie: alice })), 404, 'not_found');
  });

  it('answers 400 naming the bad field, and 401 for writes without a session', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body'],
      [{ body: '' }, 'body'],
      [{ body: 'x'.repeat(2001) }, 'body'],
      [{ body: 'x', symbols: ['ZZZZZ'] }, 'ZZZZZ'],
      [{ body: 'x', symbols: Array.from({ length: 11 }, () => 'AAPL') }, 'symbols'],
      [{ body: 'x', signalId: 'AAPL-vcp-1999-01-01T00:00:00.000Z' }, 'signalId'],
      [{ body: 'x', pinned: true }, 'pinned'],
    ];
    for (const [body, names] of cases) expect((await expectError(await ctx.request('/api/community/feed', send('POST', body, { cookie: bob })), 400)).error).toContain(names);
    await expectError(await ctx.request('/api/community/feed?limit=x'), 400, 'invalid_parameter');
    await expectError(await ctx.request('/api/community/feed/pst_x'), 400, 'invalid_parameter');
    const id = 'pst_00000000000000000000';
    await expectAllUnauthorized(ctx, [
      ['/api/community/feed', send('POST', { body: 'x' })],
      [`/api/community/feed/${id}`, send('PATCH', { body: 'x' })],
      [`/api/community/feed/${id}`, { method: 'DELETE' }],
      [`/api/community/feed/${id}/report`, send('POST', { reason: 'x' })],
      ['/api/community/moderation'],
      [`/api/community/feed/${id}/moderation`, send('POST', { hidden: true })],
    ]);
    const { key } = await ctx.services.auth.keys.create({ userId: 'bob', name: 'k', tier: 'pro' });
    await expectError(await ctx.request('/api/community/feed', send('POST', { body: 'x' }, { authorization: `Bearer ${key}` })), 403, 'insufficient_scope');
  });

  it('limits each user’s posting rate (429 with Retry-After), not others', async () => {
    const eve = await sessionCookie(ctx, 'eve');
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => ctx.request('/api/community/feed', send('POST', { body: `post ${i}` }, { cookie: eve }))));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).toHaveLength(3);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await expectError(refused[0]!, 429, 'rate_limited')).error).toContain('5 times');
    expect((await post(await sessionCookie(ctx, 'frank'), { body: 'unaffected' })).status).toBe(201);
    // A replayed POST (same Idempotency-Key) is not a new post and is not counted.
    const gina = await sessionCookie(ctx, 'gina');
    for (let i = 0; i < 4; i++) await post(gina, { body: `g${i}` });
    const key = crypto.randomUUID();
    const last = await post(gina, { body: 'the fifth' }, { 'idempotency-key': key });
    const replay = await ctx.request('/api/community/feed', send('POST', { body: 'the fifth' }, { cookie: gina, 'idempotency-key': key }));
    expect(replay.status).toBe(201);
    expect(((await replay.json()) as PostSchema).id).toBe(last.body.id);
  });

  it('counts a report once per user, hides a post at the threshold, and shows reports to admins only', async () => {
    const target = await post(alice, { body: 'buy my course' });
    const reporters = await Promise.all(['r1', 'r2', 'r3'].map((u) => sessionCookie(ctx, u)));
    const first = await ctx.json<ReportResponse>(`/api/community/feed/${target.body.id}/report`, send('POST', { reason: 'spam' }, { cookie: reporters[0]! }));
    expect(first.body).toEqual({ postId: target.body.id, counted: true });
    const twice = await ctx.json<ReportResponse>(`/api/community/feed/${target.body.id}/report`, send('POST', { reason: 'spam again' }, { cookie: reporters[0]! }));
    expect(twice.body.counted).toBe(false);
    await expectError(await ctx.request(`/api/community/feed/${target.body.id}/report`, send('POST', { reason: 'me' }, { cookie: alice })), 400, 'invalid_body');
    await expectError(await ctx.request(`/api/community/feed/${target.body.id}/report`, send('POST', { reason: '' }, { cookie: bob })), 400, 'invalid_body');
    expect((await ctx.json<FeedPage>('/api/community/feed?limit=200', {})).body.items.map((p) => p.id)).toContain(target.body.id);
    for (const r of reporters.slice(1)) await ctx.request(`/api/community/feed/${target.body.id}/report`, send('POST', { reason: 'spam' }, { cookie: r }));
    expect((await ctx.json<FeedPage>('/api/community/feed?limit=200', {})).body.items.map((p) => p.id)).not.toContain(target.body.id);
    await expectError(await ctx.request(`/api/community/feed/${target.body.id}`), 404, 'not_found');

    await expectError(await ctx.request('/api/community/moderation', as(bob)), 403, 'forbidden');
    const queue = await ctx.json<ModerationPage>('/api/community/moderation', as(admin));
    const held = queue.body.items.find((p) => p.id === target.body.id)!;
    expect(held).toMatchObject({ userId: 'alice', hidden: true, hiddenBy: 'reports', hiddenReason: '3 reports', reportCount: 3 });
    expect(held.reports.map((r) => r.userId).sort()).toEqual(['r1', 'r2', 'r3']);
  });

  it('lets admins hide, show and delete any post; others get 403 (BFLA)', async () => {
    const target = await post(bob, { body: 'borderline' });
    await expectError(await ctx.request(`/api/community/feed/${target.body.id}/moderation`, send('POST', { hidden: true }, { cookie: alice })), 403, 'forbidden');
    await expectError(await ctx.request(`/api/community/feed/${target.body.id}/moderation`, send('POST', { hidden: 'yes' }, { cookie: admin })), 400, 'invalid_body');
    const hidden = await ctx.json<ModeratedPostSchema>(`/api/community/feed/${target.body.id}/moderation`, send('POST', { hidden: true, reason: 'off topic' }, { cookie: admin }));
    expect(hidden.body).toMatchObject({ hidden: true, hiddenReason: 'off topic', hiddenBy: 'mod-1' });
    expect((await ctx.json<FeedPage>('/api/community/feed?limit=200', {})).body.items.map((p) => p.id)).not.toContain(target.body.id);
    const shown = await ctx.json<ModeratedPostSchema>(`/api/community/feed/${target.body.id}/moderation`, send('POST', { hidden: false }, { cookie: admin }));
    expect(shown.body).toMatchObject({ hidden: false, hiddenReason: null, hiddenBy: null });
    expect((await ctx.request(`/api/community/feed/${target.body.id}`, as(admin, 'DELETE'))).status).toBe(200);
    await expectError(await ctx.request(`/api/community/feed/${target.body.id}`), 404, 'not_found');
    await expectError(await ctx.request('/api/community/feed/pst_00000000000000000000/moderation', send('POST', { hidden: true }, { cookie: admin })), 404, 'not_found');
  });

  it('pages the public feed by cursor in both orders', async () => {
    const hal = await sessionCookie(ctx, 'hal');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await post(hal, { body: `page ${i}`, symbols: ['QQQ'] })).body.id);
    expect((await allPages<PostSchema>(ctx, '/api/community/feed?symbol=QQQ', {}, 3)).items.map((p) => p.id)).toEqual([...ids].reverse());
    expect((await allPages<PostSchema>(ctx, '/api/community/feed?symbol=QQQ&order=asc', {}, 1)).items.map((p) => p.id)).toEqual(ids);
  });
});
