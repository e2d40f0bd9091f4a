/**
 * Security headers and CORS: nosniff on every answer (errors included), the
 * docs page's CSP and frame-ancestors, CORS from CORS_ORIGINS with preflights
 * answered before routing and the rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { loadConfig } from '../../src/config';
import { createTestContext, type TestContext } from '../helpers/app';

const preflight = (origin: string, method = 'GET') => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, api-version' },
});

describe('security headers', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('says nosniff on JSON, errors before and after routing, probes, metrics and docs assets', async () => {
    const paths = ['/api/health', '/livez', '/metrics', '/openapi/json', '/nowhere', '/api/bars', '/docs/init.js'];
    const answers: Response[] = [];
    for (const path of paths) answers.push(await ctx.request(path)); // one at a time: see the report on /openapi/json under concurrency
    answers.push(await ctx.request('/api/bars?symbol=AAPL', { headers: { 'api-version': '9.9.9' } })); // refused by versioning
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 404, 400, 200, 400]);
    for (const answer of answers) expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the docs page with a CSP that allows only its own scripts, and frame-ancestors none', async () => {
    const response = await ctx.request('/docs');
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    // Every script has a src (nothing inline the CSP would block).
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toContain('src="/docs/');
      expect(body!.trim()).toBe('');
    }
  });

  it('without CORS_ORIGINS sends no CORS headers and refuses preflights in the Error shape', async () => {
    const simple = await ctx.request('/api/health', { headers: { origin: 'https://app.example' } });
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    const refused = await ctx.request('/api/bars', preflight('https://app.example'));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'forbidden', requestId: refused.headers.get('x-request-id') });
    expect(refused.headers.get('api-version')).toBe('1.0.0');
  });
});

describe('CORS_ORIGINS', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      env: { CORS_ORIGINS: 'https://app.example, https://cookies.example', AUTH_ALLOWED_ORIGINS: 'https://cookies.example', RATE_LIMIT_QUOTA: '2', RATE_LIMIT_WINDOW_SECONDS: '3600' },
    });
  });
  afterAll(() => ctx.close());

  it('answers preflights 204 before routing and the rate limit, for any path of ours', async () => {
    for (let i = 0; i < 4; i++) {
      const answer = await ctx.request('/api/bars', preflight('https://app.example'));
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(answer.headers.get('access-control-allow-methods')).toContain('GET');
      expect(answer.headers.get('access-control-allow-headers')).toContain('Authorization');
      expect(answer.headers.get('access-control-allow-headers')).toContain('API-Version');
      expect(answer.headers.get('access-control-max-age')).toBe('600');
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
      expect(answer.headers.get('x-ratelimit-remaining')).toBeNull(); // never counted
    }
    // The quota of 2 is whole after four preflights.
    expect((await ctx.request('/api/bars?symbol=AAPL&range=1mo', { headers: { origin: 'https://app.example' } })).headers.get('x-ratelimit-remaining')).toBe('1');
    const keys = await ctx.request('/api/keys', preflight('https://cookies.example', 'POST'));
    expect(keys.status).toBe(204);
    expect(keys.headers.get('access-control-allow-credentials')).toBe('true');
    expect((await ctx.request('/api/bars', preflight('https://evil.example'))).status).toBe(403);
  });

  it('echoes an allowed origin on answers and errors, with Vary and the readable headers', async () => {
    const ok = await ctx.request('/api/health', { headers: { origin: 'https://app.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(ok.headers.get('vary')).toContain('Origin');
    expect(ok.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(ok.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
    const missing = await ctx.request('/api/nothing', { headers: { origin: 'https://app.example' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await ctx.request('/api/health', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a plain OPTIONS (no preflight) is 204 with Allow', async () => {
    const answer = await ctx.request('/api/bars', { method: 'OPTIONS' });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('allow')).toContain('GET');
  });
});

describe('CORS_ORIGINS parsing', () => {
  it('takes * or origins, and refuses anything else', () => {
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example/, http://localhost:5173' }).corsOrigins).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(loadConfig({}).corsOrigins).toBeUndefined();
    expect(() => loadConfig({ CORS_ORIGINS: 'not an origin' })).toThrow();
  });
});
