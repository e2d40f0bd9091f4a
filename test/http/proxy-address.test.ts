/**
 * A client behind a proxy cannot pick its own rate-limit bucket (issue 26
 * item 5): a real server on a loopback port, the test client standing for a
 * proxy that appends its peer to X-Forwarded-For, as HAProxy's
 * `option forwardfor` and nginx's `$proxy_add_x_forwarded_for` do. The issue
 * measured 200 of 200 admitted under a quota of 50 with random spoofed
 * entries when the left-most entry was taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { listenTestServer, type TestServer } from '../helpers/server';

const QUOTA = 50;
const REQUESTS = 200;

/** A random address a client might claim: a different one every request. */
const spoofed = (i: number) => `${(i * 37) % 223 + 1}.${(i * 101) % 256}.${(i * 7) % 256}.${i % 256}`;

for (const setting of ['1', '127.0.0.0/8', 'true']) {
  describe(`TRUST_PROXY=${setting}: random spoofed entries left of the proxy's`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await listenTestServer({ env: { RATE_LIMIT_QUOTA: String(QUOTA), TRUST_PROXY: setting } });
    });
    afterAll(() => server.close());

    // [route, path, the address the proxy appends: the client as the proxy saw it (one per route, each its own window)]
    const ROUTES: [string, string, string][] = [
      ['the fast path', '/api/bars?symbol=AAPL', '198.51.100.7'],
      ['an ordinary route', '/api/transparency/checkpoints', '198.51.100.8'],
    ];
    for (const [route, path, client] of ROUTES) {
      it(`admits exactly the quota of one client on ${route} (${QUOTA} of ${REQUESTS})`, async () => {
        const statuses: number[] = [];
        // Sequential: the window's count is what is asserted, not the server's concurrency.
        for (let i = 0; i < REQUESTS; i++) {
          const response = await server.get(path, { headers: { 'x-forwarded-for': `${spoofed(i)}, ${spoofed(i + 1)}, ${client}` } });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
        expect(statuses.filter((s) => s === 200)).toHaveLength(QUOTA);
        expect(statuses.filter((s) => s === 429)).toHaveLength(REQUESTS - QUOTA);
        // The bucket is the appended address: another client behind the same proxy is still admitted.
        const other = await server.get(path, { headers: { 'x-forwarded-for': `${client}, 203.0.113.${path.length}` } });
        expect(other.status).toBe(200);
        await other.arrayBuffer();
      });
    }
  });
}

describe('X-Forwarded-For on the wire', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await listenTestServer({ env: { RATE_LIMIT_QUOTA: '3', TRUST_PROXY: '1' } });
  });
  afterAll(() => server.close());

  it('reads two header lines as one list in order (HAProxy adds its own line), over HTTP/1.0 without Host too', async () => {
    const statuses: (number | null)[] = [];
    for (let i = 0; i < 5; i++) {
      const version = i % 2 === 0 ? 'HTTP/1.0' : 'HTTP/1.1\r\nHost: a\r\nConnection: close';
      const reply = await server.raw([`GET /api/transparency/checkpoints ${version}\r\nX-Forwarded-For: ${spoofed(i)}\r\nX-Forwarded-For: 203.0.113.50\r\n\r\n`]);
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // The same client through the fast path: its window is spent there too.
    const reply = await server.raw([`GET /api/bars?symbol=AAPL HTTP/1.0\r\nX-Forwarded-For: 6.6.6.6, 203.0.113.50\r\n\r\n`]);
    expect(reply.status).toBe(429);
  });
});
