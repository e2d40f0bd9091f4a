/**
 * Graceful shutdown on a real server process (issue 26 item 7, issue 27):
 * SIGTERM turns /readyz 503 at once while the listener goes on serving for
 * SHUTDOWN_DRAIN_SECONDS, a request in flight when the listener closes still
 * gets its 200, an event stream ends with a reconnection hint, and the
 * process exits 0 — which it can only do before the deadline (SHUTDOWN_DRAIN_SECONDS
 * + 3 s), since the deadline exits 1. The same holds when the signal comes
 * mid warm-up and mid boot replay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { usingPostgres } from '../helpers/db';

/** The drain of the servers stopped mid-work (short: nothing to drain). */
const DRAIN_SECONDS = 1;
/**
 * The drain of the server that serves while stopping: long enough for this test process to send its
 * requests within it on a machine this busy (a loaded CI machine delays both processes by seconds).
 */
const SERVING_DRAIN_SECONDS = 5;
const msg = (prefix: string) => (entry: Record<string, unknown>) => typeof entry.msg === 'string' && entry.msg.startsWith(prefix);

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'breakline-shutdown-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The env of a server on its own state directory; the embedded defaults otherwise. */
const envFor = (stateDir: string, extra: Record<string, string> = {}) => ({ STATE_DIR: join(scratch, stateDir), SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS), ...extra });

/** Everything a stream sends until the server ends it. */
async function readToEnd(response: Response): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) text += decoder.decode(chunk, { stream: true });
  return text;
}

/**
 * POST /api/graphql on a raw socket, its body held back: `finish()` sends the
 * rest, and `reply` is the status line and body the server answered.
 */
function heldRequest(url: string): { finish(): void; reply: Promise<string> } {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ query: '{ __typename }' });
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (data) => (received += data.toString('latin1')));
  const reply = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  socket.on('error', () => {});
  socket.write(`POST /api/graphql HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`);
  return { finish: () => socket.write(body.slice(5)), reply };
}

// Its servers are spawned on the embedded defaults whatever DATABASE_URL says: once is enough.
describe.skipIf(usingPostgres)('SIGTERM', () => {
  let server: ServerProcess;

  it('mid boot replay: the replay stops at its next chunk and the process exits 0', async () => {
    server = await startServer(envFor('replay', { REPLAY_ON_BOOT: 'on' }), 240_000, msg('replay started'));
    server.signal('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.logs.some(msg('shut down'))).toBe(true);
    expect(server.logs.some(msg('shutting down: deadline reached'))).toBe(false);
    // It was ready (the replay runs after readiness): the replay is told to stop at once, the drain goes on beside it.
    const told = server.logs.findIndex(msg('shutting down: the boot scans and boot replay'));
    expect(told).toBeGreaterThan(server.logs.findIndex(msg('replay started')));
    expect(told).toBeLessThan(server.logs.findIndex(msg('shutting down: draining')));
  }, 300_000);

  it('when ready: /readyz 503 at once, still serving while draining, a request in flight finishes 200, a stream is told to reconnect, exit 0', async () => {
    // A restart on the replay's state directory: the boot replay is off, so nothing runs in the background.
    server = await startServer(envFor('replay', { REPLAY_ON_BOOT: 'off', SHUTDOWN_DRAIN_SECONDS: String(SERVING_DRAIN_SECONDS) }), 240_000);
    const stream = await fetch(`${server.url}/api/stream`);
    const streamed = readToEnd(stream);
    const held = heldRequest(server.url);
    await Bun.sleep(50); // the held request's head has reached the server

    server.signal('SIGTERM');
    await server.logged(msg('shutting down: /readyz answers 503'));
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'stopping' });
    // The drain: the listener still answers everyone else.
    const live = await fetch(`${server.url}/livez`);
    expect(live.status).toBe(200);
    await live.arrayBuffer();

    // The listener closes with the request still in flight; it is answered all the same.
    await server.logged(msg('shutting down: closing the listener'));
    held.finish();
    const reply = await held.reply;
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(reply).toContain('"__typename":"Query"');

    const text = await streamed;
    expect(text).toContain('event: hello');
    expect(text).toMatch(/: server stopping; reconnect with Last-Event-ID\nretry: \d+\n\n$/);

    expect(await server.exited).toBe(0);
    expect(server.logs.some(msg('shutting down: deadline reached'))).toBe(false);
    expect(server.logs.find(msg('shutting down: draining'))).toBeDefined();
    await expect(fetch(`${server.url}/livez`)).rejects.toThrow();
  }, 300_000);

  it('mid warm-up (the first daily scan): no drain, exit 0', async () => {
    server = await startServer(envFor('warm-up', { REPLAY_ON_BOOT: 'off' }), 240_000, msg('warm-up: loading the latest daily scan'));
    server.signal('SIGTERM');
    await server.logged(msg('shutting down: /readyz answers 503'));
    const ready = await fetch(`${server.url}/readyz`).catch(() => null);
    if (ready) expect({ status: ready.status, body: await ready.json() }).toMatchObject({ status: 503, body: { status: 'stopping' } });
    expect(await server.exited).toBe(0);
    expect(server.logs.some(msg('breakline ready'))).toBe(false);
    expect(server.logs.some(msg('shutting down: draining'))).toBe(false);
    expect(server.logs.some(msg('shutting down: deadline reached'))).toBe(false);
  }, 300_000);
});
