/**
 * The fast path for the hot cached GETs (plugins/fast-path) answers exactly
 * as the ordinary path: the same requests are sent through its handlers and
 * through the app, and the status, the headers (but the request id and the
 * date; the rate-limit standing one request apart) and the bodies are
 * compared — 200s, 304, compression, CORS, 400s (bad parameters, bad
 * API-Version), 404, 413, 431, 429 — and its answers are logged and counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { gunzipSync } from 'node:zlib';
import { fastRoutes, routeQuery } from '../../src/app';
import { fastPath, type FastRoute } from '../../src/plugins/fast-path';
import { ASYNC_COMPRESSED_BYTES } from '../../src/plugins/representation';
import { requestIdStep } from '../../src/plugins/request-id';
import { BarsRouteQuery, SnapshotQuery } from '../../src/modules/market/model';
import { BreakoutsRouteQuery } from '../../src/modules/signals/model';
import { createTestContext, smallSyntheticMarket, type TestContext } from '../helpers/app';

const ORIGIN = 'https://app.example';

/** Headers that differ between two answers by nature: the request id, the date, the rate-limit standing. */
const PER_REQUEST = new Set(['x-request-id', 'date', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']);

/** Fields of a health body that move with the clock. */
const CLOCK_FIELDS = new Set(['timestamp', 'ageMs', 'uptime']);

interface Answer {
  status: number;
  headers: Record<string, string>;
  bytes: Uint8Array;
  requestId: string | null;
  remaining: number;
}

async function read(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    if (!PER_REQUEST.has(key)) headers[key] = value;
  });
  return {
    status: response.status,
    headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
    requestId: response.headers.get('x-request-id'),
    remaining: Number(response.headers.get('x-ratelimit-remaining')),
  };
}

/** The body to compare: health without its clock fields, an error body without its request id, anything else as bytes. */
function comparable(answer: Answer, path: string): unknown {
  const text = new TextDecoder().decode(answer.bytes);
  if (answer.headers['content-encoding'] || answer.bytes.length === 0) return answer.bytes;
  const body = JSON.parse(text) as Record<string, unknown>;
  if (answer.status >= 400) {
    expect(body.requestId).toBe(answer.requestId!);
    delete body.requestId;
  } else if (path.startsWith('/api/health')) for (const field of CLOCK_FIELDS) delete body[field];
  return body;
}

describe('the fast path for hot cached GETs', () => {
  let ctx: TestContext;
  let fast: ReturnType<typeof fastRoutes>;
  beforeAll(async () => {
    ctx = await createTestContext({ provider: smallSyntheticMarket(), env: { RATE_LIMIT_QUOTA: '120', RATE_LIMIT_WINDOW_SECONDS: '3600', CORS_ORIGINS: ORIGIN, LOG_LEVEL: 'info' } });
    fast = fastRoutes(ctx.services, () => ctx.app.handle, routeQuery(() => ctx.app));
    expect((await ctx.request('/api/breakouts')).status).toBe(200); // the latest run, persisted and cached
  });
  afterAll(() => ctx.close());

  it('takes each hot route’s query schema from the route’s one declaration (the app’s route table)', () => {
    const queryOf = routeQuery(() => ctx.app);
    expect(queryOf('/api/breakouts')).toBe(BreakoutsRouteQuery); // the route's own query (with include)
    expect(queryOf('/api/bars')).toBe(BarsRouteQuery); // the route's own query (with format), not the bars query inside it
    expect(queryOf('/api/snapshot')).toBe(SnapshotQuery);
    expect(queryOf('/api/health')).toBeUndefined();
  });

  /** One request through the fast path, then the same through the app: both answers. */
  async function both(path: string, headers: Record<string, string> = {}) {
    const route = path.split('?')[0]!;
    const handler = fast[route]?.GET;
    expect(handler).toBeDefined();
    const viaFast = await read(await handler!(new Request(`http://localhost${path}`, { headers }), null));
    const viaApp = await read(await ctx.request(path, { headers }));
    return { viaFast, viaApp };
  }

  const cases: [string, string, Record<string, string>?][] = [
    ['bars', '/api/bars?symbol=AAPL&range=6mo'],
    ['bars, lower-case symbol and a window', '/api/bars?symbol=msft&range=1mo&from=2026-01-05&to=2026-06-30'],
    ['bars under API-Version 1.0.0 without range', '/api/bars?symbol=AAPL', { 'api-version': '1.0.0' }],
    ['bars under 1.1.0 without range (400)', '/api/bars?symbol=AAPL', { 'api-version': '1.1.0' }],
    ['bars, asked again (read at once)', '/api/bars?symbol=AAPL&range=6mo'],
    ['bars, lower-case symbol, asked again', '/api/bars?symbol=msft&range=1mo&from=2026-01-05&to=2026-06-30'],
    ['bars with a bad symbol (400)', '/api/bars?symbol=!!&range=6mo'],
    ['bars without a symbol (400)', '/api/bars?range=6mo'],
    ['bars with a bad range (400)', '/api/bars?symbol=AAPL&range=7y'],
    ['bars of an unknown symbol (404)', '/api/bars?symbol=ZZZZZ&range=1mo'],
    ['bars with a repeated key', '/api/bars?symbol=AAPL&symbol=MSFT&range=1mo'],
    ['bars with an escaped value', '/api/bars?symbol=%41APL&range=1mo'],
    ['bars with an unsupported API-Version (400)', '/api/bars?symbol=AAPL&range=1mo', { 'api-version': '9.9.9' }],
    ['bars with a blank API-Version (400)', '/api/bars?symbol=AAPL&range=1mo', { 'api-version': ' ' }],
    ['bars, gzip', '/api/bars?symbol=AAPL&range=6mo', { 'accept-encoding': 'gzip' }],
    ['bars, brotli', '/api/bars?symbol=AAPL&range=6mo', { 'accept-encoding': 'gzip, br' }],
    ['bars, from an allowed origin (CORS)', '/api/bars?symbol=AAPL&range=1mo', { origin: ORIGIN }],
    ['bars, from another origin', '/api/bars?symbol=AAPL&range=1mo', { origin: 'https://evil.example' }],
    ['bars with the caller’s request id', '/api/bars?symbol=AAPL&range=1mo', { 'x-request-id': 'client-42' }],
    ['bars, a GET that announces a body (413)', '/api/bars?symbol=AAPL&range=1mo', { 'transfer-encoding': 'chunked' }],
    ['bars, a GET with a declared length (413)', '/api/bars?symbol=AAPL&range=1mo', { 'content-length': '12' }],
    ['bars, a head past 16 KiB (431)', '/api/bars?symbol=AAPL&range=1mo', { 'x-padding': 'p'.repeat(17 * 1024) }],
    ['health, a head past 16 KiB (431)', '/api/health', { 'x-padding': 'p'.repeat(17 * 1024) }],
    ['snapshot', '/api/snapshot?symbol=AAPL'],
    ['snapshot, asked again (the held answer)', '/api/snapshot?symbol=AAPL'],
    ['snapshot, held, gzip asked', '/api/snapshot?symbol=AAPL', { 'accept-encoding': 'gzip' }],
    ['snapshot of another symbol', '/api/snapshot?symbol=MSFT'],
    ['snapshot, lower-case symbol', '/api/snapshot?symbol=aapl'],
    ['snapshot of an unknown symbol (404)', '/api/snapshot?symbol=ZZZZZ'],
    ['snapshot with an unknown parameter', '/api/snapshot?symbol=AAPL&x=1'],
    ['cached breakouts', '/api/breakouts'],
    ['cached breakouts, rollup, brotli', '/api/breakouts?view=rollup', { 'accept-encoding': 'br' }],
    ['breakouts of a timeframe', '/api/breakouts?timeframe=daily&symbols=AAPL,MSFT'],
    ['breakouts with a bad timeframe (400)', '/api/breakouts?timeframe=1m'],
    ['breakouts, paged (the ordinary path)', '/api/breakouts?limit=2'],
    ['health', '/api/health'],
    ['health, gzip', '/api/health', { 'accept-encoding': 'gzip' }],
  ];
  for (const [what, path, headers] of cases) {
    it(`${what}: ${path} answers the same both ways`, async () => {
      const { viaFast, viaApp } = await both(path, headers);
      expect(viaFast.status).toBe(viaApp.status);
      // A health body moves with the clock, and its ETag with it.
      if (path.startsWith('/api/health')) delete viaFast.headers.etag, delete viaApp.headers.etag;
      expect(viaFast.headers).toEqual(viaApp.headers);
      expect(comparable(viaFast, path)).toEqual(comparable(viaApp, path));
      // One bucket, counted once per request either way; health is never counted, nor a request refused for its API-Version or size.
      const uncounted = path.startsWith('/api/health') || headers?.['api-version']?.trim().match(/^(|9\.9\.9)$/) || [413, 431].includes(viaApp.status);
      expect(viaFast.remaining - viaApp.remaining).toBe(uncounted ? 0 : 1);
      if (headers?.['x-request-id']) expect([viaFast.requestId, viaApp.requestId]).toEqual([headers['x-request-id'], headers['x-request-id']]);
      else expect(viaFast.requestId).toMatch(/^req_[0-9a-z]{20}$/);
    });
  }

  it('answers a large body\'s first compressed request (compressed off the loop) the same both ways', async () => {
    // Gzip: no other test here asks the cached breakouts in it, so the fast path's is the first, on the thread pool.
    const { viaFast, viaApp } = await both('/api/breakouts', { 'accept-encoding': 'gzip' });
    expect(viaApp.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(viaApp.bytes).length).toBeGreaterThanOrEqual(ASYNC_COMPRESSED_BYTES);
    expect(viaFast.status).toBe(200);
    expect(viaFast.headers).toEqual(viaApp.headers);
    expect(viaFast.bytes).toEqual(viaApp.bytes);
  });

  it('answers 304 to its own ETag both ways', async () => {
    for (const path of ['/api/bars?symbol=AAPL&range=6mo', '/api/snapshot?symbol=AAPL', '/api/breakouts', '/api/health']) {
      const first = await fast[path.split('?')[0]!]!.GET(new Request(`http://localhost${path}`), null);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-z]+"$/);
      if (path === '/api/health') continue; // its body moves with the clock: a later one has another ETag
      const { viaFast, viaApp } = await both(path, { 'if-none-match': etag });
      expect([viaFast.status, viaApp.status]).toEqual([304, 304]);
      expect(viaFast.headers).toEqual(viaApp.headers);
      expect([viaFast.bytes.length, viaApp.bytes.length]).toEqual([0, 0]);
    }
  });

  it('gives each of a run of answers its own headers, whatever the shape of the one before (the kept Headers object)', async () => {
    const path = '/api/bars?symbol=AAPL&range=1mo';
    const shapes: Record<string, string>[] = [{}, {}, { origin: ORIGIN }, {}, { 'api-version': '1.1.0' }, { 'accept-encoding': 'gzip' }, {}];
    const answers: Response[] = [];
    for (const [i, headers] of shapes.entries()) answers.push(await fast['/api/bars']!.GET(new Request(`http://localhost${path}`, { headers: { ...headers, 'x-request-id': `run-${i}` } }), null));
    expect(answers.length).toBe(shapes.length);
    const remaining = answers.map((answer) => Number(answer.headers.get('x-ratelimit-remaining')));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-request-id')).toBe(`run-${i}`);
      if (i > 0) expect(remaining[i]).toBe(remaining[i - 1]! - 1);
      expect(answer.headers.get('access-control-allow-origin')).toBe(shapes[i]!.origin ?? null);
      expect(answer.headers.get('vary')).toBe(shapes[i]!.origin ? 'Origin, Accept-Encoding' : 'Accept-Encoding');
      expect(answer.headers.get('api-version')).toBe(shapes[i]!['api-version'] ?? ctx.services.config.apiDefaultVersion);
      expect(answer.headers.get('content-encoding')).toBe(shapes[i]!['accept-encoding'] ?? null);
    }
    // The same bytes as the first answer's each time it is not compressed.
    const plain = await answers[0]!.text();
    for (const i of [1, 3, 6]) expect(await answers[i]!.text()).toBe(plain);
  });

  it('logs and counts its answers under the route', async () => {
    const before = await ctx.services.metrics.text();
    const count = (text: string) => Number(/breakline_http_requests_total\{method="GET",route="\/api\/snapshot",status="200"\} (\d+)/.exec(text)?.[1] ?? 0);
    await fast['/api/snapshot']!.GET(new Request('http://localhost/api/snapshot?symbol=MSFT'), null);
    expect(count(await ctx.services.metrics.text())).toBe(count(before) + 1);
  });

  it('refuses with the same 429 once the quota is spent, and counts nothing it leaves to the app', async () => {
    const path = '/api/bars?symbol=AAPL&range=1mo';
    let last = await read(await ctx.request(path));
    for (let i = 0; i < 200 && last.status === 200; i++) last = await read(await fast['/api/bars']!.GET(new Request(`http://localhost${path}`), null));
    expect(last.status).toBe(429);
    const { viaFast, viaApp } = await both(path);
    expect([viaFast.status, viaApp.status]).toEqual([429, 429]);
    expect(viaFast.headers).toEqual(viaApp.headers);
    expect(viaFast.headers['content-type']).toContain('application/json');
    expect(comparable(viaFast, path)).toEqual(comparable(viaApp, path));
    expect(comparable(viaFast, path)).toMatchObject({ code: 'rate_limited' });
  });
  it('prepares what a route needs of a query once per query string, and hands it to each answer', async () => {
    const { services } = ctx;
    const prepared: string[] = [];
    const seen: unknown[] = [];
    const handlers = fastPath(
      [
        {
          path: '/api/snapshot',
          keys: ['symbol'],
          prepare: (query: { symbol: string }) => (prepared.push(query.symbol), { id: `quote:${query.symbol}` }),
          answer: (query: { symbol: string }, _version: unknown, ref: unknown) => (seen.push(ref), { text: JSON.stringify(query), held: false }),
        } as FastRoute<never>,
      ],
      { log: services.log, metrics: services.metrics, defaultVersion: services.config.apiDefaultVersion, steps: [requestIdStep], compressed: services.compressedBodies, queryOf: () => SnapshotQuery },
      () => ctx.app.handle,
    );
    for (const symbol of ['AAPL', 'AAPL', 'MSFT', 'AAPL']) {
      const response = await handlers['/api/snapshot']!.GET(new Request(`http://localhost/api/snapshot?symbol=${symbol}`), null);
      expect([response.status, await response.json()]).toEqual([200, { symbol }]);
    }
    expect(prepared).toEqual(['AAPL', 'MSFT']);
    expect(seen).toEqual([{ id: 'quote:AAPL' }, { id: 'quote:AAPL' }, { id: 'quote:MSFT' }, { id: 'quote:AAPL' }]);
    expect(seen[0]).toBe(seen[3]); // the same object: made once
    // A query of the same length as the last one's, no query at all, then the last one again: each read as itself.
    for (const search of ['?symbol=AAPM', '', '?symbol=AAPL']) {
      const response = await handlers['/api/snapshot']!.GET(new Request(`http://localhost/api/snapshot${search}`), null);
      // Without a symbol it is the app's (a 400, or by now in this suite the spent quota's 429), never this route's answer.
      if (search === '') expect(response.status).toBeGreaterThanOrEqual(400);
      else expect([response.status, await response.json()]).toEqual([200, { symbol: search.slice('?symbol='.length) }]);
    }
    expect(prepared).toEqual(['AAPL', 'MSFT', 'AAPM']);
  });

  it('answers an unexpected failure after the request is its own with a 500 in the Error shape, never a bare page', async () => {
    const { services } = ctx;
    const failing = fastPath(
      [{ path: '/api/health', answer: async () => ({ text: '{"status":"ok"}', held: false }) }],
      {
        log: services.log,
        metrics: services.metrics,
        defaultVersion: services.config.apiDefaultVersion,
        steps: [
          requestIdStep,
          () => {
            throw new Error('the rate-limit store broke');
          },
        ],
        compressed: services.compressedBodies,
        queryOf: () => undefined,
      },
      () => ctx.app.handle,
    );
    const response = await failing['/api/health']!.GET(new Request('http://localhost/api/health'), null);
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({ error: 'Internal server error', requestId: response.headers.get('x-request-id'), code: 'internal' });
  });
});
