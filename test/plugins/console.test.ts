/**
 * The console as the server serves it (plugins/console), through
 * `app.handle`: the page and its Content-Security-Policy (this origin only,
 * nothing inline), client routes answering the same page, content-hashed
 * assets cached for good and compressed, a browser's `/` sent to the console
 * while an API client's `/` stays the 404 it was, and the page a browser
 * gets while the server warms up. The browser tests (test/browser) run it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CONSOLE_CSP, warmingPage } from '../../src/console/page';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** The asset paths the page loads (scripts and stylesheets). */
const assetsOf = (html: string) => [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);

describe('the console page', () => {
  it('answers HTML with a CSP of this origin only, nothing inline, never framed', async () => {
    const response = await ctx.request('/console');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toBe(CONSOLE_CSP);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toMatch(/https?:/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    // Every script is a file of ours; no inline script or style.
    expect(html.match(/<script[^>]*>/g)!.every((tag) => /src="\/console\/assets\/main-[a-z0-9]+\.js"/.test(tag))).toBe(true);
    expect(html).not.toMatch(/<style|\sstyle="|\son[a-z]+="/);
    expect(assetsOf(html).some((path) => path.endsWith('.css'))).toBe(true);
  });

  it('answers every view under /console with the page of the same entry script (the console routes in the browser)', async () => {
    const entry = (html: string) => html.match(/<script[^>]*src="([^"]+)"/)![1];
    const page = await (await ctx.request('/console')).text();
    for (const path of ['/console/signals', '/console/signals/AAPL-flat_base-2026-11-20T00%3A00%3A00.000Z', '/console/signals/%E0', '/console/record?source=replay', '/console/account?tab=keys', '/console/nowhere']) {
      const response = await ctx.request(path);
      expect(response.status).toBe(200);
      expect(entry(await response.text())).toBe(entry(page));
    }
  });

  it("has the browser fetch a view's modules and the signals page's first API request at once, with the entry script", async () => {
    const preloaded = (html: string) => [...html.matchAll(/<link rel="modulepreload" href="\/console\/assets\/([a-z]+)-[a-z0-9]+\.js"/g)].map((m) => m[1]!);
    // The entry's shared chunks load on every view; a view's own module (and the signal page's chart) on that view only.
    const signals = await (await ctx.request('/console/signals?timeframe=4h')).text();
    expect(preloaded(signals).every((name) => name === 'chunk')).toBe(true);
    // The same URL the page asks first (console/app/routes), so the browser uses the preloaded answer.
    expect(signals).toContain('<link rel="preload" as="fetch" crossorigin="anonymous" href="/api/breakouts?timeframe=4h&#38;limit=50" />');
    const record = await (await ctx.request('/console/record')).text();
    expect(preloaded(record).filter((name) => name !== 'chunk')).toEqual(['record']);
    expect(record).not.toContain('as="fetch"');
    const signal = await (await ctx.request('/console/signals/AAPL-flat_base-2026-11-20T00%3A00%3A00.000Z')).text();
    expect(preloaded(signal).filter((name) => name !== 'chunk').sort()).toEqual(['chart', 'signal']);
    expect(preloaded(await (await ctx.request('/console/market')).text()).filter((name) => name !== 'chunk')).toEqual(['market']);
  });

  it('serves its assets content-hashed, cached for good, brotli or gzip as asked, from our own files only', async () => {
    const html = await (await ctx.request('/console')).text();
    for (const path of assetsOf(html)) {
      const plain = await ctx.request(path);
      expect(plain.status).toBe(200);
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(plain.headers.get('vary')).toBe('Accept-Encoding');
      const text = await plain.text();
      // Offline: nothing is loaded from another origin.
      expect(text).not.toMatch(/\b(?:import|from)\s*\(?\s*["']https?:|url\(\s*["']?https?:/);
      const br = await ctx.request(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(text);
      const gzip = await ctx.request(path, { headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(text);
    }
    expect((await ctx.request('/console/assets/icon.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('answers 404 for an asset it never had', async () => {
    expect((await ctx.request('/console/assets/main-00000000.js')).status).toBe(404);
  });
});

describe('GET /', () => {
  it('sends a browser (it asks for HTML) to the console', async () => {
    const response = await ctx.request('/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/console');
  });

  it('still answers an API client 404 in the Error shape', async () => {
    for (const accept of [undefined, 'application/json', '*/*']) {
      const response = await ctx.request('/', accept ? { headers: { accept } } : {});
      expect(response.status).toBe(404);
      expect((await errorBody(response)).code).toBe('not_found');
    }
    const post = await ctx.request('/', { method: 'POST', headers: { accept: 'text/html' } });
    expect(post.status).toBe(404);
  });
});

describe('while the server warms up', () => {
  it('gives a browser a page that says so and reloads itself, with no script', async () => {
    const response = warmingPage('opening the database <pglite>');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    const html = await response.text();
    expect(html).toContain('<meta http-equiv="refresh" content="1">');
    expect(html).toContain('opening the database &#60;pglite&#62;');
    expect(html).not.toContain('<script');
  });
});
