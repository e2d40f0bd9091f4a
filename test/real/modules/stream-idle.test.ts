/**
 * GET /api/stream outlives a minute without a byte: on a server whose idle
 * timeout (1 s here) closes an idle keep-alive connection, a stream with no
 * pings stays open for 61 s and then delivers an event on the same
 * connection. It waits a real minute, so it runs once, in the long run
 * (`npm run test:real`), not in each pass of `npm test`.
 */
import { afterAll, beforeAll, expect, it } from 'bun:test';
import { createTestContext, type TestContext } from '../../helpers/app';
import { RecordingSource, serve } from '../../helpers/sse';
import { until } from '../../helpers/until';

let ctx: TestContext;
let server: ReturnType<typeof serve>;
beforeAll(async () => {
  // No pings: nothing at all crosses the wire while the stream is idle.
  ctx = await createTestContext({ env: { SSE_PING_MS: '0', SSE_RETRY_MS: '20' } });
  server = serve(ctx, { idleTimeout: 1 });
});
afterAll(async () => {
  await server.stop();
  await ctx.close();
});

/** An idle keep-alive connection after one request: the server's idle timeout closes it. */
async function idleKeepAlive(): Promise<void> {
  let closed!: () => void;
  const done = new Promise<void>((resolve) => (closed = resolve));
  const socket = await Bun.connect({ hostname: '127.0.0.1', port: server.port, socket: { data() {}, close: () => closed(), error() {} } });
  socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
  return done;
}

it('survives 61 s without a single byte, on a server whose 1 s idle timeout closes an idle keep-alive connection', async () => {
  const client = new RecordingSource(`${server.base}/api/stream?channels=alerts.dispatched`);
  await until('hello', () => client.of('hello').length === 1);
  await idleKeepAlive(); // the idle timeout is in force on this server...
  await Bun.sleep(61_000); // ...and a silent stream outlives it many times over
  ctx.services.bus.publish('alerts.dispatched', { alertId: 'alr_61', signalId: 'X', symbol: 'AAPL', at: '2026-11-20T18:01:01.000Z' });
  await until('the event', () => client.of('alerts.dispatched').length === 1);
  expect(client.of('hello')).toHaveLength(1); // the same connection: never reconnected
  expect(client.errors).toBe(0);
  client.close();
}, 90_000);
