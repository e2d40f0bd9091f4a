/**
 * bench/sse-loops: the ceiling of SSE fan-out on this machine, without the
 * hub. N loopback SSE responses are held by the same client processes as
 * bench/sse (bench/sse-clients.ts); each tick one small frame (the size of a
 * `breakouts.state_change` frame) is written to every response, and the
 * server is timed as bench/sse times it. It answers two questions the hub's
 * figures alone cannot:
 *
 * - does another write path make fewer or cheaper syscalls? `stream` is what
 *   stream/hub does (a `ReadableStream`, high-water mark 0, one `enqueue` a
 *   tick); `stream+pull` the same with a `pull` in the source, which Bun calls
 *   after every chunk the socket takes (what a pull that is not parked costs:
 *   stream/subscriber `park`); `direct` is Bun's `type: "direct"` stream
 *   (`write` + `flush`);
 * - what would a second event loop give? `two loops`: the responses split
 *   over this thread and a Worker, each with its own `Bun.serve` on the same
 *   port (`reusePort`: the kernel spreads the connections), both fanning out
 *   each frame.
 *
 * `server µs/write` is the process's CPU (both threads) over the publish
 * phase ÷ writes, `of which system` the kernel's share: on loopback the
 * sender's `sendto` also runs the receiver's TCP processing and wake-up. The
 * other columns are bench/sse's (fan-out: publish until the frame was handed
 * to every socket, the slower loop's for two loops; p50/p99: publish to
 * receipt in the clients).
 *
 * Run: `bun run bench/sse-loops.ts [--smoke] [--sizes=5000,10000] [--events=30] [--repeat=1]
 * [--paths=stream,direct,two loops]` (smoke: 200 connections, 5 events; `--paths` picks and
 * orders the paths, `stream+pull` included on request).
 */
import { loadavg } from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';
import { StreamFleet } from '../src/cli/capacity/stream-fleet';
import { CLIENT_COMMAND, printTable, smoke } from './lib';

type Path = 'stream' | 'stream+pull' | 'direct';
type Write = (frame: Uint8Array) => void;

const encoder = new TextEncoder();
const HELLO = encoder.encode('retry: 1000\nid: 0\nevent: hello\ndata: {}\n\n');

/** Holds every response this thread serves; `fanOut` writes one frame to each. */
function serveResponses(port: number, path: Path, reusePort: boolean) {
  const writes: Write[] = [];
  const direct: Bun.DirectUnderlyingSource<Uint8Array> = {
    type: 'direct',
    pull(controller) {
      writes.push((frame) => {
        controller.write(frame);
        controller.flush();
      });
      controller.write(HELLO);
      controller.flush();
      return new Promise<void>(() => {}); // open until the bench ends
    },
  };
  const stream = (): ReadableStream<Uint8Array> =>
    path !== 'direct'
      ? new ReadableStream<Uint8Array>(
          {
            start(controller) {
              writes.push((frame) => controller.enqueue(frame));
              controller.enqueue(HELLO);
            },
            // What stream/hub's source has: a pull (Bun calls it after every chunk the socket takes).
            pull: path === 'stream+pull' ? () => {} : undefined,
          },
          { highWaterMark: 0, size: (chunk) => chunk?.byteLength ?? 0 },
        )
      : // Bun's types resolve this constructor to the standard one; the direct overload exists at runtime (bun-types DirectUnderlyingSource).
        new ReadableStream(direct as unknown as UnderlyingDefaultSource<Uint8Array>);
  const server = Bun.serve({ port, hostname: '127.0.0.1', reusePort, idleTimeout: 0, fetch: () => new Response(stream(), { headers: { 'content-type': 'text/event-stream' } }) });
  /** Writes the frame to every response; resolves with the ms until the writes ran. */
  const fanOut = (frame: Uint8Array): Promise<number> => {
    const at = performance.now();
    for (const write of writes) write(frame);
    return new Promise((resolve) => setImmediate(() => resolve(performance.now() - at)));
  };
  return { server, writes, fanOut };
}

// The Worker of `two loops`: serves the port too, fans out what the main thread sends.
if (parentPort) {
  const port = parentPort;
  let loop: ReturnType<typeof serveResponses> | undefined;
  port.on('message', async (message: { listen: number } | { count: true } | { frame: Uint8Array } | { stop: true }) => {
    if ('listen' in message) {
      loop = serveResponses(message.listen, 'stream', true);
      port.postMessage({ listening: true });
    } else if ('count' in message) port.postMessage({ count: loop!.writes.length });
    else if ('frame' in message) port.postMessage({ spanMs: await loop!.fanOut(message.frame) });
    else {
      loop?.server.stop(true);
      port.close();
    }
  });
}

const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const PATHS = (option('paths')?.split(',') ?? ['stream', 'direct', 'two loops']) as (Path | 'two loops')[];
const SIZES = option('sizes')?.split(',').map(Number) ?? (smoke ? [200] : [5000, 10000]);
const EVENTS = Number(option('events') ?? (smoke ? 5 : 30));
const REPEAT = Number(option('repeat') ?? 1);
const GAP_MS = 100;
const PROCESSES = 4;
const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** A Worker's replies, in order. */
function inbox(worker: Worker) {
  const waiting: unknown[] = [];
  let wake: (() => void) | undefined;
  worker.on('message', (message) => {
    waiting.push(message);
    wake?.();
  });
  return async <T>(): Promise<T> => {
    while (waiting.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return waiting.shift() as T;
  };
}

/** Starts the client processes and resolves once all `count` connections have had their hello. */
async function connectClients(port: number, count: number) {
  const fleet = new StreamFleet(CLIENT_COMMAND);
  await fleet.add({ host: '127.0.0.1', port, paths: ['/stream'], count, events: { 'breakouts.state_change': 'price' } }, PROCESSES);
  return { report: () => fleet.report(), exit: () => fleet.close() };
}

async function run(size: number, mode: Path | 'two loops') {
  const main = serveResponses(0, mode === 'two loops' ? 'stream' : mode, mode === 'two loops');
  const port = main.server.port!;
  const worker = mode === 'two loops' ? new Worker(new URL(import.meta.url).pathname) : undefined;
  const next = worker ? inbox(worker) : undefined;
  if (worker) {
    worker.postMessage({ listen: port });
    await next!();
  }
  const clients = await connectClients(port, size);
  worker?.postMessage({ count: true });
  const inWorker = worker ? (await next!<{ count: number }>()).count : 0;
  if (main.writes.length + inWorker !== size) throw new Error(`expected ${size} responses, hold ${main.writes.length + inWorker}`);
  await Bun.sleep(1000);
  await clients.report(); // counts from here
  const load = round2(loadavg()[0]!);
  const cpuBefore = process.cpuUsage();
  const spans: number[] = [];
  for (let k = 0; k < EVENTS; k++) {
    const frame = encoder.encode(`id: ${k}\nevent: breakouts.state_change\ndata: {"signalId":"BENCH-${k}","symbol":"SPY","from":"forming","to":"triggered","price":${performance.timeOrigin + performance.now()},"at":"${new Date().toISOString()}"}\n\n`);
    worker?.postMessage({ frame });
    const own = await main.fanOut(frame);
    spans.push(worker ? Math.max(own, (await next!<{ spanMs: number }>()).spanMs) : own);
    await Bun.sleep(GAP_MS);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const writes = size * EVENTS;
  let received = 0;
  const latencies: number[] = [];
  for (let tries = 0; received < writes && tries < 50; tries++) {
    const got = await clients.report();
    received += got.received;
    latencies.push(...got.latencies);
    if (received < writes) await Bun.sleep(100);
  }
  await clients.exit();
  worker?.postMessage({ stop: true });
  await main.server.stop(true);
  spans.sort((a, b) => a - b);
  latencies.sort((a, b) => a - b);
  return {
    connections: size,
    path: mode,
    load,
    'in worker': inWorker,
    writes,
    missing: writes - received,
    'server µs/write': round2((cpu.user + cpu.system) / writes),
    'of which system': round2(cpu.system / writes),
    'fan-out ms p50': round2(quantile(spans, 0.5)),
    'fan-out ms max': round2(spans.at(-1)!),
    'p50 ms': latencies.length ? round2(quantile(latencies, 0.5) / 1000) : 'n/a',
    'p99 ms': latencies.length ? round2(quantile(latencies, 0.99) / 1000) : 'n/a',
  };
}

export async function benchSseLoops(): Promise<void> {
  const rows = [];
  // Alternating, so a change in the machine's load falls on every path alike.
  for (const size of SIZES) for (let r = 0; r < REPEAT; r++) for (const mode of PATHS) rows.push(await run(size, mode));
  printTable(`bench/sse-loops — one frame a tick to every loopback SSE response, ${EVENTS} ticks ${GAP_MS} ms apart, clients in ${PROCESSES} processes (no hub: the write path's ceiling)`, rows);
}

if (import.meta.main && !parentPort) await benchSseLoops();
