/**
 * Quotas per principal and keys' effective tiers (issue 28 items 4 and 5):
 * a user's API keys share the user's quota (a key of a lower tier is also held
 * to its own); a key acts at the lower of its tier and its owner's current
 * tier, as last stated by a session (or the operator), read with the key on
 * every request, so a downgrade reaches every key on every instance from the
 * next request; active keys per user are capped by tier, under concurrency.
 * Quotas: RATE_LIMIT_QUOTA_FREE 7, _PRO 11 (set below).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ApiKeys, UserTiers } from '../../src/auth';
import { ApiKeysRepository } from '../../src/db/repositories/api-keys';
import { UserTiersRepository } from '../../src/db/repositories/user-tiers';
import type { CreatedKeySchema } from '../../src/modules/account/model';
import { createLogger } from '../../src/log';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';
import { until } from '../helpers/until';

const log = createLogger('silent');

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { RATE_LIMIT_QUOTA: '5', RATE_LIMIT_QUOTA_FREE: '7', RATE_LIMIT_QUOTA_PRO: '11', RATE_LIMIT_QUOTA_ENTERPRISE: '13', RATE_LIMIT_WINDOW_SECONDS: '86400', API_KEYS_PER_TIER: '3,5,8' } });
});
afterAll(() => ctx.close());

/** A counted public read. */
const COUNTED = '/api/macro/calendar';
const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
const admitted = (responses: Response[]) => responses.filter((r) => r.status === 200).length;
const createKey = (cookie: string, tier?: string) => ctx.request('/api/keys', { method: 'POST', headers: { cookie, 'content-type': 'application/json', origin: 'http://localhost' }, body: JSON.stringify({ name: 'bot', ...(tier ? { tier } : {}) }) });

describe('a user’s keys share the user’s quota', () => {
  it('admits the user’s quota once across all of their keys, exactly under concurrency (the issue’s 3 keys × 120 → 120)', async () => {
    const keys = await Promise.all([1, 2, 3].map(() => ctx.services.auth.keys.create({ userId: 'usr_three_keys', name: 'k', tier: 'free' })));
    const responses = await Promise.all(keys.flatMap(({ key }) => Array.from({ length: 10 }, () => ctx.request(COUNTED, bearer(key)))));
    expect(admitted(responses)).toBe(7);
  });

  it('counts the user’s session and keys together', async () => {
    const cookie = await ctx.sessionCookie('usr_mixed', 'pro');
    const { key } = (await (await createKey(cookie)).json()) as CreatedKeySchema;
    // Creating the key counted one request of the session.
    const byKey = await Promise.all(Array.from({ length: 6 }, () => ctx.request(COUNTED, bearer(key))));
    expect(admitted(byKey)).toBe(6);
    const bySession = await Promise.all(Array.from({ length: 6 }, () => ctx.request(COUNTED, { headers: { cookie } })));
    expect(admitted(bySession)).toBe(11 - 1 - 6);
  });

  it('holds a key of a lower tier than its user to its own quota too (lower, never higher)', async () => {
    const cookie = await ctx.sessionCookie('usr_lower_key', 'pro');
    const created = await createKey(cookie, 'free');
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as CreatedKeySchema;
    const byKey = await Promise.all(Array.from({ length: 8 }, () => ctx.request(COUNTED, bearer(key))));
    expect(admitted(byKey)).toBe(7);
    expect(byKey.find((r) => r.status === 200)!.headers.get('x-ratelimit-limit')).toBe('7');
    // The user's own quota paid for the key's requests (the refused one too: every hit counts) and the key's creation: 11 − 9 − 1.
    const bySession = await ctx.request(COUNTED, { headers: { cookie } });
    expect(bySession.status).toBe(200);
    expect(bySession.headers.get('x-ratelimit-limit')).toBe('11');
    expect(bySession.headers.get('x-ratelimit-remaining')).toBe('1');
  });
});

describe('a key’s effective tier', () => {
  it('follows a downgrade of its owner on the very next request: 403 on a pro route and the free quota (the issue’s reproduction)', async () => {
    const pro = await ctx.sessionCookie('usr_downgraded', 'pro');
    const { key } = (await (await createKey(pro)).json()) as CreatedKeySchema;
    const before = await ctx.request('/api/exports', bearer(key));
    expect(before.status).toBe(200);
    expect(before.headers.get('x-ratelimit-limit')).toBe('11');
    // The identity provider now says free: the user's next session carries it.
    const free = await ctx.sessionCookie('usr_downgraded', 'free');
    const bySession = await ctx.request('/api/exports', { headers: { cookie: free } });
    expect(bySession.status).toBe(403);
    // The statement is written beside the request, not in its way: the key's next request after it is stored.
    await until('the free statement stored', async () => (await ctx.services.auth.tiers.of('usr_downgraded'))?.tier === 'free');
    const after = await ctx.request('/api/exports', bearer(key));
    expect(after.status).toBe(403);
    expect((await errorBody(after)).error).toContain('this API key is free');
    expect(after.headers.get('x-ratelimit-limit')).toBe('7');
    // Its listing still says the tier it was made with.
    expect((await ctx.services.auth.keys.list('usr_downgraded'))[0]!.tier).toBe('pro');
  });

  it('never rises above the key’s own tier when the owner upgrades', async () => {
    const free = await ctx.sessionCookie('usr_upgraded', 'free');
    const { key } = (await (await createKey(free)).json()) as CreatedKeySchema;
    await ctx.request(COUNTED, { headers: { cookie: await ctx.sessionCookie('usr_upgraded', 'enterprise') } });
    await until('the enterprise statement stored', async () => (await ctx.services.auth.tiers.of('usr_upgraded'))?.tier === 'enterprise');
    expect((await ctx.request('/api/exports', bearer(key))).status).toBe(403);
  });

  it('reads the owner’s tier on every instance: a statement written by one is the next verification of another', async () => {
    const db = ctx.services.database.db;
    const [one, two] = [0, 1].map(() => ({ keys: new ApiKeys(new ApiKeysRepository(db), { log, flushMs: 0 }), tiers: new UserTiers(new UserTiersRepository(db), log) }));
    const { key } = await one!.keys.create({ userId: 'usr_instances', name: 'k', tier: 'enterprise' });
    expect(await two!.keys.verify(key)).toMatchObject({ ok: true, principal: { tier: 'enterprise' } });
    await one!.tiers.state('usr_instances', 'pro');
    expect(await two!.keys.verify(key)).toMatchObject({ ok: true, principal: { tier: 'pro', userTier: 'pro' } });
  });

  it('keeps the newest statement: an older one (a token issued before) never undoes it', async () => {
    const repository = new UserTiersRepository(ctx.services.database.db);
    expect(await repository.state('usr_order', 'free', new Date('2026-11-20T12:00:00Z'), 'session')).toBe(true);
    expect(await repository.state('usr_order', 'pro', new Date('2026-11-20T11:00:00Z'), 'session')).toBe(false);
    expect(await repository.of('usr_order')).toMatchObject({ tier: 'free' });
    expect(await repository.state('usr_order', 'enterprise', new Date('2026-11-20T13:00:00Z'), 'operator')).toBe(true);
    expect(await repository.of('usr_order')).toMatchObject({ tier: 'enterprise', source: 'operator' });
  });
});

describe('the cap on active keys per user', () => {
  it('holds each tier’s cap under concurrent requests, and frees a place when a key is revoked', async () => {
    const cookie = await ctx.sessionCookie('usr_capped', 'free');
    const statuses = (await Promise.all(Array.from({ length: 5 }, () => createKey(cookie)))).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 403, 403]);
    const refused = await createKey(cookie);
    expect(await errorBody(refused)).toMatchObject({ code: 'forbidden', error: 'The free tier allows 3 active API keys; revoke one or upgrade' });
    const [oldest] = (await ctx.services.auth.keys.list('usr_capped')).slice(-1);
    await ctx.services.auth.keys.revoke(oldest!.id, 'usr_capped');
    expect((await createKey(cookie)).status).toBe(201);
  });

  it('caps by the user’s tier (pro: 5) and leaves the operator’s keys uncapped', async () => {
    const cookie = await ctx.sessionCookie('usr_capped_pro', 'pro');
    for (let i = 0; i < 5; i++) expect((await createKey(cookie)).status).toBe(201);
    expect((await createKey(cookie)).status).toBe(403);
    expect(await ctx.services.auth.keys.create({ userId: 'usr_capped_pro', name: 'operator', tier: 'pro' })).toMatchObject({ info: { name: 'operator' } });
  });
});
