/**
 * bench/sse: the SSE hub under many clients. The server (the real app and
 * hub, in-process bus) runs in this process; the clients are held by
 * separate processes (bench/sse-clients.ts, raw loopback sockets), so this
 * process's RSS is the server's. For 1k, 5k and 10k clients:
 *
 * - RSS per idle client: (RSS with the clients connected and idle − RSS before
 *   they connected) ÷ clients, after a full GC, in KB;
 * - a steady publish of `breakouts.state_change` at each of RATES events/s for
 *   SECONDS seconds to every client: delivered events/s (deliveries ÷ the time
 *   from the first publish to the last receipt) and the delay from publish to
 *   receipt, p50 and p99, over every delivery.
 *
 * `server CPU µs/delivery` is this process's CPU time over the publish phase
 * divided by the deliveries: it does not depend on how busy the machine is,
 * and says how many deliveries a second one core can make. Each delivery is
 * one socket write, most of it the kernel's; past that rate the queues — and
 * the latency — grow. The client processes share the machine's cores.
 *
 * Goals (issue 16): 10k clients on one instance, ≤ 20 KB RSS per idle client,
 * p99 ≤ 100 ms. Run: `bun run bench/sse.ts [--smoke]` (smoke: 200 clients, 2 s).
 */
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { createServices } from '../src/services';
import { printTable, smoke } from './lib';

/** Publish rates (events/s). Breakouts and alerts come in bursts after each scan; 5/s is already busy, 20/s a storm. */
const RATES = smoke ? [5] : [5, 20];
const SECONDS = smoke ? 2 : 10;
const SIZES = smoke ? [200] : [1000, 5000, 10000];
/** Client processes per run (each holds an equal share of the connections). */
const PROCESSES = 4;

interface ClientProcess {
  proc: Bun.Subprocess<'pipe', 'pipe', 'inherit'>;
  lines: AsyncIterator<string>;
}

async function* linesOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop()!;
    yield* lines.filter((l) => l.trim() !== '');
  }
}

async function nextJson<T>(client: ClientProcess, timeoutMs: number): Promise<T> {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a client process did not answer')), timeoutMs));
  const { value, done } = await Promise.race([client.lines.next(), timeout]);
  if (done) throw new Error('a client process ended early');
  return JSON.parse(value) as T;
}

const quantile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

function rssAfterGc(): number {
  Bun.gc(true);
  Bun.gc(true);
  return process.memoryUsage().rss;
}

export async function benchSse(): Promise<void> {
  const maxClients = Math.max(...SIZES);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SCAN_INTERVAL_SECONDS: '0',
    RATE_LIMIT_QUOTA: '1000000000',
    SSE_MAX_CONNECTIONS: String(maxClients + 100),
    SSE_MAX_CONNECTIONS_PER_CLIENT: String(maxClients + 100),
    POOL_SIZE: '1',
  });
  const services = await createServices(config, { pgliteDir: ':memory:', log: createLogger('silent') });
  await services.hub.start();
  const app = createApp(services).listen({ port: 0, hostname: '127.0.0.1' });
  const port = app.server!.port!;
  const rows = [];
  await round(100); // warm-up: the code paths run once before anything is measured
  for (const clients of SIZES) rows.push(...(await round(clients)));
  printTable(`bench/sse — a steady publish for ${SECONDS} s to every client, clients in ${PROCESSES} processes (goals: 10k clients, ≤ 20 KB RSS per idle client, p99 ≤ 100 ms)`, rows);
  await app.stop(true);
  await services.close();

  async function round(clients: number) {
    const before = rssAfterGc();
    const share = Math.ceil(clients / PROCESSES);
    const procs: ClientProcess[] = [];
    for (let k = 0, left = clients; left > 0; k++, left -= share) {
      const proc = Bun.spawn([process.execPath, new URL('./sse-clients.ts', import.meta.url).pathname, '127.0.0.1', String(port), '/api/stream?channels=breakouts.state_change', String(Math.min(share, left))], {
        stdin: 'pipe',
        stdout: 'pipe',
        stderr: 'inherit',
      });
      procs.push({ proc, lines: linesOf(proc.stdout)[Symbol.asyncIterator]() });
    }
    for (const client of procs) await nextJson<{ ready: number }>(client, 120_000);
    if (services.hub.stats().connections !== clients) throw new Error(`expected ${clients} streams, the hub holds ${services.hub.stats().connections}`);
    await Bun.sleep(2000); // idle
    const perClientKb = (rssAfterGc() - before) / clients / 1024;

    const rows = [];
    for (const rate of RATES) rows.push({ clients, 'RSS/idle client KB': Math.round(perClientKb * 10) / 10, ...(await publishAt(rate, clients, procs)) });
    for (const client of procs) {
      client.proc.stdin.write('exit\n');
      client.proc.stdin.flush();
      await client.proc.exited;
    }
    const closeBy = performance.now() + 30_000;
    while (services.hub.stats().connections > 0 && performance.now() < closeBy) await Bun.sleep(50);
    return rows;
  }

  /** Publishes `rate` events/s for SECONDS and collects every client's receipts. */
  async function publishAt(rate: number, clients: number, procs: ClientProcess[]) {
    const total = rate * SECONDS;
    const droppedBefore = services.hub.stats().dropped;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      services.bus.publish('breakouts.state_change', { signalId: `BENCH-${n}`, symbol: 'SPY', from: 'forming', to: 'triggered', price: performance.timeOrigin + performance.now(), at: new Date().toISOString() });
    }
    let received = 0;
    const samples: number[][] = [];
    let lastReceipt = performance.now();
    const deadline = performance.now() + 60_000;
    while (received < total * clients && performance.now() < deadline) {
      await Bun.sleep(200);
      for (const client of procs) {
        client.proc.stdin.write('report\n');
        client.proc.stdin.flush();
        const report = await nextJson<{ received: number; latencies: number[] }>(client, 30_000);
        if (report.received > 0) lastReceipt = performance.now();
        received += report.received;
        samples.push(report.latencies);
      }
    }
    const cpu = process.cpuUsage(cpuBefore);
    const latency = Float64Array.from(samples.flat()).sort();
    return {
      'events/s': rate,
      deliveries: received,
      missing: total * clients - received,
      'delivered/s': Math.round(received / ((lastReceipt - started) / 1000)),
      'server CPU µs/delivery': Math.round(((cpu.user + cpu.system) / Math.max(1, received)) * 100) / 100,
      'p50 ms': latency.length ? Math.round(quantile(latency, 0.5) / 10) / 100 : 'n/a',
      'p99 ms': latency.length ? Math.round(quantile(latency, 0.99) / 10) / 100 : 'n/a',
      dropped: services.hub.stats().dropped - droppedBefore,
    };
  }
}

if (import.meta.main) await benchSse();
