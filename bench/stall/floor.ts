/**
 * @module bench/stall/floor
 * The physical floor bench/stall judges the server against (issue 27). On a
 * busy 2-core machine a `/livez` probe can be late only because the server's
 * thread waits for a core, whatever its event loop does. So, in the same run
 * and at the same time as each phase, a bare process — `Bun.serve` answering
 * `/livez` and nothing else in it — is probed exactly like the server
 * (test/helpers/livez-probe, every 50 ms, its main thread's CPU read by pid):
 * its worst `/livez` is what the machine allowed at that moment.
 *
 * For the quotes, the same bare process ticks on the server's interval
 * (TICK_MS) and streams a quote of AAPL and MSFT the way the server's feed
 * does (stream/quotes `tick`: a quote asked at one tick is handed on at the
 * next, stamped with the instant it was asked), as `event: quote` frames on
 * `/api/stream`, so bench/stall/quotes reads its ages on arrival the same way:
 * one on time is about a tick old, and what it is older than that is the
 * bare process's own lateness on this machine.
 *
 * Run as a script it is that process (`PORT`; on the bench's clock like the
 * servers, so quote ages read alike); `startFloor()` spawns it.
 */
import { join } from 'node:path';
import { freePort } from '../lib';
import { clock } from './clock';
import { ROOT } from './options';
import { TICK_MS } from './quotes';

export interface Floor {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

const SYMBOLS = ['AAPL', 'MSFT'];

/** The bare process: `/livez`, and a quote stream ticking every TICK_MS. */
function serveFloor(port: number): void {
  const encoder = new TextEncoder();
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  // Asked at one tick (its instant), sent at the next: the server feed's order.
  let asked: string | undefined;
  setInterval(() => {
    if (asked) {
      const frames = SYMBOLS.map((symbol) => `event: quote\ndata: ${JSON.stringify({ symbol, ts: asked })}\n\n`).join('');
      for (const stream of streams) stream.enqueue(encoder.encode(frames));
    }
    asked = new Date().toISOString();
  }, TICK_MS);
  Bun.serve({
    port,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    fetch(request) {
      const { pathname } = new URL(request.url);
      if (pathname === '/livez') return new Response('ok');
      if (pathname !== '/api/stream') return new Response('not found', { status: 404 });
      let held: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => void streams.add((held = controller)),
        cancel: () => void streams.delete(held),
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' } });
    },
  });
}

/** Starts the bare process on the bench's clock; resolves once it answers `/livez`. */
export async function startFloor(): Promise<Floor> {
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, 'run', join(ROOT, 'bench/stall/floor.ts')], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...clock.env },
    stdout: 'ignore',
    stderr: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; !(await fetch(`${base}/livez`).then((r) => r.ok, () => false)); tries++) {
    if (proc.exitCode !== null || tries > 200) {
      proc.kill('SIGKILL');
      throw new Error(`bench/stall: the floor process did not start (exit ${proc.exitCode})`);
    }
    await Bun.sleep(50);
  }
  return {
    base,
    pid: proc.pid,
    async stop() {
      proc.kill('SIGKILL');
      await proc.exited;
    },
  };
}

if (import.meta.main) serveFloor(Number(process.env.PORT));
