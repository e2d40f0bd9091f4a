/** /api/keys in local mode: a user's API keys made, listed and revoked by session (the rest of the Account tag's access rules are in account.test.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { loadOrCreateLocalKey, mintLocalToken } from '../../src/auth/local-key';
import type { ApiKeySchema, CreatedKeySchema, KeyListSchema } from '../../src/modules/account/model';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('/api/keys (local mode)', () => {

  it('answers 401 in the Error shape with a cookie challenge when no session is sent', async () => {
    for (const [path, init] of [
      ['/api/keys', undefined],
      ['/api/keys', json({ name: 'x' })],
      ['/api/keys/key_00000000000000000000', { method: 'DELETE' }],
    ] as const) {
      const response = await ctx.request(path, init);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Cookie realm="breakline", cookie-name="__session", Bearer realm="breakline"');
      const body = await errorBody(response);
      expect(body.code).toBe('unauthorized');
      expect(body.error).toContain('__session');
    }
  });

  it('checks the credential before the input: 401, not 400, for a bad body without a session', async () => {
    const response = await ctx.request('/api/keys', json({ name: '' }));
    expect(response.status).toBe(401);
  });

  it('says why a session is refused', async () => {
    const key = await loadOrCreateLocalKey(ctx.config.auth.localKeyFile);
    const { token } = await mintLocalToken(key, { userId: 'alice', tier: 'free', ttlSeconds: 1, tierClaim: 'tier', now: Date.now() - 60_000 });
    const expired = await ctx.request('/api/keys', { headers: { cookie: `__session=${token}` } });
    expect(expired.status).toBe(401);
    expect(await errorBody(expired)).toMatchObject({ error: 'Invalid session: token expired', code: 'expired_session' });
    const tampered = await ctx.request('/api/keys', { headers: { cookie: `${await ctx.sessionCookie('alice')}x` } });
    expect(tampered.status).toBe(401);
    expect(await errorBody(tampered)).toMatchObject({ error: expect.stringContaining('Invalid session'), code: 'invalid_session' });
  });

  it('creates a key shown once, lists it without the secret, and revokes it', async () => {
    const alice = await ctx.sessionCookie('alice', 'pro');
    const created = await ctx.json<CreatedKeySchema>('/api/keys', json({ name: 'trading bot' }, { cookie: alice }));
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^bk_[0-9A-Za-z]{43}$/);
    expect(created.body).toMatchObject({ name: 'trading bot', tier: 'pro', prefix: created.body.key.slice(0, 11), lastUsedAt: null, revokedAt: null });
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(created.headers.get(header)).not.toBeNull();

    const listed = await ctx.json<KeyListSchema>('/api/keys', { headers: { cookie: alice } });
    expect(listed.status).toBe(200);
    const mine = listed.body.keys.find((k) => k.id === created.body.id);
    expect(mine).toBeDefined();
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);

    const revoked = await ctx.json<ApiKeySchema>(`/api/keys/${created.body.id}`, { method: 'DELETE', headers: { cookie: alice } });
    expect(revoked.status).toBe(200);
    expect(Date.parse(revoked.body.revokedAt!)).not.toBeNaN();
  });

  it('shows and touches only the user’s own keys', async () => {
    const alice = await ctx.sessionCookie('alice-2');
    const bob = await ctx.sessionCookie('bob-2');
    const alices = await ctx.json<CreatedKeySchema>('/api/keys', json({ name: 'alice only' }, { cookie: alice }));
    const bobs = await ctx.json<KeyListSchema>('/api/keys', { headers: { cookie: bob } });
    expect(bobs.body.keys.some((k) => k.id === alices.body.id)).toBe(false);
    const stolen = await ctx.request(`/api/keys/${alices.body.id}`, { method: 'DELETE', headers: { cookie: bob } });
    expect(stolen.status).toBe(404);
    expect((await errorBody(stolen)).code).toBe('not_found');
    const still = await ctx.json<KeyListSchema>('/api/keys', { headers: { cookie: alice } });
    expect(still.body.keys.find((k) => k.id === alices.body.id)?.revokedAt).toBeNull();
  });

  it('caps a key’s tier at the user’s own (403), defaulting to it', async () => {
    const free = await ctx.sessionCookie('frugal', 'free');
    const refused = await ctx.request('/api/keys', json({ name: 'greedy', tier: 'enterprise' }, { cookie: free }));
    expect(refused.status).toBe(403);
    expect((await errorBody(refused)).code).toBe('forbidden');
    const enterprise = await ctx.sessionCookie('big', 'enterprise');
    const lower = await ctx.json<CreatedKeySchema>('/api/keys', json({ name: 'ci', tier: 'free' }, { cookie: enterprise }));
    expect(lower.body.tier).toBe('free');
    const same = await ctx.json<CreatedKeySchema>('/api/keys', json({ name: 'main' }, { cookie: enterprise }));
    expect(same.body.tier).toBe('enterprise');
  });

  it('validates the body and the key id (400 with a session)', async () => {
    const alice = await ctx.sessionCookie('alice');
    expect((await ctx.request('/api/keys', json({ name: '' }, { cookie: alice }))).status).toBe(400);
    expect((await ctx.request('/api/keys', json({ name: 'x', tier: 'gold' }, { cookie: alice }))).status).toBe(400);
    expect((await ctx.request('/api/keys', json({ name: 'x'.repeat(101) }, { cookie: alice }))).status).toBe(400);
    const badId = await ctx.request('/api/keys/nope', { method: 'DELETE', headers: { cookie: alice } });
    expect(badId.status).toBe(400);
    expect((await errorBody(badId)).error).toContain('id');
  });

  it('refuses a key without admin:keys (a leaked read key cannot mint keys); one with it mints at most its own scopes and tier', async () => {
    const { key } = await ctx.services.auth.keys.create({ userId: 'alice', name: 'k', tier: 'free' });
    const response = await ctx.request('/api/keys', json({ name: 'more' }, { authorization: `Bearer ${key}` }));
    expect(response.status).toBe(403);
    expect(await errorBody(response)).toMatchObject({ code: 'insufficient_scope', error: expect.stringContaining("'admin:keys'") });
    // kim's tier was never stated (no session yet): the key acts at its own (auth/user-tiers).
    const admin = await ctx.services.auth.keys.create({ userId: 'kim', name: 'admin', tier: 'enterprise', scopes: ['read', 'admin:keys'] });
    const bearer = { authorization: `Bearer ${admin.key}` };
    const stronger = await ctx.request('/api/keys', json({ name: 'writer', scopes: ['read', 'write'] }, bearer));
    expect(stronger.status).toBe(403);
    expect(await errorBody(stronger)).toMatchObject({ code: 'insufficient_scope', error: expect.stringContaining('asked for write') });
    const minted = await ctx.request('/api/keys', json({ name: 'reader', scopes: ['read'], tier: 'pro' }, bearer));
    expect(minted.status).toBe(201);
    expect(await minted.json()).toMatchObject({ tier: 'pro', scopes: ['read'] });
  });

  it('gives a key the scopes asked for within the tier, read only by default', async () => {
    const alice = await ctx.sessionCookie('alice', 'pro');
    expect((await ctx.json('/api/keys', json({ name: 'default' }, { cookie: alice }))).body).toMatchObject({ scopes: ['read'] });
    expect((await ctx.json('/api/keys', json({ name: 'bot', scopes: ['write', 'read', 'backtest'] }, { cookie: alice }))).body).toMatchObject({ scopes: ['read', 'write', 'backtest'] });
    const beyond = await ctx.request('/api/keys', json({ name: 'too much', scopes: ['admin:keys'] }, { cookie: alice }));
    expect(beyond.status).toBe(403);
    expect((await errorBody(beyond)).error).toBe("A pro key's scopes are at most read, write, backtest; asked for admin:keys");
    const freeKey = await ctx.request('/api/keys', json({ name: 'free writer', tier: 'free', scopes: ['write'] }, { cookie: alice }));
    expect(freeKey.status).toBe(403);
    const unknown = await ctx.request('/api/keys', json({ name: 'x', scopes: ['delete'] }, { cookie: alice }));
    expect(unknown.status).toBe(400);
    expect((await errorBody(unknown)).error).toContain("Body field 'scopes'");
  });

  it('refuses a cross-site cookie-authenticated write (CSRF rule) but not a same-origin one', async () => {
    const alice = await ctx.sessionCookie('alice');
    const crossSite = await ctx.request('/api/keys', json({ name: 'csrf' }, { cookie: alice, origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' }));
    expect(crossSite.status).toBe(403);
    expect((await errorBody(crossSite)).error).toContain('CSRF');
    const sameOrigin = await ctx.request('/api/keys', json({ name: 'fine' }, { cookie: alice, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' }));
    expect(sameOrigin.status).toBe(201);
  });
});
