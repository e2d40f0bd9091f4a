/**
 * Abuse on the wire (issue 12): a real server on a loopback port, fed bytes
 * no HTTP client library would send. Every case must end in a 4xx or a closed
 * connection, the server must go on answering everyone else, and its memory
 * must stay bounded while it is hammered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { listenTestServer, type RawReply, type TestServer } from '../helpers/server';

const TEN_MB = 10 * 1024 * 1024;

/**
 * The server answered 4xx, or closed the connection. (Bun's parser answers a
 * request line without an HTTP version 505 and closes before the app sees
 * it; 505 "HTTP Version Not Supported" is the RFC 9110 status for that, and
 * the connection is closed, so it counts as refused.)
 */
function refused(reply: RawReply): boolean {
  if (reply.status === null || reply.status === 505) return reply.closedByServer;
  return reply.status >= 400 && reply.status < 500;
}

describe('raw-socket abuse', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await listenTestServer({ env: { RATE_LIMIT_QUOTA: '100000' } });
  });
  afterAll(() => server.close());

  const stillServing = async () => {
    const response = await server.get('/api/health');
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  };

  const CASES: [string, (string | Uint8Array)[], number[]][] = [
    ['a 100 kB header', [`GET /api/health HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`], [431]],
    ['500 headers', [`GET /api/health HTTP/1.1\r\nHost: a\r\n${Array.from({ length: 500 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`], [431]],
    ['a 10 MB body on GET', [`GET /api/health HTTP/1.1\r\nHost: a\r\nContent-Length: ${TEN_MB}\r\n\r\n`, new Uint8Array(TEN_MB).fill(97)], [413]],
    ['a 10 MB body on POST', [`POST /api/health HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${TEN_MB}\r\n\r\n`, new Uint8Array(TEN_MB).fill(97)], [413]],
    ['a 10 MB chunked body on GET', [`GET /api/health HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n${TEN_MB.toString(16)}\r\n`, new Uint8Array(TEN_MB).fill(97), '\r\n0\r\n\r\n'], [413]],
    ['invalid UTF-8 in the query', [Buffer.concat([Buffer.from('GET /api/bars?symbol='), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')])], [400]],
    ['invalid UTF-8 in the path', [Buffer.concat([Buffer.from('GET /api/'), Buffer.from([0xc3, 0x28]), Buffer.from(' HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')])], [400, 404]],
    ['invalid UTF-8 in API-Version', [Buffer.concat([Buffer.from('GET /api/health HTTP/1.1\r\nHost: a\r\nConnection: close\r\nAPI-Version: '), Buffer.from([0xff, 0xfe]), Buffer.from('\r\n\r\n')])], [400]],
    ['conflicting Content-Length', [`POST /api/health HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 10\r\n\r\nhello`], [400]],
    ['Content-Length with Transfer-Encoding (smuggling)', [`POST /api/health HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/health HTTP/1.1\r\nHost: a\r\n\r\n`], [400]],
    ['a negative Content-Length', [`POST /api/health HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n`], [400]],
    ['a chunk size that is not hex', [`POST /api/health HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n`], [400, 404]],
    ['a chunk longer than its size', [`GET /api/health HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n`], [400, 413]],
    ['an unknown transfer coding', [`POST /api/health HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked, zstd\r\n\r\n0\r\n\r\n`], [400, 404, 501]],
    ['binary garbage', [new Uint8Array([0, 1, 2, 255, 13, 10, 13, 10])], [400]],
    ['a request line without a version', ['GET /api/health\r\n\r\n'], [400, 505]],
    ['an HTTP/2.0 request line', ['GET /api/health HTTP/2.0\r\nHost: a\r\n\r\n'], [400, 505]],
  ];

  for (const [name, chunks, statuses] of CASES) {
    it(`refuses ${name} and keeps serving`, async () => {
      const reply = await server.raw(chunks);
      expect({ name, refused: refused(reply) }).toEqual({ name, refused: true });
      if (reply.status !== null) expect(statuses).toContain(reply.status);
      if (reply.status !== null && reply.body.startsWith('{')) {
        const body = JSON.parse(reply.body) as { error?: string; code?: string };
        expect(typeof body.error).toBe('string');
        expect(body.error).not.toContain('.ts:');
      }
      await stillServing();
    });
  }

  it('answers HTTP/1.0 without Host (through the rate limiter) and closes', async () => {
    const reply = await server.raw(['GET /api/health HTTP/1.0\r\n\r\n']);
    expect(reply.status).toBe(200);
    expect(reply.headers['x-ratelimit-limit']).toBe('100000');
    expect(reply.closedByServer).toBe(true);
  });

  it('answers the probes over HTTP/1.0 without Host as a balancer checks them (HAProxy option httpchk)', async () => {
    const ready = await server.raw(['GET /readyz HTTP/1.0\r\n\r\n']);
    expect([200, 503]).toContain(ready.status ?? 0);
    expect(JSON.parse(ready.body)).toMatchObject({ checks: expect.any(Object) });
    const live = await server.raw(['GET /livez HTTP/1.0\r\n\r\n']);
    expect(live.status).toBe(200);
    expect(JSON.parse(live.body)).toMatchObject({ status: 'ok' });
    const options = await server.raw(['OPTIONS / HTTP/1.0\r\n\r\n']);
    expect(options.status !== null && options.status >= 200 && options.status < 500).toBe(true);
  });

  it('answers a fast-path route with a query over HTTP/1.0 without Host (through the rate limiter)', async () => {
    const reply = await server.raw(['GET /api/bars?symbol=AAPL HTTP/1.0\r\n\r\n']);
    expect(reply.status).toBe(200);
    expect(reply.headers['x-ratelimit-limit']).toBe('100000');
    expect((JSON.parse(reply.body) as { symbol: string }).symbol).toBe('AAPL');
  });

  it('answers an unknown path over HTTP/1.0 without Host 404 in the Error shape (not a 500 page)', async () => {
    for (const path of ['/api/nope', '//api/health', '/%61pi/health']) {
      const reply = await server.raw([`GET ${path} HTTP/1.0\r\n\r\n`]);
      expect({ path, status: reply.status }).toEqual({ path, status: 404 });
      expect((JSON.parse(reply.body) as { code: string }).code).toBe('not_found');
    }
  });

  it('closes slowloris connections while serving others, with memory bounded', async () => {
    await stillServing();
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    // 100 connections that never finish their headers (half of them dripping a byte a second)…
    const slow = Array.from({ length: 100 }, (_, i) => server.partial('GET /api/health HTTP/1.1\r\nHost: a\r\nX-Slow: ', i % 2 === 0));
    // …and 20 ten-megabyte bodies at once…
    const floods = Array.from({ length: 20 }, () => server.raw([`GET /api/health HTTP/1.1\r\nHost: a\r\nContent-Length: ${TEN_MB}\r\n\r\n`, new Uint8Array(TEN_MB).fill(98)], 5000));
    // …while everyone else is still answered.
    for (let i = 0; i < 30; i++) await stillServing();
    const flooded = await Promise.all(floods);
    expect(flooded.filter(refused)).toHaveLength(20);
    const closedAfter = await Promise.all(slow.map((s) => s.closed));
    expect(closedAfter).toHaveLength(100);
    Bun.gc(true);
    const grownMb = (process.memoryUsage().rss - before) / 2 ** 20;
    // 200 MB were sent: holding it would show; a bounded server stays well under half.
    expect(grownMb).toBeLessThan(100);
    await stillServing();
  }, 60_000);
});

/**
 * Refusals the HTTP layer would make on its own (Bun answers them with an
 * empty body and no content type), made by the app instead (issue 28 item 7):
 * the Error shape with the request id, on the hot fast-path routes as on any
 * other. Each case is past the app's limit (16 KiB of URL and headers, a
 * 1 MiB body) and inside Bun's own ceilings (plugins/body-limit).
 */
describe('refusals in the Error shape, not Bun\'s empty ones', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await listenTestServer({ env: { RATE_LIMIT_QUOTA: '100000' } });
  });
  afterAll(() => server.close());

  const MIB = 1 << 20;
  const head = (path: string, extra = '') => `${path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n${extra}\r\n`;
  const CASES: [string, (string | Uint8Array)[], number, string][] = [
    ['a 60 kB URL on a fast-path route', [`GET ${head(`/api/bars?symbol=AAPL&x=${'a'.repeat(60_000)}`)}`], 431, 'headers_too_large'],
    ['a 20 kB URL on the ordinary path', [`GET ${head(`/api/transparency/ledger?x=${'a'.repeat(20_000)}`)}`], 431, 'headers_too_large'],
    ['a 200 kB URL to no route', [`GET ${head(`/api/nope/${'a'.repeat(200_000)}`)}`], 431, 'headers_too_large'],
    ['a 100 kB header', [`GET ${head('/api/health', `X-Big: ${'a'.repeat(100_000)}\r\n`)}`], 431, 'headers_too_large'],
    ['a 100 kB cookie on /api/graphql', [`GET ${head('/api/graphql?query=%7B__typename%7D', `Cookie: __session=${'a'.repeat(100_000)}\r\n`)}`], 431, 'headers_too_large'],
    ['a declared 2 MiB body on a JSON route', [`POST ${head('/api/explain', `Content-Type: application/json\r\nContent-Length: ${2 * MIB}\r\n`)}`, new Uint8Array(2 * MIB).fill(32)], 413, 'payload_too_large'],
    ['a declared 64 MiB body to no route', [`POST ${head('/api/nope', `Content-Length: ${64 * MIB}\r\n`)}`], 413, 'payload_too_large'],
    ['a declared 2 MiB body on /api/graphql', [`POST ${head('/api/graphql', `Content-Type: application/json\r\nContent-Length: ${2 * MIB}\r\n`)}`, new Uint8Array(2 * MIB).fill(32)], 413, 'payload_too_large'],
    [
      'a chunked 2 MiB body on /api/graphql',
      [`POST ${head('/api/graphql', 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n')}${(2 * MIB).toString(16)}\r\n`, new Uint8Array(2 * MIB).fill(32), '\r\n0\r\n\r\n'],
      413,
      'payload_too_large',
    ],
    [
      'a chunked 2 MiB body on /api/keys',
      [`POST ${head('/api/keys', 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n')}${(2 * MIB).toString(16)}\r\n`, new Uint8Array(2 * MIB).fill(32), '\r\n0\r\n\r\n'],
      413,
      'payload_too_large',
    ],
    [
      'a chunked 2 MiB body on /api/graphql/stream',
      [`POST ${head('/api/graphql/stream', 'Content-Type: application/json\r\nAccept: text/event-stream\r\nTransfer-Encoding: chunked\r\n')}${(2 * MIB).toString(16)}\r\n`, new Uint8Array(2 * MIB).fill(32), '\r\n0\r\n\r\n'],
      413,
      'payload_too_large',
    ],
  ];

  for (const [name, chunks, status, code] of CASES) {
    it(`answers ${name} ${status} in the Error shape with its request id`, async () => {
      const reply = await server.raw(chunks);
      expect({ name, status: reply.status }).toEqual({ name, status });
      expect(reply.headers['content-type']).toStartWith('application/json');
      const body = JSON.parse(reply.body) as { error: string; requestId: string; code: string };
      expect(body).toEqual({ error: expect.any(String), requestId: reply.headers['x-request-id']!, code });
      expect(body.requestId).toMatch(/^req_/);
    });
  }

  it('still serves a head just inside the limit', async () => {
    const reply = await server.raw([`GET ${head('/api/health', `X-Pad: ${'a'.repeat(15_000)}\r\n`)}`]);
    expect(reply.status).toBe(200);
  });
});

describe('the rate limit without a Host header', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await listenTestServer({ env: { RATE_LIMIT_QUOTA: '5' } });
  });
  afterAll(() => server.close());

  // A cheap counted route (health is a probe some deployments leave uncounted).
  const ROUTE = '/api/transparency/checkpoints';

  it('counts HTTP/1.0 requests without Host like any other (5 of 8 admitted)', async () => {
    const statuses: (number | null)[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await server.raw([`GET ${ROUTE} HTTP/1.0\r\n\r\n`])).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const over11 = await server.get(ROUTE);
    expect(over11.status).toBe(429);
    expect(Number(over11.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('counts an empty Host header too', async () => {
    const reply = await server.raw([`GET ${ROUTE} HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n`]);
    expect(reply.status).toBe(429);
  });
});
