import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { RulePage, RuleSchema } from '../../../src/modules/alerts/model';
import { createTestContext, type TestContext } from '../../helpers/app';
import { allPages, as, expectAllUnauthorized, expectError, send, sessionCookie } from '../../helpers/account';
import { TEST_CA_FILE } from '../../helpers/webhook-receiver';

let ctx: TestContext;
let alice: string;
let bob: string;
let freeUser: string;
/** A server with the default address rule (no private webhook addresses), made beside the main one. */
let strict: TestContext;
beforeAll(async () => {
  [ctx, strict] = await Promise.all([
    createTestContext({ env: { ALERT_WEBHOOK_ALLOW_PRIVATE: 'true', ALERT_WEBHOOK_CA_FILE: TEST_CA_FILE, ALERT_RULES_PER_TIER: '2,4,8' } }),
    createTestContext({ env: { ALERT_WEBHOOK_ALLOW_PRIVATE: 'false' } }),
  ]);
  alice = await sessionCookie(ctx, 'alice', 'pro');
  bob = await sessionCookie(ctx, 'bob', 'pro');
  freeUser = await sessionCookie(ctx, 'fred', 'free');
});
afterAll(() => Promise.all([ctx.close(), strict.close()]));

const create = (cookie: string, body: unknown) => ctx.json<RuleSchema>('/api/alerts/v2', send('POST', body, { cookie }));
const HOOK = 'https://127.0.0.1:9/hook';

describe('/api/alerts/v2', () => {
  it('creates a rule with its defaults and a webhook, showing the signing secret once', async () => {
    const created = await create(alice, { name: 'Semis', symbols: ['nvda', 'AMD'], minBand: 'strong', channels: { webhook: { url: HOOK } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Semis',
      symbols: ['NVDA', 'AMD'],
      watchlistId: null,
      patternTypes: null,
      minBand: 'strong',
      minScore: null,
      timeframe: 'daily',
      direction: 'any',
      states: ['triggered'],
      cooldownMinutes: 60,
      enabled: true,
      channels: { inApp: true, webhook: { url: HOOK } },
    });
    expect(created.body.channels.webhook!.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await ctx.json<RuleSchema>(`/api/alerts/v2/${created.body.id}`, as(alice));
    expect(read.body.channels.webhook).toEqual({ url: HOOK });
    const listed = await ctx.json<RulePage>('/api/alerts/v2', as(alice));
    expect(listed.body.items.map((r) => r.id)).toContain(created.body.id);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.channels.webhook!.secret!);
  });

  it('watches a watchlist of the user’s, not another user’s (404), and then keeps it from being deleted (409)', async () => {
    const list = await ctx.json<{ id: string }>('/api/watchlists', send('POST', { name: 'w', symbols: ['AAPL'] }, { cookie: alice }));
    const rule = await create(alice, { name: 'on list', watchlistId: list.body.id, states: ['triggered', 'confirmed'] });
    expect(rule.status).toBe(201);
    expect(rule.body).toMatchObject({ symbols: null, watchlistId: list.body.id });
    await expectError(await ctx.request('/api/alerts/v2', send('POST', { name: 'steal', watchlistId: list.body.id }, { cookie: bob })), 404, 'not_found');
    const blocked = await ctx.request(`/api/watchlists/${list.body.id}`, as(alice, 'DELETE'));
    expect((await expectError(blocked, 409, 'conflict')).error).toContain(rule.body.id);
    await ctx.request(`/api/alerts/v2/${rule.body.id}`, as(alice, 'DELETE'));
    expect((await ctx.request(`/api/watchlists/${list.body.id}`, as(alice, 'DELETE'))).status).toBe(200);
  });

  it('changes only what a PATCH sends; a new webhook URL or rotateSecret makes a new secret', async () => {
    const made = await create(bob, { name: 'b', symbols: ['JPM'], channels: { webhook: { url: HOOK } } });
    const first = made.body.channels.webhook!.secret!;
    const renamed = await ctx.json<RuleSchema>(`/api/alerts/v2/${made.body.id}`, send('PATCH', { name: 'banks', minScore: 80, enabled: false }, { cookie: bob }));
    expect(renamed.body).toMatchObject({ name: 'banks', minScore: 80, enabled: false, symbols: ['JPM'], channels: { inApp: true, webhook: { url: HOOK } } });
    expect(renamed.body.channels.webhook!.secret).toBeUndefined();
    const rotated = await ctx.json<RuleSchema>(`/api/alerts/v2/${made.body.id}`, send('PATCH', { channels: { webhook: { url: HOOK, rotateSecret: true } } }, { cookie: bob }));
    expect(rotated.body.channels.webhook!.secret).toMatch(/^whsec_/);
    expect(rotated.body.channels.webhook!.secret).not.toBe(first);
    const cleared = await ctx.json<RuleSchema>(`/api/alerts/v2/${made.body.id}`, send('PATCH', { minScore: null, channels: { webhook: null }, watchlistId: undefined }, { cookie: bob }));
    expect(cleared.body).toMatchObject({ minScore: null, channels: { inApp: true, webhook: null } });
    const noChannel = await ctx.request(`/api/alerts/v2/${made.body.id}`, send('PATCH', { channels: { inApp: false } }, { cookie: bob }));
    expect((await expectError(noChannel, 400, 'invalid_body')).error).toContain('channel');
  });

  it('answers 400 naming the bad field', async () => {
    const cases: [unknown, string][] = [
      [{ symbols: ['AAPL'] }, 'name'],
      [{ name: 'x' }, 'symbols'],
      [{ name: 'x', symbols: ['AAPL'], watchlistId: 'wl_00000000000000000000' }, 'watchlistId'],
      [{ name: 'x', symbols: [] }, 'symbols'],
      [{ name: 'x', symbols: ['ZZZZZ'] }, 'ZZZZZ'],
      [{ name: 'x', symbols: ['AAPL'], patternTypes: ['teacup'] }, 'patternTypes'],
      [{ name: 'x', symbols: ['AAPL'], patternTypes: ['vcp', 'vcp'] }, 'patternTypes'],
      [{ name: 'x', symbols: ['AAPL'], minBand: 'great' }, 'minBand'],
      [{ name: 'x', symbols: ['AAPL'], minScore: 101 }, 'minScore'],
      [{ name: 'x', symbols: ['AAPL'], timeframe: '5m' }, 'timeframe'],
      [{ name: 'x', symbols: ['AAPL'], direction: 'up' }, 'direction'],
      [{ name: 'x', symbols: ['AAPL'], states: [] }, 'states'],
      [{ name: 'x', symbols: ['AAPL'], cooldownMinutes: -1 }, 'cooldownMinutes'],
      [{ name: 'x', symbols: ['AAPL'], channels: { inApp: false } }, 'channel'],
      [{ name: 'x', symbols: ['AAPL'], channels: { webhook: { url: 'http://127.0.0.1:9/hook' } } }, 'https'],
      [{ name: 'x', symbols: ['AAPL'], channels: { webhook: { url: 'not a url at all' } } }, 'channels.webhook.url'],
      [{ name: 'x', symbols: ['AAPL'], channels: { sms: true } }, 'sms'],
      [{ name: 'x', symbols: ['AAPL'], extra: 1 }, 'extra'],
    ];
    for (const [body, names] of cases) {
      const error = await expectError(await ctx.request('/api/alerts/v2', send('POST', body, { cookie: alice })), 400);
      expect(error.error).toContain(names);
    }
    await expectError(await ctx.request('/api/alerts/v2/rul_nope', as(alice)), 400, 'invalid_parameter');
    await expectError(await ctx.request('/api/alerts/v2?limit=x', as(alice)), 400, 'invalid_parameter');
  });

  it('refuses webhook addresses in private, loopback and link-local ranges unless the flag allows them', async () => {
    const cookie = await sessionCookie(strict, 'sam', 'pro');
    for (const url of ['https://127.0.0.1/hook', 'https://localhost/hook', 'https://10.1.2.3/hook', 'https://192.168.0.10/hook', 'https://172.16.5.4/hook', 'https://169.254.169.254/latest', 'https://[::1]/hook', 'https://[fe80::1]/hook', 'https://[::ffff:10.0.0.1]/hook', 'https://0.0.0.0/hook']) {
      const refused = await strict.request('/api/alerts/v2', send('POST', { name: 'x', symbols: ['AAPL'], channels: { webhook: { url } } }, { cookie }));
      const error = await expectError(refused, 400, 'invalid_body');
      expect(error.error).toContain('channels.webhook.url');
      expect(error.error).toMatch(/range/);
    }
    const publicHost = await strict.json<RuleSchema>('/api/alerts/v2', send('POST', { name: 'x', symbols: ['AAPL'], channels: { webhook: { url: 'https://203.0.113.7/hook' } } }, { cookie }));
    expect(publicHost.status).toBe(400); // TEST-NET-3 is documentation space: not public unicast either
    const ok = await strict.json<RuleSchema>('/api/alerts/v2', send('POST', { name: 'x', symbols: ['AAPL'], channels: { webhook: { url: 'https://8.8.8.8/hook' } } }, { cookie }));
    expect(ok.status).toBe(201); // written, never sent in this test
  });

  it('answers 401 without a credential on every route', async () => {
    const id = 'rul_00000000000000000000';
    await expectAllUnauthorized(ctx, [
      ['/api/alerts/v2'],
      ['/api/alerts/v2', send('POST', { name: 'x', symbols: ['AAPL'] })],
      [`/api/alerts/v2/${id}`],
      [`/api/alerts/v2/${id}`, send('PATCH', { name: 'x' })],
      [`/api/alerts/v2/${id}`, { method: 'DELETE' }],
      [`/api/alerts/v2/${id}/deliveries`],
    ]);
  });

  it('answers 404 for another user’s rule on every route (BOLA)', async () => {
    const mine = await create(alice, { name: 'mine', symbols: ['AAPL'] });
    const id = mine.body.id;
    for (const [path, init] of [
      [`/api/alerts/v2/${id}`, as(bob)],
      [`/api/alerts/v2/${id}`, send('PATCH', { enabled: false }, { cookie: bob })],
      [`/api/alerts/v2/${id}/deliveries`, as(bob)],
      [`/api/alerts/v2/${id}`, as(bob, 'DELETE')],
    ] as const) {
      await expectError(await ctx.request(path, init), 404, 'not_found');
    }
    expect((await ctx.json<RuleSchema>(`/api/alerts/v2/${id}`, as(alice))).body.enabled).toBe(true);
    await ctx.request(`/api/alerts/v2/${id}`, as(alice, 'DELETE'));
  });

  it('keeps webhooks to the pro tier and caps rules per tier (403, BFLA)', async () => {
    const webhook = await ctx.request('/api/alerts/v2', send('POST', { name: 'x', symbols: ['AAPL'], channels: { webhook: { url: HOOK } } }, { cookie: freeUser }));
    expect((await expectError(webhook, 403, 'forbidden')).error).toContain('pro tier');
    for (let i = 0; i < 2; i++) expect((await create(freeUser, { name: `r${i}`, symbols: ['AAPL'] })).status).toBe(201);
    const third = await ctx.request('/api/alerts/v2', send('POST', { name: 'r2', symbols: ['AAPL'] }, { cookie: freeUser }));
    expect((await expectError(third, 403, 'forbidden')).error).toContain('2 alert rules');
    const [mine] = (await ctx.json<RulePage>('/api/alerts/v2', as(freeUser))).body.items;
    const upgrade = await ctx.request(`/api/alerts/v2/${mine!.id}`, send('PATCH', { channels: { webhook: { url: HOOK } } }, { cookie: freeUser }));
    await expectError(upgrade, 403, 'forbidden');
  });

  it('pages rules by cursor in both orders', async () => {
    const gail = await sessionCookie(ctx, 'gail', 'enterprise');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(gail, { name: `g${i}`, symbols: ['AAPL'] })).body.id);
    expect((await allPages<RuleSchema>(ctx, '/api/alerts/v2', as(gail), 2)).items.map((r) => r.id)).toEqual([...ids].reverse());
    expect((await allPages<RuleSchema>(ctx, '/api/alerts/v2?order=asc', as(gail), 4)).items.map((r) => r.id)).toEqual(ids);
  });

  it('replays a POST with the same Idempotency-Key and body, and refuses another body (409)', async () => {
    const key = crypto.randomUUID();
    const body = { name: 'once', symbols: ['AAPL'] };
    const first = await ctx.request('/api/alerts/v2', send('POST', body, { cookie: bob, 'idempotency-key': key }));
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const again = await ctx.request('/api/alerts/v2', send('POST', { symbols: ['AAPL'], name: 'once' }, { cookie: bob, 'idempotency-key': key }));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    const other = await ctx.request('/api/alerts/v2', send('POST', { name: 'twice', symbols: ['AAPL'] }, { cookie: bob, 'idempotency-key': key }));
    expect((await expectError(other, 409, 'conflict')).error).toContain(key);
    const rules = (await ctx.json<RulePage>('/api/alerts/v2?limit=200', as(bob))).body.items;
    expect(rules.filter((r) => r.name === 'once')).toHaveLength(1);
    expect(rules.some((r) => r.name === 'twice')).toBe(false);
    // Another user's same key is another key.
    expect((await ctx.request('/api/alerts/v2', send('POST', body, { cookie: alice, 'idempotency-key': key }))).status).toBe(201);
  });

  it('frees the key of a failed POST before its answer is sent: an immediate retry runs again (no 409)', async () => {
    const key = crypto.randomUUID();
    const bad = { name: 'both', symbols: ['AAPL'], watchlistId: '00000000-0000-4000-8000-000000000000' };
    for (let attempt = 0; attempt < 3; attempt++) {
      await expectError(await ctx.request('/api/alerts/v2', send('POST', bad, { cookie: bob, 'idempotency-key': key })), 400, 'invalid_body');
    }
    const good = await ctx.request('/api/alerts/v2', send('POST', { name: 'after-failure', symbols: ['AAPL'] }, { cookie: bob, 'idempotency-key': key }));
    expect(good.status).toBe(201);
  });
});
