import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { newId } from '../../src/ids';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';

describe('HTTP plumbing', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  describe('request id', () => {
    it('generates a req_ id when the caller sends none', async () => {
      const response = await ctx.request('/api/health');
      expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{20}$/);
    });
    it('echoes a well-formed incoming id', async () => {
      const response = await ctx.request('/api/health', { headers: { 'X-Request-Id': 'trace-42.a:b_c' } });
      expect(response.headers.get('x-request-id')).toBe('trace-42.a:b_c');
    });
    it('replaces a malformed incoming id', async () => {
      const response = await ctx.request('/api/health', { headers: { 'X-Request-Id': 'bad id <script>' } });
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    });
    it('gives every request its own id', async () => {
      const [a, b] = await Promise.all([ctx.request('/api/health'), ctx.request('/api/health')]);
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    });
    it('mints ids of 20 Crockford base32 characters, every character at every position, none twice', () => {
      // 20,000 ids: past several refills of the random pool (409 ids each).
      const ids = Array.from({ length: 20_000 }, () => newId('req'));
      const seen = Array.from({ length: 20 }, () => new Set<string>());
      expect(ids.filter((id) => !/^req_[0-9a-hjkmnp-tv-z]{20}$/.test(id))).toEqual([]);
      for (const id of ids) for (let i = 0; i < 20; i++) seen[i]!.add(id[4 + i]!);
      expect(new Set(ids).size).toBe(ids.length);
      for (const position of seen) expect(position.size).toBe(32);
    });
  });

  describe('errors', () => {
    it('answers an unknown route 404 in the Error shape', async () => {
      const response = await ctx.request('/api/nope?x=1');
      expect(response.status).toBe(404);
      const body = await errorBody(response);
      expect(body.code).toBe('not_found');
      expect(body.error).toContain('/api/nope');
    });
    it('answers a validation failure 400 (not 422) naming the parameter', async () => {
      const response = await ctx.request('/api/bars?symbol=AAPL&range=2y');
      expect(response.status).toBe(400);
      const body = await errorBody(response);
      expect(body.code).toBe('invalid_parameter');
      expect(body.error).toContain('range');
      expect(response.headers.get('content-type')).toContain('application/json');
    });
    it('never shows a stack trace', async () => {
      const response = await ctx.request('/api/bars?symbol=%00%FF');
      const text = await response.text();
      expect(response.status).toBe(400);
      expect(text).not.toContain('at ');
      expect(text).not.toContain('.ts:');
    });
  });

  describe('versioning', () => {
    it('echoes the default version', async () => {
      const response = await ctx.request('/api/health');
      expect(response.headers.get('api-version')).toBe('1.0.0');
    });
    it('echoes a requested version', async () => {
      const response = await ctx.request('/api/health', { headers: { 'API-Version': '1.1.0' } });
      expect(response.headers.get('api-version')).toBe('1.1.0');
    });
    it('refuses an unknown version with 400', async () => {
      const response = await ctx.request('/api/health', { headers: { 'API-Version': '9.9.9' } });
      expect(response.status).toBe(400);
      expect((await errorBody(response)).error).toContain('9.9.9');
    });
    it('makes range optional on /api/bars under 1.0.0 and required under 1.1.0', async () => {
      const v100 = await ctx.request('/api/bars?symbol=AAPL', { headers: { 'API-Version': '1.0.0' } });
      expect(v100.status).toBe(200);
      expect(((await v100.json()) as { range: string }).range).toBe('6mo');
      const v110 = await ctx.request('/api/bars?symbol=AAPL', { headers: { 'API-Version': '1.1.0' } });
      expect(v110.status).toBe(400);
      expect((await errorBody(v110)).error).toContain('range');
      const v110ok = await ctx.request('/api/bars?symbol=AAPL&range=1mo', { headers: { 'API-Version': '1.1.0' } });
      expect(v110ok.status).toBe(200);
    });
  });

  describe('OpenAPI', () => {
    it('serves an OpenAPI 3.1 document with the spec tags and our routes', async () => {
      const response = await ctx.request('/openapi/json');
      expect(response.status).toBe(200);
      const doc = (await response.json()) as { openapi: string; tags: { name: string }[]; paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown>; parameters?: { name: string }[] }>> };
      expect(doc.openapi).toStartWith('3.1');
      // The spec's tags in its order, then ours.
      expect(doc.tags.map((t) => t.name)).toEqual(['System', 'Market Data', 'Signals', 'Transparency', 'Fundamentals', 'AltData', 'Options', 'AI', 'Backtest', 'Realtime', 'GraphQL', 'Account', 'Watchlists', 'Alerts', 'Notifications', 'Journal', 'Exports', 'Community']);
      const used = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? [])));
      for (const tag of doc.tags) expect(used.has(tag.name)).toBe(true);
      for (const path of ['/api/health', '/api/bars', '/api/snapshot', '/api/sector-rotation', '/api/sector-rotation/v2', '/api/macro/calendar']) {
        expect(doc.paths[path]?.get).toBeDefined();
      }
      const bars = doc.paths['/api/bars']!.get!;
      expect(bars.tags).toEqual(['Market Data']);
      expect(Object.keys(bars.responses)).toEqual(expect.arrayContaining(['200', '400', '429']));
      expect(bars.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['symbol', 'range']));
    });
    it('serves a docs UI whose every asset comes from the server itself (it works offline)', async () => {
      const response = await ctx.request('/docs');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      const html = await response.text();
      const assets = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(assets.length).toBe(3); // Swagger UI's script and stylesheet, and our init.js
      for (const url of assets.filter((u) => u !== '/docs/init.js')) {
        expect(url).toStartWith('/docs/assets/swagger-ui-'); // same origin, versioned: no CDN
        const asset = await ctx.request(url);
        expect(asset.status).toBe(200);
        expect(asset.headers.get('cache-control')).toContain('immutable');
        expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
      }
      expect(assets).toContain('/docs/init.js');
      const init = await (await ctx.request('/docs/init.js')).text();
      expect(html + init).not.toMatch(/https?:\/\/(?!localhost)/); // no other host named anywhere in the page
      const spec = /"url":"([^"]+)"/.exec(init)![1]!;
      const specPath = new URL(spec, 'http://localhost/docs').pathname;
      expect(specPath).toBe('/openapi/json');
      expect((await ctx.request(specPath)).status).toBe(200);
    });
  });
});

describe('rate limiting', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { RATE_LIMIT_QUOTA: '25', RATE_LIMIT_WINDOW_SECONDS: '60', TRUST_PROXY: '2' } });
  });
  afterAll(() => ctx.close());

  const from = (ip: string) => ({ headers: { 'X-Forwarded-For': `${ip}, 10.0.0.1` } });

  it('sets the three headers on a 200 JSON response', async () => {
    const response = await ctx.request('/api/macro/calendar', from('203.0.113.1'));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('25');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('24');
    const reset = Number(response.headers.get('x-ratelimit-reset'));
    expect(Number.isInteger(reset) && reset >= 1 && reset <= 60).toBe(true);
  });

  it('admits exactly the quota among 60 parallel requests and refuses the rest with 429 + Retry-After', async () => {
    const responses = await Promise.all(Array.from({ length: 60 }, () => ctx.request('/api/macro/calendar', from('203.0.113.2'))));
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(25);
    expect(refused).toHaveLength(35);
    const body = await errorBody(refused[0]!);
    expect(body.code).toBe('rate_limited');
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused[0]!.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('counts each client IP apart', async () => {
    const response = await ctx.request('/api/macro/calendar', from('203.0.113.3'));
    expect(response.status).toBe(200);
  });

  it('never counts /api/health (a probe), which still reports the standing in the three headers', async () => {
    const ip = from('203.0.113.4');
    for (let i = 0; i < 30; i++) expect((await ctx.request('/api/health', ip)).status).toBe(200);
    const counted = await ctx.request('/api/macro/calendar', ip);
    expect(counted.headers.get('x-ratelimit-remaining')).toBe('24');
    const probe = await ctx.request('/api/health', ip);
    expect(probe.headers.get('x-ratelimit-limit')).toBe('25');
    expect(probe.headers.get('x-ratelimit-remaining')).toBe('24');
    for (const path of ['/livez', '/readyz']) expect((await ctx.request(path, ip)).headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('keeps answering /api/health to a client that has used up its quota', async () => {
    const ip = from('203.0.113.5');
    const statuses = await Promise.all(Array.from({ length: 26 }, () => ctx.request('/api/macro/calendar', ip).then((r) => r.status)));
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    const probe = await ctx.request('/api/health', ip);
    expect(probe.status).toBe(200);
    expect(probe.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const plain = await createTestContext({ env: { RATE_LIMIT_QUOTA: '2' } });
    try {
      const statuses = [];
      for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) statuses.push((await plain.request('/api/macro/calendar', from(ip))).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await plain.close();
    }
  });
});
