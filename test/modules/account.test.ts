/** Who may call what: sessions and API keys as principals, tiers and scopes, per-principal rate limits, provider mode, no plaintext key stored, the OpenAPI security schemes (the /api/keys routes themselves: account-keys.test.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { Elysia } from 'elysia';
import { createApp } from '../../src/app';
import { loadOrCreateLocalKey, mintLocalToken } from '../../src/auth/local-key';
import type { CreatedKeySchema } from '../../src/modules/account/model';
import { auth } from '../../src/plugins/auth';
import { createTestContext, errorBody, type ErrorBody, type TestContext } from '../helpers/app';
import { jwksOf, signingKey, signToken } from '../helpers/auth';

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** The app plus two probe routes under two rows of the authorisation table (read; read at the pro tier). */
function withProbes(ctx: TestContext) {
  const probes = new Elysia({ name: 'test/probes' })
    .use(auth(ctx.services.auth.authenticator))
    .get('/api/probe/any', ({ principal }) => principal, { auth: 'GET /api/watchlists' })
    .post('/api/probe/pro', ({ principal }) => principal, { auth: 'GET /api/exports' });
  const app = createApp(ctx.services).use(probes);
  return (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init));
}

/** One app in local mode for most of this file (the rate-limit and provider suites have their own configuration). */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('routes that take a session or an API key, and a minimum tier', () => {
  let request: ReturnType<typeof withProbes>;
  beforeAll(() => {
    request = withProbes(ctx);
  });

  const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

  it('gives the handler the principal of a key or a session', async () => {
    const { key, info } = await ctx.services.auth.keys.create({ userId: 'dana', name: 'k', tier: 'pro' });
    expect(await (await request('/api/probe/any', bearer(key))).json()).toEqual({ userId: 'dana', tier: 'pro', kind: 'key', keyId: info.id, userTier: 'pro', scopes: ['read'] });
    expect(await (await request('/api/probe/any', { headers: { cookie: await ctx.sessionCookie('dana', 'free') } })).json()).toEqual({ userId: 'dana', tier: 'free', kind: 'session', scopes: ['read', 'write', 'backtest', 'admin:keys'] });
  });

  it('answers 401 with both challenges, and RFC 6750 invalid_token for a bad key', async () => {
    const none = await request('/api/probe/any');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Cookie realm="breakline", cookie-name="__session", Bearer realm="breakline"');
    const bad = await request('/api/probe/any', bearer(`bk_${'A'.repeat(43)}`));
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('Bearer realm="breakline", error="invalid_token", error_description="unknown API key"');
    expect((await errorBody(bad)).error).toBe('Invalid API key: unknown API key');
    const notAKey = await request('/api/probe/any', bearer('eyJhbGciOiJSUzI1NiJ9.e30.sig'));
    expect(notAKey.status).toBe(401);
    expect((await errorBody(notAKey)).error).toContain('Bearer credentials are API keys');
    const basic = await request('/api/probe/any', { headers: { authorization: 'Basic YWxpY2U6c2VjcmV0' } });
    expect(basic.status).toBe(401);
  });

  it('refuses a revoked key at once', async () => {
    const { key, info } = await ctx.services.auth.keys.create({ userId: 'erin', name: 'k', tier: 'free' });
    expect((await request('/api/probe/any', bearer(key))).status).toBe(200);
    const revoke = await request(`/api/keys/${info.id}`, { method: 'DELETE', headers: { cookie: await ctx.sessionCookie('erin') } });
    expect(revoke.status).toBe(200);
    const after = await request('/api/probe/any', bearer(key));
    expect(after.status).toBe(401);
    expect((await errorBody(after)).error).toContain('revoked');
  });

  it('answers 403 with insufficient_scope below the route’s tier', async () => {
    const free = await ctx.services.auth.keys.create({ userId: 'finn', name: 'k', tier: 'free' });
    const low = await request('/api/probe/pro', { method: 'POST', ...bearer(free.key) });
    expect(low.status).toBe(403);
    expect(low.headers.get('www-authenticate')).toBe('Bearer realm="breakline", error="insufficient_scope", error_description="requires tier pro"');
    const body: ErrorBody = await errorBody(low);
    expect(body).toMatchObject({ code: 'forbidden' });
    expect(body.error).toContain('pro tier');
    for (const tier of ['pro', 'enterprise'] as const) {
      const { key } = await ctx.services.auth.keys.create({ userId: 'finn', name: tier, tier });
      expect((await request('/api/probe/pro', { method: 'POST', ...bearer(key) })).status).toBe(200);
    }
    const freeSession = await request('/api/probe/pro', { method: 'POST', headers: { cookie: await ctx.sessionCookie('finn', 'free') } });
    expect(freeSession.status).toBe(403);
    expect(freeSession.headers.get('www-authenticate')).toContain('Cookie realm="breakline"');
  });

  it('does not apply the CSRF rule to key-authenticated writes (browsers never send keys on their own)', async () => {
    const { key } = await ctx.services.auth.keys.create({ userId: 'gail', name: 'k', tier: 'pro' });
    const response = await request('/api/probe/pro', { method: 'POST', headers: { authorization: `Bearer ${key}`, origin: 'https://elsewhere.test', 'sec-fetch-site': 'cross-site' } });
    expect(response.status).toBe(200);
  });

  it('answers 401 on public routes too when a credential is present and invalid, with a code that says which', async () => {
    const key = await loadOrCreateLocalKey(ctx.config.auth.localKeyFile);
    const { token } = await mintLocalToken(key, { userId: 'hal', tier: 'pro', ttlSeconds: 1, tierClaim: 'tier', now: Date.now() - 60_000 });
    const revoked = await ctx.services.auth.keys.create({ userId: 'hal', name: 'gone', tier: 'free' });
    await ctx.services.auth.keys.revoke(revoked.info.id, 'hal');
    const cases: [RequestInit, string][] = [
      [{ headers: { cookie: `__session=${token}` } }, 'expired_session'],
      [{ headers: { cookie: `${await ctx.sessionCookie('hal')}x` } }, 'invalid_session'],
      [bearer('bk_nonsense'), 'invalid_key'],
      [bearer(`bk_${'A'.repeat(43)}`), 'invalid_key'],
      [bearer(revoked.key), 'revoked_key'],
      [{ headers: { authorization: 'Basic YWxpY2U6c2VjcmV0' } }, 'invalid_authorization'],
    ];
    // /api/breakouts is answered by the fast path when listening; app.handle is the ordinary path: both count before routing.
    for (const path of ['/api/macro/calendar', '/api/health', '/api/breakouts?limit=1', '/api/graphql?query=%7B__typename%7D']) {
      for (const [init, code] of cases) {
        const response = await request(path, init);
        expect({ path, code, status: response.status }).toEqual({ path, code, status: 401 });
        expect(await errorBody(response)).toMatchObject({ code, requestId: expect.stringMatching(/^req_/) });
        expect(response.headers.get('www-authenticate')).toContain('Bearer realm="breakline"');
      }
    }
  });
});

describe('rate limits per principal and tier', () => {
  let ctx: TestContext;
  let request: ReturnType<typeof withProbes>;
  beforeAll(async () => {
    // One long window: a burst never straddles two (a 60 s window ending mid-burst admits twice).
    ctx = await createTestContext({ env: { RATE_LIMIT_QUOTA: '5', RATE_LIMIT_QUOTA_FREE: '7', RATE_LIMIT_QUOTA_PRO: '11', RATE_LIMIT_QUOTA_ENTERPRISE: '13', RATE_LIMIT_WINDOW_SECONDS: '86400', TRUST_PROXY: '1' } });
    request = withProbes(ctx);
  });
  afterAll(() => ctx.close());

  // A counted public read (main's /api/health is a probe that is not counted).
  const COUNTED = '/api/macro/calendar';
  const fire = (n: number, init: RequestInit) => Promise.all(Array.from({ length: n }, () => request(COUNTED, init)));
  const admitted = (responses: Response[]) => responses.filter((r) => r.status === 200).length;

  it('counts a key at its tier’s quota, exactly under concurrency', async () => {
    for (const [tier, quota] of [['free', 7], ['pro', 11], ['enterprise', 13]] as const) {
      const { key } = await ctx.services.auth.keys.create({ userId: `ivy-${tier}`, name: tier, tier });
      const responses = await fire(30, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '198.51.100.7' } });
      expect(admitted(responses)).toBe(quota);
      expect(responses[0]!.headers.get('x-ratelimit-limit')).toBe(String(quota));
      expect(responses.filter((r) => r.status === 429).every((r) => r.headers.get('retry-after') !== null)).toBe(true);
    }
    // The shared IP was never charged for the keyed requests.
    const anonymous = await request(COUNTED, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(anonymous.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('counts a session per user, whatever the IP, at the session’s tier', async () => {
    const cookie = await ctx.sessionCookie('jack', 'pro');
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => request(COUNTED, { headers: { cookie, 'x-forwarded-for': `203.0.113.${i}` } })));
    expect(admitted(responses)).toBe(11);
  });

  it('counts anonymous clients per IP at the public quota', async () => {
    expect(admitted(await fire(12, { headers: { 'x-forwarded-for': '192.0.2.55' } }))).toBe(5);
  });
});

describe('provider mode (a JWKS file) over HTTP', () => {
  let ctx: TestContext;
  const issuer = 'https://clerk.breakline.test';
  let rsa: Awaited<ReturnType<typeof signingKey>>;
  beforeAll(async () => {
    rsa = await signingKey('RS256', 'ins_1');
    const path = join(mkdtempSync(join(tmpdir(), 'breakline-jwks-')), 'jwks.json');
    writeFileSync(path, JSON.stringify(jwksOf(rsa)));
    ctx = await createTestContext({ env: { AUTH_ISSUER: issuer, AUTH_JWKS_FILE: path, AUTH_AUTHORIZED_PARTIES: 'https://app.breakline.test' } });
  });
  afterAll(() => ctx.close());

  const now = () => Math.floor(Date.now() / 1000);
  const token = (claims: Record<string, unknown> = {}) => signToken(rsa, { iss: issuer, sub: 'user_29w83sxmDNGwOuEthce5gg56FcC', azp: 'https://app.breakline.test', iat: now(), exp: now() + 60, ...claims });

  it('accepts the provider’s session and refuses expired, foreign-party and locally minted ones', async () => {
    const ok = await ctx.request('/api/keys', { headers: { cookie: `__session=${await token()}` } });
    expect(ok.status).toBe(200);
    const expired = await ctx.request('/api/keys', { headers: { cookie: `__session=${await token({ exp: now() - 6 })}` } });
    expect(expired.status).toBe(401);
    expect((await errorBody(expired)).error).toBe('Invalid session: token expired');
    const foreign = await ctx.request('/api/keys', { headers: { cookie: `__session=${await token({ azp: 'https://evil.test' })}` } });
    expect(foreign.status).toBe(401);
    const local = await ctx.request('/api/keys', { headers: { cookie: await ctx.sessionCookie('mallory', 'enterprise') } });
    expect(local.status).toBe(401);
  });
});

describe('no plaintext API key anywhere in the database', () => {

  it('holds no key, no secret part and no hex of either in any row of any table', async () => {
    const plaintexts: string[] = [];
    for (const user of ['kim', 'lee']) {
      const cookie = await ctx.sessionCookie(user, 'pro');
      for (const name of ['a', 'b']) {
        const created = await ctx.json<CreatedKeySchema>('/api/keys', json({ name }, { cookie }));
        expect(created.status).toBe(201);
        plaintexts.push(created.body.key);
      }
    }
    plaintexts.push((await ctx.services.auth.keys.create({ userId: 'ops', name: 'cli', tier: 'enterprise' })).key);
    // Use them (last-use bookkeeping is written), revoke one.
    for (const key of plaintexts) expect((await ctx.request('/api/macro/calendar', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await ctx.services.auth.keys.flush();
    const [first] = await ctx.services.auth.keys.list('kim');
    await ctx.services.auth.keys.revoke(first!.id, 'kim');

    const db = ctx.services.database.db;
    const tables = (await db.execute(
      sql`select table_schema, table_name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    )) as unknown;
    const tableRows = rowsOf(tables) as { table_schema: string; table_name: string }[];
    expect(tableRows.map((t) => t.table_name)).toContain('api_keys');
    expect(tableRows.length).toBeGreaterThan(5);

    let scannedRows = 0;
    let dump = '';
    for (const { table_schema, table_name } of tableRows) {
      const rows = rowsOf(await db.execute(sql.raw(`select t::text as row from "${table_schema}"."${table_name}" t`))) as { row: string }[];
      scannedRows += rows.length;
      dump += rows.map((r) => r.row).join('\n');
    }
    expect(scannedRows).toBeGreaterThanOrEqual(plaintexts.length);
    expect(plaintexts.length).toBe(5);
    for (const key of plaintexts) {
      const secret = key.slice(11); // after bk_ and the 8-character lookup prefix
      for (const needle of [key, secret, secret.slice(0, 16), secret.slice(-16), Buffer.from(key).toString('hex'), Buffer.from(key).toString('base64')]) {
        expect(dump.includes(needle)).toBe(false);
      }
      // What is there: its prefix and its SHA-256.
      expect(dump).toContain(key.slice(3, 11));
      expect(dump).toContain(new Bun.CryptoHasher('sha256').update(key).digest('hex'));
    }
  });
});

describe('OpenAPI security', () => {

  it('declares SessionCookie (cookie __session) and a Bearer scheme, and marks the protected operations', async () => {
    type Op = { security?: Record<string, string[]>[]; responses: Record<string, unknown> };
    const doc = (await (await ctx.request('/openapi/json')).json()) as { components: { securitySchemes: Record<string, unknown> }; paths: Record<string, Record<string, Op>> };
    expect(doc.components.securitySchemes.SessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: '__session' });
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const keyOps = [doc.paths['/api/keys']!.post!, doc.paths['/api/keys']!.get!, doc.paths['/api/keys/{id}']!.delete!];
    for (const op of keyOps) {
      expect(op.security).toEqual([{ SessionCookie: [] }, { ApiKey: ['admin:keys'] }]);
      expect(Object.keys(op.responses)).toContain('401');
    }
    // The account features (test/modules/account/openapi.test.ts checks theirs) and GraphQL (credentials optional: test/modules/graphql) aside, the rest is public.
    const accountPaths = /^\/api\/(keys|watchlists|alerts\/v2|notifications|breakouts\/notifications|journal|exports|community|graphql|backtest)\b/;
    const publicOps = Object.entries(doc.paths).filter(([path]) => !accountPaths.test(path)).flatMap(([, ops]) => Object.values(ops));
    expect(publicOps.length).toBeGreaterThan(20);
    // plugins/openapi publishes a public operation's security as [] (no requirement).
    expect(publicOps.filter((op) => !(Array.isArray(op.security) && op.security.length === 0))).toEqual([]);
    const backtestOps = Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/backtest/')).flatMap(([, ops]) => Object.values(ops));
    expect(backtestOps.length).toBe(3);
    for (const op of backtestOps) expect(op.security).toEqual([{ SessionCookie: [] }, { ApiKey: ['backtest'] }]);
  });
});

/** drizzle's execute answers rows (postgres.js) or `{ rows }` (PGlite). */
function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  if (typeof result === 'object' && result !== null && 'rows' in result && Array.isArray(result.rows)) return result.rows;
  throw new Error('unexpected execute() result');
}
