/**
 * bench/sse: the SSE hub under many clients. The server (the real app and
 * hub, in-process bus) runs in this process; the clients are held by
 * separate processes (bench/sse-clients.ts, raw loopback sockets), so this
 * process's RSS is the server's. For 1k, 5k and 10k clients:
 *
 * - RSS per idle client: (RSS with the clients connected and idle − RSS after
 *   the warm-up, before any measured round) ÷ clients, after a full GC, in KB.
 *   The baseline is taken once: the allocator keeps what an earlier round
 *   freed, so a per-round baseline would credit a later round with it;
 * - a steady publish of `breakouts.state_change` at each rate for `seconds`
 *   to every client: delivered events/s (deliveries ÷ the time from the first
 *   publish to the last receipt) and the delay from publish to receipt, p50
 *   and p99, over every delivery. The publish time travels in the payload
 *   (`price`, epoch ms as `performance.timeOrigin + performance.now()`, which
 *   agrees across the processes of one machine to well under 1 ms) and each
 *   client subtracts it from its own clock on receipt.
 *
 * What p99 is made of: a publish is first recorded in the event log (the
 * embedded PGlite here; stream/bus: events published in one tick go in one
 * transaction), then delivered. `fan-out ms` is the server's time per event
 * from the bus delivering it until the frame has been handed to every socket
 * (a `setImmediate` after the bus's first listener — the bench's, ahead of
 * the hub's — runs once the hub's loop and the stream writes it queued have
 * run), median and max over the events (over the bursts, with `--burst=n`: n
 * events published together, as a scan publishes its results); the rest of a
 * delivery's delay is the log's write, the kernel and the client process
 * getting scheduled to read it. `server CPU µs/delivery` (user + system) is this process's CPU time over
 * the publish phase ÷ deliveries: it barely depends on how busy the machine
 * is, and times the clients gives the CPU one event's fan-out needs. Each
 * subscriber's events of one tick are one socket write, most of it the
 * kernel's: strace counts one `sendto` per delivery and no other syscall
 * per delivery, and on loopback that `sendto` also runs the client's side —
 * its TCP receive and its wake-up (perf, 5k clients: 77 % of the server's
 * CPU under `sendto`, 39 % of it the receiver's `net_rx_action`). A
 * client on another machine would cost the server about half of it.
 * bench/sse-loops measures the same writes without the hub (the ceiling of
 * one event loop, and of two). `clients CPU %` is
 * the client processes' CPU over the same window (100 = one core; `max proc
 * %` the busiest process): a client process near 100 % would be the
 * bottleneck. `load` is the 1-minute load average as the row starts (the
 * machine has 2 cores and is shared).
 *
 * Goals (issue 16): 10k clients on one instance, ≤ 20 KB RSS per idle client,
 * p99 ≤ 100 ms. Run: `bun run bench/sse.ts [--smoke] [--sizes=1000,5000,10000]
 * [--rates=5,20] [--seconds=10] [--burst=1]` (smoke: 200 clients, 2 s).
 */
import { loadavg } from 'node:os';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { createServices } from '../src/services';
import { StreamFleet } from '../src/cli/capacity/stream-fleet';
import { CLIENT_COMMAND, printTable, smoke } from './lib';

/** The numbers of `--name=1,2,3`, or undefined when it is not given. */
export const option = (name: string): number[] | undefined =>
  process.argv
    .find((arg) => arg.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
    .split(',')
    .map(Number);
/** Publish rates (events/s). Breakouts and alerts come in bursts after each scan; 5/s is already busy, 20/s a storm. */
const RATES = option('rates') ?? (smoke ? [5] : [5, 20]);
const SECONDS = option('seconds')?.[0] ?? (smoke ? 2 : 10);
const SIZES = option('sizes') ?? (smoke ? [200] : [1000, 5000, 10000]);
/** Events published together (one tick), as a scan publishes its results: `rate` events/s in `burst`s. */
const BURST = option('burst')?.[0] ?? 1;
/** Client processes per run (each holds an equal share of the connections). */
const PROCESSES = 4;

export const quantile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const round2 = (x: number) => Math.round(x * 100) / 100;

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
  // Fan-out: from the moment the bus hands a tick's first event to its listeners (this one first: subscribed
  // before the hub's) until a `setImmediate` after it, once the hub's loop and the stream writes it queued ran.
  let fanouts: number[] = [];
  let measuring = false;
  services.bus.subscribe('breakouts.state_change', () => {
    if (measuring) return;
    measuring = true;
    const at = performance.now();
    setImmediate(() => {
      measuring = false;
      fanouts.push(performance.now() - at);
    });
  });
  await services.hub.start();
  const app = createApp(services).listen({ port: 0, hostname: '127.0.0.1' });
  const port = app.server!.port!;
  const rows = [];
  let baseRss: number | undefined;
  await round(100); // warm-up: the code paths run once before anything is measured
  baseRss = rssAfterGc();
  for (const clients of SIZES) rows.push(...(await round(clients)));
  printTable(`bench/sse — a steady publish for ${SECONDS} s to every client, clients in ${PROCESSES} processes (goals: 10k clients, ≤ 20 KB RSS per idle client, p99 ≤ 100 ms)`, rows);
  await app.stop(true);
  await services.close();

  async function round(clients: number) {
    const fleet = new StreamFleet(CLIENT_COMMAND);
    await fleet.add({ host: '127.0.0.1', port, paths: ['/api/stream?channels=breakouts.state_change'], count: clients, events: { 'breakouts.state_change': 'price' } }, PROCESSES);
    if (services.hub.stats().connections !== clients) throw new Error(`expected ${clients} streams, the hub holds ${services.hub.stats().connections}`);
    await Bun.sleep(2000); // idle
    const perClientKb = (rssAfterGc() - (baseRss ?? rssAfterGc())) / clients / 1024;

    const rows = [];
    for (const rate of RATES) rows.push({ clients, load: round2(loadavg()[0]!), 'RSS/idle client KB': Math.round(perClientKb * 10) / 10, ...(await publishAt(rate, clients, fleet)) });
    await fleet.close();
    const closeBy = performance.now() + 30_000;
    while (services.hub.stats().connections > 0 && performance.now() < closeBy) await Bun.sleep(50);
    return rows;
  }

  /** Publishes `rate` events/s for SECONDS and collects every client's receipts. */
  async function publishAt(rate: number, clients: number, fleet: StreamFleet) {
    const total = rate * SECONDS;
    await fleet.report(); // counts from here
    const droppedBefore = services.hub.stats().dropped;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    fanouts = [];
    for (let n = 0; n < total; n += BURST) {
      const due = started + (n * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      // A publish is recorded in the event log (PGlite here) before it is delivered: the delay below counts it.
      for (let k = n; k < Math.min(total, n + BURST); k++) {
        services.bus.publish('breakouts.state_change', { signalId: `BENCH-${k}`, symbol: 'SPY', from: 'forming', to: 'triggered', price: performance.timeOrigin + performance.now(), at: new Date().toISOString() });
      }
    }
    const cpu = process.cpuUsage(cpuBefore);
    const publishedIn = performance.now() - started;
    let received = 0;
    const samples: number[][] = [];
    const clientCpu = fleet.processes.map(() => 0);
    let lastReceipt = performance.now();
    const deadline = performance.now() + 60_000;
    while (received < total * clients && performance.now() < deadline) {
      await Bun.sleep(200);
      const { received: n, latencies, cpuUs } = await fleet.report();
      if (n > 0) lastReceipt = performance.now();
      received += n;
      samples.push(latencies);
      cpuUs.forEach((us, k) => (clientCpu[k]! += us));
    }
    const window = (lastReceipt - started) * 1000; // µs
    const latency = Float64Array.from(samples.flat()).sort();
    const spans = Float64Array.from(fanouts).sort();
    return {
      'events/s': rate,
      burst: BURST,
      deliveries: received,
      missing: total * clients - received,
      'delivered/s': Math.round(received / ((lastReceipt - started) / 1000)),
      // The publish phase only: the collection after it runs this process's report loop, not the hub.
      'server CPU µs/delivery': round2((cpu.user + cpu.system) / Math.max(1, received)),
      'of which user': round2(cpu.user / Math.max(1, received)),
      'server CPU %': Math.round(((cpu.user + cpu.system) / (publishedIn * 1000)) * 100),
      'fan-out ms p50': spans.length ? round2(quantile(spans, 0.5)) : 'n/a',
      'fan-out ms max': spans.length ? round2(spans[spans.length - 1]!) : 'n/a',
      'clients CPU %': Math.round((clientCpu.reduce((a, b) => a + b, 0) / window) * 100),
      'max proc %': Math.round((Math.max(...clientCpu) / window) * 100),
      'p50 ms': latency.length ? round2(quantile(latency, 0.5) / 1000) : 'n/a',
      'p99 ms': latency.length ? round2(quantile(latency, 0.99) / 1000) : 'n/a',
      dropped: services.hub.stats().dropped - droppedBefore,
    };
  }
}

if (import.meta.main) await benchSse();
