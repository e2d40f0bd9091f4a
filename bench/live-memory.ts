/**
 * bench/live-memory: is the live path's memory bounded? The real app with
 * the `alpaca` provider and its live feed (this process), the loopback
 * Alpaca server as the vendor, SSE clients in a process of their own
 * (bench/sse-clients.ts) watching `CLIENTS` × 10 of the 500 symbols.
 *
 * The vendor replays trading sessions faster than real time: each replayed
 * minute the clock moves one minute and the vendor sends every symbol's
 * minute bar (SPY's recorded minute of 2025-04-24/25, scaled per symbol:
 * test/fixtures/intraday) and `TRADES` trades spread over the watched
 * symbols, so the feed rolls 500 symbols up into 1h/4h/daily bars, closes
 * windows, starts new days, and the hub pushes quotes. After the recording's
 * two days it goes on with the same minutes a week later, and so on: days
 * keep coming, which is where a leak would show (a day's slots, windows,
 * per-symbol maps kept forever).
 *
 * RSS and the JS heap are sampled every `sample` seconds after a full GC;
 * the table shows them with the replayed time. Memory is flat when the
 * second half's samples do not climb above the first half's.
 *
 * Run: `bun run bench/live-memory.ts [--seconds=600] [--speed=10] [--clients=100] [--smoke]`
 * (`speed`: replayed minutes a second).
 */
import { loadavg } from 'node:os';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { loadInstruments } from '../src/providers/universe';
import { createServices } from '../src/services';
import { loopbackAlpaca, startAlpacaServer } from '../test/helpers/vendors/alpaca-server';
import { alpacaMinutes } from '../test/helpers/vendors/recordings';
import { CLIENT_COMMAND, printTable, smoke } from './lib';
import { linesOf, nextJson, type ClientProcess } from '../src/cli/capacity/stream-fleet';
import { option } from './sse';

const SECONDS = option('seconds')?.[0] ?? (smoke ? 20 : 600);
const SPEED = option('speed')?.[0] ?? 10;
const CLIENTS = option('clients')?.[0] ?? 100;
const SAMPLE_S = option('sample')?.[0] ?? (smoke ? 5 : 30);
const TRADES = option('trades')?.[0] ?? 1_000;
const SYMBOLS = 500;
const WEEK = 7 * 86_400_000;
const MB = 2 ** 20;

export async function benchLiveMemory(): Promise<void> {
  // The recorded session minutes (regular hours), replayed week after week.
  const recorded = alpacaMinutes().filter((m) => {
    const minutes = (new Date(m.t).getUTCHours() * 60 + new Date(m.t).getUTCMinutes()) % 1440;
    return minutes >= 13 * 60 + 30 && minutes < 20 * 60;
  });
  let now = recorded[0]!.t;
  const clock = () => now;
  const vendor = startAlpacaServer({ now: clock });
  const symbols = (await loadInstruments()).slice(0, SYMBOLS).map((i) => i.symbol);
  const config = loadConfig({ LOG_LEVEL: 'silent', SCAN_INTERVAL_SECONDS: '0', RATE_LIMIT_QUOTA: '1000000000', SSE_MAX_CONNECTIONS: String(CLIENTS + 100), SSE_MAX_CONNECTIONS_PER_CLIENT: String(CLIENTS + 100), SSE_QUOTE_INTERVAL_MS: '1000', POOL_SIZE: '1' });
  const provider = loopbackAlpaca(vendor, { clock, live: { log: createLogger('silent'), silentMs: 3_600_000, graceMs: 0 } });
  const services = await createServices(config, { provider, pgliteDir: ':memory:', log: createLogger('silent') });
  await services.hub.start();
  const live = provider.live!;
  let bars = 0;
  let closes = 0;
  live.onBar((bar) => {
    bars++;
    services.marketData.applyLive(bar);
  });
  live.onClose(() => closes++);
  live.setUniverse(symbols);
  live.start();
  while (live.status().state !== 'streaming') await Bun.sleep(10);
  const app = createApp(services).listen({ port: 0, hostname: '127.0.0.1' });
  const watched = symbols.slice(0, Math.min(SYMBOLS, CLIENTS * 10));
  const paths = Array.from({ length: Math.ceil(watched.length / 10) }, (_, g) => `/api/stream?channels=breakouts.new&symbols=${watched.slice(g * 10, g * 10 + 10).join(',')}`).join('|');
  const clients = { host: '127.0.0.1', port: app.server!.port, paths: paths.split('|'), count: CLIENTS, events: { quote: null } };
  const proc = Bun.spawn([...CLIENT_COMMAND, JSON.stringify(clients)], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' });
  const client: ClientProcess = { proc, lines: linesOf(proc.stdout)[Symbol.asyncIterator](), count: CLIENTS };
  await nextJson(client, 120_000);
  while (![...vendor.stream.sockets].some((ws) => watched.every((s) => ws.data.trades.has(s)))) await Bun.sleep(50);
  const rows: Record<string, string | number>[] = [];
  const sample = (elapsed: number, minutes: number) => {
    Bun.gc(true);
    const { rss, heapUsed } = process.memoryUsage();
    rows.push({ 's': Math.round(elapsed), 'replayed to (UTC)': new Date(now).toISOString().slice(0, 16), 'minutes': minutes, 'bars out': bars, 'window closes': closes, 'RSS MB': Math.round(rss / MB), 'heap MB': Math.round(heapUsed / MB), 'load': Math.round(loadavg()[0]! * 100) / 100 });
  };
  const started = performance.now();
  let minutes = 0;
  let nextSample = 0;
  const sockets = () => [...vendor.stream.sockets].filter((ws) => ws.data.authenticated);
  sample(0, 0);
  nextSample = SAMPLE_S;
  while ((performance.now() - started) / 1000 < SECONDS) {
    const due = started + (minutes * 1000) / SPEED;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    const base = recorded[minutes % recorded.length]!;
    const t = base.t + Math.floor(minutes / recorded.length) * WEEK;
    now = t + 60_000 + 1;
    const stamp = new Date(t).toISOString().replace('.000Z', 'Z');
    const frame: object[] = [];
    for (let k = 0; k < TRADES; k++) {
      const s = k % watched.length;
      frame.push({ T: 't', S: watched[s], i: minutes * TRADES + k, x: 'V', p: base.c * (1 + s / 1000), s: 100, t: new Date(t + Math.floor((k * 60_000) / TRADES)).toISOString(), c: ['@'], z: 'B' });
    }
    symbols.forEach((symbol, s) => {
      const f = 1 + s / 1000;
      frame.push({ T: 'b', S: symbol, o: base.o * f, h: base.h * f, l: base.l * f, c: base.c * f, v: base.v, t: stamp, n: base.n, vw: base.vw * f });
    });
    const text = JSON.stringify(frame);
    for (const ws of sockets()) ws.send(text);
    minutes++;
    const elapsed = (performance.now() - started) / 1000;
    if (elapsed >= nextSample) {
      sample(elapsed, minutes);
      nextSample += SAMPLE_S;
    }
  }
  await Bun.sleep(1_000);
  sample((performance.now() - started) / 1000, minutes);
  client.proc.stdin.write('report\n');
  client.proc.stdin.flush();
  const { received } = await nextJson<{ received: number }>(client, 30_000);
  client.proc.stdin.write('exit\n');
  client.proc.stdin.flush();
  await client.proc.exited;
  const half = Math.floor(rows.length / 2);
  const max = (from: number, to: number, key: string) => Math.max(...rows.slice(from, to).map((r) => Number(r[key])));
  printTable(`bench/live-memory — ${SECONDS} s, ${SPEED} replayed minutes a second, ${SYMBOLS} symbols' minute bars + ${TRADES} trades a minute, ${CLIENTS} SSE clients (quotes received: ${received})`, rows);
  console.log(`RSS max: first half ${max(1, half, 'RSS MB')} MB, second half ${max(half, rows.length, 'RSS MB')} MB; heap max: first half ${max(1, half, 'heap MB')} MB, second half ${max(half, rows.length, 'heap MB')} MB`);
  await app.stop(true);
  await services.close();
  vendor.stop();
}

if (import.meta.main) await benchLiveMemory();
