/**
 * The warm-up listener (cli/warming-listener) on the wire: what a balancer's
 * health check meets before the app exists. HAProxy's default `option httpchk`
 * sends `OPTIONS / HTTP/1.0` without Host, and a check configured with a URI
 * sends `GET /readyz HTTP/1.0` (issue 26: the listener threw
 * `TypeError: Invalid URL input: "/readyz"` on it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { listenWhileWarming } from '../../src/cli/warming-listener';
import { WarmUp } from '../../src/jobs/health';
import { rawRequest } from '../helpers/server';

describe('the warm-up listener', () => {
  let listener: ReturnType<typeof listenWhileWarming>;
  const warmUp = new WarmUp();
  beforeAll(() => {
    listener = listenWhileWarming({ port: 0, hostname: '127.0.0.1', warmUp, startedAt: Date.now() });
  });
  afterAll(() => listener.stop(true));

  const json = (body: string) => JSON.parse(body) as Record<string, unknown>;

  for (const [name, head] of [
    ['HTTP/1.0 without Host', 'HTTP/1.0\r\n'],
    ['HTTP/1.0 with Host', 'HTTP/1.0\r\nHost: a\r\n'],
    ['HTTP/1.1 with an empty Host', 'HTTP/1.1\r\nHost: \r\nConnection: close\r\n'],
  ]) {
    it(`answers /readyz 503 starting, /livez 200 and anything else 503 over ${name}`, async () => {
      const ready = await rawRequest(listener.port!, [`GET /readyz ${head}\r\n`]);
      expect(ready.status).toBe(503);
      expect(json(ready.body)).toMatchObject({ status: 'starting', step: warmUp.step });
      const live = await rawRequest(listener.port!, [`GET /livez?probe=1 ${head}\r\n`]);
      expect(live.status).toBe(200);
      expect(json(live.body)).toMatchObject({ status: 'ok' });
      const other = await rawRequest(listener.port!, [`GET /api/bars?symbol=AAPL ${head}\r\n`]);
      expect(other.status).toBe(503);
      expect(other.headers['retry-after']).toBe('1');
      expect(json(other.body)).toMatchObject({ code: 'unavailable', requestId: other.headers['x-request-id'] });
    });
  }

  it("answers HAProxy's default check (OPTIONS / HTTP/1.0) without throwing", async () => {
    const reply = await rawRequest(listener.port!, ['OPTIONS / HTTP/1.0\r\n\r\n']);
    expect(reply.status).toBe(503);
    expect(json(reply.body)).toMatchObject({ code: 'unavailable' });
  });
});
