import { describe, expect, it } from 'bun:test';
import { Elysia } from 'elysia';
import type { Principal } from '../../src/auth';
import { createLogger } from '../../src/log';
import { errors } from '../../src/plugins/errors';
import { addressBucket, bucketQuota, keyBucket, principalBucket, rateLimit, rateLimiter } from '../../src/plugins/rate-limit';
import { requestPath } from '../../src/plugins/request-path';
import { requestId } from '../../src/plugins/request-id';
import { MemoryRateLimitStore } from '../../src/ratelimit';
import type { HitOptions } from '../../src/ratelimit/interface';

const log = createLogger('silent');
const TIERS = { free: 10, pro: 50, enterprise: 100 };
const CLASSES = {
  costly: { quota: 2, tierQuotas: { free: 2, pro: 2, enterprise: 2 }, windowSeconds: 60 },
  explain: { quota: 3, tierQuotas: { free: 3, pro: 5, enterprise: 8 }, windowSeconds: 3600 },
};

/** The in-process store on a pinned clock (a test about a window's length must not depend on where in the hour it runs). */
class PinnedStore extends MemoryRateLimitStore {
  constructor(private readonly at: number) {
    super();
  }
  override hit(key: string, quota: number, windowMs: number, options?: HitOptions) {
    return super.hit(key, quota, windowMs, { ...options, now: this.at });
  }
  override peek(key: string, quota: number, windowMs: number) {
    return super.peek(key, quota, windowMs, this.at);
  }
}

function app(options: { exempt?: string[]; principalOf?: (r: Request) => Principal | null | Promise<Principal | null>; now?: number } = {}) {
  const store = options.now === undefined ? new MemoryRateLimitStore() : new PinnedStore(options.now);
  const server = new Elysia()
    .use(requestId)
    .use(errors(log))
    .use(rateLimit({ store, quota: 10, windowSeconds: 60, tierQuotas: TIERS, classes: CLASSES, trustProxy: null, log, ...options }))
    .get('/api/cheap', () => ({ ok: true }))
    .get('/api/livez', () => ({ ok: true }))
    .get('/api/expensive', () => ({ ok: true }), { costly: true })
    .get('/api/model', () => ({ ok: true }), { costly: { class: 'explain' } });
  return { store, request: (path: string, init?: RequestInit) => server.handle(new Request(`http://localhost${path}`, init)) };
}

describe('rate-limit route rules', () => {
  it('never counts an exempt path, and reports the standing there without spending it', async () => {
    const { request } = app({ exempt: ['/api/livez'] });
    const probes = await Promise.all(Array.from({ length: 30 }, () => request('/api/livez')));
    // Every 200 JSON answer carries the rate-limit headers (spec §4); a probe reports them but never counts.
    expect(probes.every((r) => r.status === 200 && r.headers.get('x-ratelimit-limit') === '10' && r.headers.get('x-ratelimit-remaining') === '10')).toBe(true);
    const after = await request('/api/cheap');
    expect(after.headers.get('x-ratelimit-remaining')).toBe('9');
  });

  it('counts a costly route against the stricter quota as well: 2 of 5 under a costly quota of 2', async () => {
    const { request } = app();
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await request('/api/expensive?x=1')).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    // The ordinary quota has units left: cheap requests still pass (5 of 10 spent).
    const cheap = await request('/api/cheap');
    expect(cheap.status).toBe(200);
    expect(cheap.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('describes the costly quota in the headers of a costly answer', async () => {
    const { request } = app();
    const first = await request('/api/expensive');
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('gives each principal its own costly bucket', async () => {
    const pro: Principal = { userId: 'u1', tier: 'pro', kind: 'key', keyId: 'key_1', scopes: ['read'] };
    let who: Principal | null = null;
    const { request } = app({ principalOf: () => who });
    for (let i = 0; i < 2; i++) expect((await request('/api/expensive')).status).toBe(200);
    expect((await request('/api/expensive')).status).toBe(429);
    who = pro;
    expect((await request('/api/expensive')).status).toBe(200);
  });

  it('counts a named class in its own buckets, at its own quota per tier and window, apart from the costly class', async () => {
    const pro: Principal = { userId: 'u1', tier: 'pro', kind: 'session', scopes: ['read'] };
    let who: Principal | null = null;
    // Ten minutes into an hour: the hour's window has 50 minutes left, the ordinary minute all of its own.
    const { request } = app({ principalOf: () => who, now: Date.UTC(2026, 10, 20, 18, 10) });
    const anonymous = [];
    for (let i = 0; i < 4; i++) anonymous.push(await request('/api/model'));
    expect(anonymous.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(anonymous[0]!.headers.get('x-ratelimit-limit')).toBe('3');
    // The class's own window: the retry is up to an hour away, not the ordinary minute.
    expect(Number(anonymous[3]!.headers.get('retry-after'))).toBeGreaterThan(60);
    // The costly class is untouched by it.
    expect((await request('/api/expensive')).status).toBe(200);
    who = pro;
    const signedIn = [];
    for (let i = 0; i < 6; i++) signedIn.push((await request('/api/model')).status);
    expect(signedIn).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('counts an authenticated principal in its own bucket at its tier, whether resolved now or awaited', async () => {
    const pro: Principal = { userId: 'u1', tier: 'pro', kind: 'key', keyId: 'key_1', scopes: ['read'] };
    for (const principalOf of [() => pro, async () => pro]) {
      const { request } = app({ principalOf });
      const response = await request('/api/cheap');
      expect(response.headers.get('x-ratelimit-limit')).toBe('50');
      expect(response.headers.get('x-ratelimit-remaining')).toBe('49');
    }
  });
});

describe('buckets', () => {
  it('puts a user’s keys in the user’s bucket at the user’s tier, a key below it in its own too, and an anonymous client by address', () => {
    const session: Principal = { userId: 'u', tier: 'enterprise', kind: 'session', scopes: ['read'] };
    const key: Principal = { userId: 'u', tier: 'enterprise', kind: 'key', keyId: 'key_a', userTier: 'enterprise', scopes: ['read'] };
    const lower: Principal = { userId: 'u', tier: 'free', kind: 'key', keyId: 'key_b', userTier: 'enterprise', scopes: ['read'] };
    expect([principalBucket(session), bucketQuota(session, 5, TIERS), keyBucket(session)]).toEqual(['user:u', 100, undefined]);
    expect([principalBucket(key), bucketQuota(key, 5, TIERS), keyBucket(key)]).toEqual(['user:u', 100, undefined]);
    expect([principalBucket(lower), bucketQuota(lower, 5, TIERS), keyBucket(lower)]).toEqual(['user:u', 100, { key: 'key:key_b', tier: 'free' }]);
    expect([addressBucket('203.0.113.9'), bucketQuota(null, 5, TIERS)]).toEqual(['ip:203.0.113.9', 5]);
  });
  it('counts clients from different addresses apart, whatever order they come in', () => {
    const { general } = rateLimiter({ store: new MemoryRateLimitStore(), quota: 10, windowSeconds: 60, tierQuotas: TIERS, classes: CLASSES, trustProxy: null, log });
    const from = (address: string) => ({ requestIP: () => ({ address }) });
    const remaining = (address: string) => {
      const set = { headers: {} as Record<string, unknown> };
      void general(new Request('http://localhost/api/cheap'), from(address), set, '/api/cheap');
      return [set.headers['x-ratelimit-limit'], set.headers['x-ratelimit-remaining']];
    };
    const order = ['203.0.113.9', '203.0.113.9', '198.51.100.7', '203.0.113.9', '198.51.100.7', '198.51.100.7'];
    expect(order.map(remaining)).toEqual([['10', '9'], ['10', '8'], ['10', '9'], ['10', '7'], ['10', '8'], ['10', '7']]);
  });
  it('takes the path without the query', () => {
    expect(requestPath('http://localhost:3000/api/bars?symbol=AAPL')).toBe('/api/bars');
    expect(requestPath('http://localhost/api/keys/key_1')).toBe('/api/keys/key_1');
    expect(requestPath('/api/health?x=1')).toBe('/api/health'); // HTTP/1.0 without Host
    expect(requestPath('http://localhost')).toBe('/');
  });
});
