import { describe, expect, it } from 'bun:test';
import { Elysia } from 'elysia';
import type { Principal } from '../../src/auth';
import { createLogger } from '../../src/log';
import { errors } from '../../src/plugins/errors';
import { bucketOf, rateLimit } from '../../src/plugins/rate-limit';
import { requestPath } from '../../src/plugins/request-path';
import { requestId } from '../../src/plugins/request-id';
import { MemoryRateLimitStore } from '../../src/ratelimit';

const log = createLogger('silent');
const TIERS = { free: 10, pro: 50, enterprise: 100 };

function app(options: { exempt?: string[]; principalOf?: (r: Request) => Principal | null | Promise<Principal | null> } = {}) {
  const store = new MemoryRateLimitStore();
  const server = new Elysia()
    .use(requestId)
    .use(errors(log))
    .use(rateLimit({ store, quota: 10, costlyQuota: 2, windowSeconds: 60, tierQuotas: TIERS, trustProxy: false, log, ...options }))
    .get('/api/cheap', () => ({ ok: true }))
    .get('/api/livez', () => ({ ok: true }))
    .get('/api/expensive', () => ({ ok: true }), { costly: true });
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
    const pro: Principal = { userId: 'u1', tier: 'pro', kind: 'key', keyId: 'key_1' };
    let who: Principal | null = null;
    const { request } = app({ principalOf: () => who });
    for (let i = 0; i < 2; i++) expect((await request('/api/expensive')).status).toBe(200);
    expect((await request('/api/expensive')).status).toBe(429);
    who = pro;
    expect((await request('/api/expensive')).status).toBe(200);
  });

  it('counts an authenticated principal in its own bucket at its tier, whether resolved now or awaited', async () => {
    const pro: Principal = { userId: 'u1', tier: 'pro', kind: 'key', keyId: 'key_1' };
    for (const principalOf of [() => pro, async () => pro]) {
      const { request } = app({ principalOf });
      const response = await request('/api/cheap');
      expect(response.headers.get('x-ratelimit-limit')).toBe('50');
      expect(response.headers.get('x-ratelimit-remaining')).toBe('49');
    }
  });
});

describe('buckets', () => {
  const ip = () => '203.0.113.9';
  it('puts a key, a session user and an anonymous client in different buckets', () => {
    expect(bucketOf({ userId: 'u', tier: 'free', kind: 'key', keyId: 'key_a' }, ip, 5, TIERS)).toEqual({ key: 'key:key_a', quota: 10 });
    expect(bucketOf({ userId: 'u', tier: 'enterprise', kind: 'session' }, ip, 5, TIERS)).toEqual({ key: 'user:u', quota: 100 });
    expect(bucketOf(null, ip, 5, TIERS)).toEqual({ key: 'ip:203.0.113.9', quota: 5 });
  });
  it('takes the path without the query', () => {
    expect(requestPath('http://localhost:3000/api/bars?symbol=AAPL')).toBe('/api/bars');
    expect(requestPath('http://localhost/api/keys/key_1')).toBe('/api/keys/key_1');
    expect(requestPath('/api/health?x=1')).toBe('/api/health'); // HTTP/1.0 without Host
    expect(requestPath('http://localhost')).toBe('/');
  });
});
