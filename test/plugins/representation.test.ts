/**
 * JSON answers on the wire: ETag and 304 on GET, gzip/brotli by
 * Accept-Encoding (decompressing to the very same bytes), nothing for small
 * bodies, errors or streams; compressed bodies reused per ETag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CompressedBodies, matches, negotiate } from '../../src/plugins/representation';
import { createTestContext, smallSyntheticMarket, type TestContext } from '../helpers/app';

describe('ETag, 304 and compression', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ provider: smallSyntheticMarket() }); // a universe scan in a tenth of a second
  });
  afterAll(() => ctx.close());

  const cases = [
    ['pre-serialised (JsonResponse)', '/api/bars?symbol=AAPL&range=6mo'],
    ['cached breakouts', '/api/breakouts'],
    ['a plain object', '/api/transparency/ledger'],
  ] as const;
  for (const [what, path] of cases) {
    it(`${what}: ${path} has an ETag, answers 304 to it, and compresses to the same bytes`, async () => {
      const plain = await ctx.request(path);
      expect(plain.status).toBe(200);
      const etag = plain.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-z]+"$/);
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('vary')).toContain('Accept-Encoding');
      const text = await plain.text();
      expect(text.length).toBeGreaterThan(1024);

      const notModified = await ctx.request(path, { headers: { 'if-none-match': `"other", ${etag}` } });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('etag')).toBe(etag);
      expect(await notModified.text()).toBe('');
      expect(notModified.headers.get('x-request-id')).not.toBeNull();
      expect((await ctx.request(path, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);

      const br = await ctx.request(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(br.headers.get('etag')).toBe(etag);
      const brBytes = new Uint8Array(await br.arrayBuffer());
      expect(brBytes.byteLength).toBeLessThan(text.length / 2);
      expect(brotliDecompressSync(brBytes).toString('utf8')).toBe(text);

      const gz = await ctx.request(path, { headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString('utf8')).toBe(text);
    });
  }

  it('leaves small bodies, errors, the CSV stream and writes as they are', async () => {
    const gzip = { headers: { 'accept-encoding': 'gzip, br' } };
    const small = await ctx.request('/api/snapshot?symbol=AAPL', gzip);
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(small.headers.get('etag')).not.toBeNull();
    const error = await ctx.request('/api/bars?symbol=', gzip);
    expect(error.status).toBe(400);
    expect(error.headers.get('content-encoding')).toBeNull();
    expect(error.headers.get('etag')).toBeNull();
    const csv = await ctx.request('/api/transparency/ledger.csv', gzip);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-encoding')).toBeNull();
  });

  it('compresses a cached answer once per ETag and encoding', async () => {
    const bodies = new CompressedBodies(1 << 20);
    const text = JSON.stringify({ rows: Array.from({ length: 500 }, (_, i) => ({ i, v: i * 1.5 })) });
    const first = await bodies.get('"a"', 'br', text);
    expect(bodies.get('"a"', 'br', text)).toBe(first); // the same bytes object: not compressed again
    expect(bodies.get('"a"', 'gzip', text)).not.toBe(first);
    // Past the budget the least recently used goes.
    const tiny = new CompressedBodies(first.size + 10);
    const a = await tiny.get('"a"', 'br', text);
    await tiny.get('"b"', 'br', text);
    expect(tiny.get('"a"', 'br', text)).not.toBe(a);
  });
});

describe('held bodies as bytes', () => {
  it('gives a held body\'s UTF-8 bytes once made, whichever was asked last', async () => {
    const bodies = new CompressedBodies(1 << 20);
    const quote = '{"symbol":"AAPL","name":"Société Générale"}';
    const other = '{"symbol":"MSFT"}';
    const first = bodies.identity('"q"', quote);
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(new TextEncoder().encode(quote));
    expect(bodies.identity('"q"', quote)).toBe(first);
    const second = bodies.identity('"m"', other);
    expect(await second.text()).toBe(other);
    expect(bodies.identity('"q"', quote)).toBe(first); // asked again after another: the held bytes, not made again
  });
});

describe('negotiation', () => {
  it('prefers brotli, falls back to gzip, honours q=0 and *', () => {
    expect(negotiate(null)).toBeNull();
    expect(negotiate('identity')).toBeNull();
    expect(negotiate('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiate('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(negotiate('br;q=0, gzip;q=0')).toBeNull();
    expect(negotiate('*')).toBe('gzip');
    expect(negotiate('GZIP')).toBe('gzip');
  });
  it('matches If-None-Match lists, weak tags and *', () => {
    expect(matches('"x", "y"', '"y"')).toBe(true);
    expect(matches('W/"y"', '"y"')).toBe(true);
    expect(matches('*', '"y"')).toBe(true);
    expect(matches('"x"', '"y"')).toBe(false);
    expect(matches(null, '"y"')).toBe(false);
  });
});
