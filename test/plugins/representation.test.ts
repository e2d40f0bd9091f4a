/**
 * JSON answers on the wire: ETag and 304 on GET, gzip/brotli by
 * Accept-Encoding (decompressing to the very same bytes), nothing for small
 * bodies, errors or streams; compressed bodies reused per ETag.
 */
import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test';
import { Elysia } from 'elysia';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync } from 'node:zlib';
import { ASYNC_COMPRESSED_BYTES, CompressedBodies, JsonResponse, matches, negotiate, representation } from '../../src/plugins/representation';
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

describe('large bodies, compressed off the event loop', () => {
  // A ledger-page-like body past the threshold: 490 KB, where gzip in zlib's default output chunks makes other bytes.
  const text = JSON.stringify({ records: Array.from({ length: 5000 }, (_, i) => ({ seq: i, hash: Bun.hash(String(i)).toString(16).repeat(4), score: (i * 37) % 1000 })) });
  const bytes = async (body: Blob | Response) => new Uint8Array(await body.arrayBuffer());
  // The bytes the synchronous path made before (quality 5, size hint; gzip 6 in one call).
  const before = {
    br: new Uint8Array(brotliCompressSync(text, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: text.length } })),
    gzip: Bun.gzipSync(text, { level: 6 }),
  };

  it('compresses once for every caller asking meanwhile, to the bytes the synchronous path made, then holds them', async () => {
    expect(text.length).toBeGreaterThan(ASYNC_COMPRESSED_BYTES);
    const bodies = new CompressedBodies(1 << 22);
    for (const encoding of ['br', 'gzip'] as const) {
      const first = bodies.get('"big"', encoding, text);
      expect(first).toBeInstanceOf(Promise);
      expect(bodies.get('"big"', encoding, text)).toBe(first); // the one compression in flight
      const body = await first;
      expect(await bytes(body)).toEqual(before[encoding]);
      expect(bodies.get('"big"', encoding, text)).toBe(body); // held: given at once
    }
  });

  it('answers two concurrent requests with the same compressed bytes and headers from one compression', async () => {
    const bodies = new CompressedBodies(1 << 22);
    const offLoop = spyOn(bodies as unknown as { compressOffLoop: () => Promise<Blob> }, 'compressOffLoop');
    const app = new Elysia().use(representation(bodies)).get('/big', () => new JsonResponse(text));
    const ask = (headers: Record<string, string>) => app.handle(new Request('http://local/big', { headers }));
    const br = { 'accept-encoding': 'gzip, deflate, br' };
    const [a, b] = await Promise.all([ask(br), ask(br)]);
    expect(offLoop).toHaveBeenCalledTimes(1);
    for (const answer of [a, b]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-encoding')).toBe('br');
      expect(answer.headers.get('vary')).toBe('Accept-Encoding');
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await bytes(answer)).toEqual(before.br);
    }
    const etag = a.headers.get('etag')!;
    expect(b.headers.get('etag')).toBe(etag);
    expect((await ask({ ...br, 'if-none-match': etag })).status).toBe(304);
    const again = await ask(br); // held now: no second compression
    expect(await bytes(again)).toEqual(before.br);
    const gz = await ask({ 'accept-encoding': 'gzip' });
    expect(await bytes(gz)).toEqual(before.gzip);
    expect(offLoop).toHaveBeenCalledTimes(2); // one per encoding
    expect(brotliDecompressSync(before.br).toString('utf8')).toBe(text);
  });

  it('answers the body as it is should zlib fail on the thread pool', async () => {
    const bodies = new CompressedBodies(1 << 22);
    spyOn(bodies as unknown as { compressOffLoop: () => Promise<Blob> }, 'compressOffLoop').mockImplementation(() => Promise.reject(new Error('zlib: out of memory')));
    const app = new Elysia().use(representation(bodies)).get('/big', () => new JsonResponse(text));
    const answer = await app.handle(new Request('http://local/big', { headers: { 'accept-encoding': 'br' } }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-encoding')).toBeNull();
    expect(answer.headers.get('etag')).not.toBeNull();
    expect(await answer.text()).toBe(text);
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
