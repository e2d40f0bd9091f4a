/**
 * bench/live: a vendor's trade to an SSE client's `quote`. The server is the
 * real app with the `alpaca` provider and its live feed (this process); the
 * vendor is a loopback server speaking Alpaca's stock stream
 * (test/helpers/vendors/alpaca-server); the clients are separate processes
 * (bench/sse-clients.ts, raw loopback sockets, counting `quote` events).
 *
 * The vendor streams trades of `SYMBOLS` symbols (the first of the bundled
 * universe) for `seconds`, at market-open rates replayed faster than real
 * time: the run is cut into ten slices whose message rates follow the
 * recorded trade counts of SPY's first ten minutes of 2025-04-24 (5,034 trades
 * in the 09:30 minute, then 3,024, 2,531, …; test/fixtures/intraday), scaled
 * so the run averages `rate` messages a second, sent in a frame every 10 ms
 * (Alpaca batches data points in one frame). Each trade's price is its send
 * time (epoch ms, sub-ms; `performance.timeOrigin + performance.now()` agrees
 * across the processes of one machine to well under 1 ms): the client
 * subtracts it from its clock on receipt. Each client subscribes
 * `SYMBOLS_PER_CLIENT` symbols, the clients spread over every symbol.
 *
 * Each row runs twice: through the service (`path: service`: the vendor's
 * socket, the live feed, the hub, the SSE streams), then through a floor
 * (`path: floor`, `floorServer` below) that takes the same vendor frames over
 * its own loopback WebSocket and writes the same `quote` frames to the same
 * kind of SSE stream, batched per stream as the service batches, with none
 * of our code in between — the same clients, loopback, event loop and load:
 * the difference is what the service adds, whatever the machine's load does
 * to both.
 *
 * Columns: `msgs/s` sent by the vendor; `deliveries` quotes received by all
 * clients; `coalesced %` the share of trades a subscriber did not get because
 * a later trade of the same symbol went out in the same turn of the event loop
 * (the hub sends the latest); `p50/p99 ms` vendor frame sent → client
 * received; `server CPU µs/msg` this process's CPU (user + system) over the
 * run less the vendor's own sending, ÷ vendor messages; `RSS MB` before → after the
 * run; `dropped` slow clients dropped by the hub; `load` the 1-minute load
 * average as the row starts (2 cores, shared).
 *
 * Goal (issue 30): p99 ≤ 5 ms at 1,000 clients, nothing lost, memory flat
 * over a 10-minute run. Run: `bun run bench/live.ts [--smoke] [--sizes=1,100,1000]
 * [--rates=2000] [--seconds=20]`.
 */
import type { ServerWebSocket } from 'bun';
import { loadavg } from 'node:os';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { loadInstruments } from '../src/providers/universe';
import { createServices } from '../src/services';
import { loopbackAlpaca, startAlpacaServer } from '../test/helpers/vendors/alpaca-server';
import { alpacaMinutes } from '../test/helpers/vendors/recordings';
import { CLIENT_COMMAND, printTable, smoke } from './lib';
import { StreamFleet } from '../src/cli/capacity/stream-fleet';
import { option, quantile } from './sse';

const SIZES = option('sizes') ?? (smoke ? [1, 100] : [1, 100, 1000]);
const RATES = option('rates') ?? [2000];
const SECONDS = option('seconds')?.[0] ?? (smoke ? 3 : 20);
const SYMBOLS = 500;
const SYMBOLS_PER_CLIENT = 10;
const PROCESSES = 4;
const FRAME_MS = 10;

const round2 = (x: number) => Math.round(x * 100) / 100;
const cpuUs = (u: NodeJS.CpuUsage) => u.user + u.system;

/** Message rate weights of the ten slices: SPY's recorded trade counts of 09:30–09:39 EDT, 2025-04-24. */
function openingShape(): number[] {
  const open = Date.parse('2025-04-24T13:30:00Z');
  const counts = alpacaMinutes()
    .filter((m) => m.t >= open && m.t < open + 10 * 60_000)
    .map((m) => m.n);
  const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
  return counts.map((n) => n / mean);
}

export async function benchLive(): Promise<void> {
  const clock = () => Date.parse('2025-04-24T13:40:00Z'); // the session of the recording: the feed counts it as open
  const vendor = startAlpacaServer({ now: clock });
  const symbols = (await loadInstruments()).slice(0, SYMBOLS).map((i) => i.symbol);
  const maxClients = Math.max(...SIZES);
  const config = loadConfig({ LOG_LEVEL: 'silent', SCAN_INTERVAL_SECONDS: '0', RATE_LIMIT_QUOTA: '1000000000', SSE_MAX_CONNECTIONS: String(maxClients + 100), SSE_MAX_CONNECTIONS_PER_CLIENT: String(maxClients + 100), SSE_QUOTE_INTERVAL_MS: '1000', POOL_SIZE: '1' });
  const provider = loopbackAlpaca(vendor, { clock, live: { log: createLogger('silent'), silentMs: 3_600_000 } });
  const services = await createServices(config, { provider, pgliteDir: ':memory:', log: createLogger('silent') });
  await services.hub.start();
  provider.live!.setUniverse(symbols);
  provider.live!.start();
  while (provider.live!.status().state !== 'streaming') await Bun.sleep(10);
  const app = createApp(services).listen({ port: 0, hostname: '127.0.0.1' });
  const port = app.server!.port!;
  const shape = openingShape();
  const rows = [];
  const floor = floorServer();
  await floor.opened;
  for (const clients of SIZES) for (const rate of RATES) rows.push(await round(clients, rate, 'service'), await round(clients, rate, 'floor'));
  printTable(`bench/live — vendor trade → SSE quote, ${SYMBOLS} symbols, ${SYMBOLS_PER_CLIENT} a client, ${SECONDS} s a row at market-open rates (goal: p99 ≤ 5 ms at 1,000 clients)`, rows);
  await app.stop(true);
  floor.stop();
  await services.close();
  vendor.stop();

  async function round(clients: number, rate: number, path: 'service' | 'floor') {
    // Connection i subscribes the i-th group of symbols (round robin over the 500).
    const groups = Array.from({ length: SYMBOLS / SYMBOLS_PER_CLIENT }, (_, g) => `/api/stream?channels=breakouts.new&symbols=${symbols.slice(g * SYMBOLS_PER_CLIENT, (g + 1) * SYMBOLS_PER_CLIENT).join(',')}`);
    // Connection i subscribes group i (round robin; each process goes on where the one before stopped).
    const fleet = new StreamFleet(CLIENT_COMMAND);
    await fleet.add({ host: '127.0.0.1', port: path === 'service' ? port : floor.server.port!, paths: groups, count: clients, events: { quote: 'price' } }, PROCESSES);
    console.error(`bench/live: ${clients} clients connected (${path})`);
    await Bun.sleep(1500); // every symbol watched and subscribed at the vendor
    await fleet.report(); // counts from here
    const load = round2(loadavg()[0]!);
    Bun.gc(true);
    const rssBefore = process.memoryUsage().rss;
    const droppedBefore = services.hub.stats().dropped;
    const sockets = [...vendor.stream.sockets].filter((ws) => ws.data.authenticated);
    let sent = 0;
    let sendCpu = 0;
    let expected = 0;
    const subscribers = (symbol: number) => Math.ceil(Math.max(0, clients - Math.floor(symbol / SYMBOLS_PER_CLIENT)) / groups.length);
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    const frames = Math.round((SECONDS * 1000) / FRAME_MS);
    let carry = 0;
    for (let f = 0; f < frames; f++) {
      const due = started + f * FRAME_MS;
      const wait = due - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      const slice = Math.min(shape.length - 1, Math.floor((f / frames) * shape.length));
      carry += (rate * shape[slice]! * FRAME_MS) / 1000;
      const n = Math.floor(carry);
      carry -= n;
      const mark = process.cpuUsage();
      const trades = [];
      for (let k = 0; k < n; k++) {
        const s = (sent + k) % SYMBOLS;
        trades.push({ T: 't', S: symbols[s], i: sent + k, x: 'V', p: performance.timeOrigin + performance.now(), s: 100, t: '2025-04-24T13:40:00.000Z', c: ['@'], z: 'B' });
        expected += subscribers(s);
      }
      if (n > 0) {
        const payload = JSON.stringify(trades);
        if (path === 'service') for (const ws of sockets) ws.send(payload);
        else floor.send(payload);
      }
      sendCpu += cpuUs(process.cpuUsage(mark));
      sent += n;
    }
    await Bun.sleep(500); // the last frames arrive
    const cpu = cpuUs(process.cpuUsage(cpuStart)) - sendCpu;
    const { received, latencies } = await fleet.report();
    Bun.gc(true);
    const rssAfter = process.memoryUsage().rss;
    const latency = Float64Array.from(latencies).sort();
    await fleet.close();
    const closeBy = performance.now() + 30_000;
    while ((services.hub.stats().connections > 0 || floor.streams.size > 0) && performance.now() < closeBy) await Bun.sleep(50);
    return {
      clients,
      path,
      load,
      'msgs/s': Math.round(sent / SECONDS),
      messages: sent,
      deliveries: received,
      'coalesced %': expected ? round2((1 - received / expected) * 100) : 0,
      'p50 ms': latency.length ? round2(quantile(latency, 0.5) / 1000) : 'n/a',
      'p99 ms': latency.length ? round2(quantile(latency, 0.99) / 1000) : 'n/a',
      'server CPU µs/msg': round2(cpu / Math.max(1, sent)),
      'RSS MB': `${Math.round(rssBefore / 2 ** 20)} → ${Math.round(rssAfter / 2 ** 20)}`,
      dropped: services.hub.stats().dropped - droppedBefore,
    };
  }
}

/**
 * The floor: the least code that does what the service must — a vendor's
 * WebSocket frame in, parsed, each trade encoded once as the service's own
 * `quote` frame (`id`, `event`, `data` with the same fields), the frames of
 * one vendor frame joined per stream and written as one chunk (the service
 * batches a tick's frames per subscriber the same way: stream/subscriber
 * `FrameBatch`), over the same kind of socket (a Bun.serve `ReadableStream`
 * body, high-water mark 0 counted in bytes, the same headers). No hub, no
 * feed, no replay buffer, no caps: what is left is the loopback, the JSON and
 * the socket writes, so the service's p99 over the floor's is what our code
 * adds on this machine at this load.
 */
function floorServer() {
  const encoder = new TextEncoder();
  type Stream = { controller: ReadableStreamDefaultController<Uint8Array>; first: Uint8Array | null; several: Uint8Array[] | null };
  const streams = new Set<Stream>();
  const bySymbol = new Map<string, Set<Stream>>();
  let vendorSide: ServerWebSocket<unknown> | undefined;
  let seq = 0;
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    fetch(request, srv) {
      const url = new URL(request.url);
      if (url.pathname === '/vendor') return srv.upgrade(request) ? undefined : new Response('upgrade failed', { status: 400 });
      const symbols = (url.searchParams.get('symbols') ?? '').split(',');
      const stream: Stream = { controller: undefined!, first: null, several: null };
      const body = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            stream.controller = controller;
            streams.add(stream);
            for (const symbol of symbols) (bySymbol.get(symbol) ?? bySymbol.set(symbol, new Set()).get(symbol)!).add(stream);
            controller.enqueue(encoder.encode(`retry: 1000\nid: 0-1\nevent: hello\ndata: {}\n\n`));
          },
          cancel() {
            streams.delete(stream);
            for (const symbol of symbols) bySymbol.get(symbol)?.delete(stream);
          },
        },
        { highWaterMark: 0, size: (chunk) => chunk?.byteLength ?? 0 },
      );
      return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no', connection: 'keep-alive' } });
    },
    websocket: {
      open(ws) {
        vendorSide = ws;
      },
      message() {},
    },
  });
  // The receiving end of the floor's vendor socket: parse, encode once per trade, one write per stream.
  const client = new WebSocket(`ws://127.0.0.1:${server.port}/vendor`);
  const waiting: Stream[] = [];
  client.onmessage = (message) => {
    const trades = JSON.parse(message.data as string) as { S: string; p: number; s: number; t: string }[];
    seq++;
    let sub = 0;
    for (const trade of trades) {
      const listeners = bySymbol.get(trade.S);
      if (!listeners?.size) continue;
      const quote = { symbol: trade.S, price: trade.p, volume: trade.s, ts: trade.t, source: 'alpaca' };
      const frame = encoder.encode(`id: ${seq}-${++sub}\nevent: quote\ndata: ${JSON.stringify(quote)}\n\n`);
      for (const stream of listeners) {
        if (stream.first === null) {
          stream.first = frame;
          waiting.push(stream);
        } else (stream.several ??= [stream.first]).push(frame);
      }
    }
    for (const stream of waiting) {
      const chunk = stream.several === null ? stream.first! : Buffer.concat(stream.several);
      stream.first = stream.several = null;
      try {
        stream.controller.enqueue(chunk);
      } catch {
        // the client went away
      }
    }
    waiting.length = 0;
  };
  const opened = new Promise<void>((resolve) => (client.onopen = () => resolve()));
  const send = (payload: string) => vendorSide!.send(payload);
  const stop = () => {
    client.close();
    server.stop(true);
  };
  return { server, streams, opened, send, stop };
}

if (import.meta.main) await benchLive();
