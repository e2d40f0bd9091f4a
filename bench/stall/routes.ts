/**
 * @module bench/stall/routes
 * The routes bench/stall calls: every documented GET route of the served
 * OpenAPI document (each required parameter filled, plus its `source=replay`,
 * `asOf` and largest-page `limit` variants), each called cold by `CALLERS` at
 * once while `/livez` is probed every 50 ms (test/helpers/livez-probe), the
 * server first left to settle so a route is charged only for what it did.
 * `--seeded` keeps each tree's first body of each route to compare the trees.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { PAGE_LIMIT_MAX } from '../../src/pagination';
import { probeWhile } from '../../test/helpers/livez-probe';
import { clock } from './clock';
import type { Floor } from './floor';
import { CALLERS, cpuProfDir, dumpDir, timeoutMs } from './options';
import type { Server } from './server';

export interface Route {
  path: string;
  session: boolean;
  stream: boolean;
}

export interface Measured {
  worstMs: number;
  /** The most CPU the server's main thread spent while one probe waited (livez-probe's worstCpuMs): its longest stretch without yielding. */
  worstCpuMs: number;
  /** Probes late while the server's main thread worked past 100 ms (test/helpers/livez-probe, given its pid). */
  late: number;
  slowestS: string;
  statuses: string;
  replaying: boolean;
  /** The bare process's worst `/livez` over the same window, probed the same way (bench/stall/floor), and its main thread's CPU then. */
  floorMs?: number;
  floorCpuMs?: number;
  /** The load average (1 min) when the route's calls ended. */
  load: number;
}

/** An example value for a required parameter, by name. */
const EXAMPLES: Record<string, string> = { symbol: 'AAPL', trigger: '200', target: '220', id: 'missing', month: '' };

/** Every documented GET route as a URL path a caller would send, with its cost variants. */
export async function documentedRoutes(base: string, month: string): Promise<Route[]> {
  type Param = { name: string; in: string; required?: boolean; schema?: { maximum?: number; enum?: string[]; anyOf?: { const?: string; enum?: string[] }[] } };
  const doc = (await (await fetch(`${base}/openapi/json`)).json()) as { paths: Record<string, { get?: { parameters?: Param[]; security?: unknown[]; responses?: Record<string, { content?: Record<string, unknown> }> } }> };
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const get = item.get;
    if (!get) continue;
    const params = get.parameters ?? [];
    const value = (name: string) => (name === 'month' ? month : (EXAMPLES[name] ?? 'x'));
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
    const query = params.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${encodeURIComponent(value(p.name))}`);
    const session = (get.security ?? []).length > 0;
    const stream = Object.keys(get.responses?.['200']?.content ?? {}).includes('text/event-stream');
    const url = (extra: string[]) => (query.length + extra.length ? `${path}?${[...query, ...extra].join('&')}` : path);
    routes.push({ path: url([]), session, stream });
    const names = new Set(params.map((p) => p.name));
    if (names.has('source')) routes.push({ path: url(['source=replay']), session, stream });
    if (names.has('asOf')) routes.push({ path: url([`asOf=${month}-15`]), session, stream });
    // The largest page a caller may ask for: its schema's maximum, else the envelope's clamp (pagination's PAGE_LIMIT_MAX).
    const limit = params.find((p) => p.name === 'limit' && p.in === 'query');
    if (limit) routes.push({ path: url([`limit=${limit.schema?.maximum ?? PAGE_LIMIT_MAX}`]), session, stream });
  }
  return routes;
}

/** `--seeded`: the body each tree answered each route with (its first caller's), compared across trees. */
const bodies = new Map<string, Map<string, string>>();

/** One cold call of a route: its status, or `timeout` / `error`. A stream is read to its first bytes, then closed. */
async function call(base: string, route: Route, token: string, body?: (text: string) => void): Promise<string> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(`${base}${route.path}`, { signal, headers: route.session ? { cookie: `__session=${token}` } : {} });
    if (route.stream && response.body) {
      const reader = response.body.getReader();
      await reader.read();
      await reader.cancel();
    } else if (body) body(await response.text());
    else await response.arrayBuffer();
    return String(response.status);
  } catch {
    return signal.aborted ? 'timeout' : `error`;
  }
}

/** Waits until `/livez` answers in under 50 ms three times in a row (the server is idle again). */
export async function settle(base: string): Promise<void> {
  for (let quick = 0, tries = 0; quick < 3 && tries < 1200; tries++) {
    const began = performance.now();
    await fetch(`${base}/livez`).then((r) => r.arrayBuffer());
    quick = performance.now() - began < 50 ? quick + 1 : 0;
    await Bun.sleep(50);
  }
}

/**
 * Each route cold, `CALLERS` at once, one route after the other; `tree` names whose bodies to keep (`--seeded`).
 * Given the `floor`, its bare process is probed the same way over the same window.
 */
export async function measureRoutes(server: Server, routes: Route[], token: string, replaying: () => boolean, tree?: string, floor?: Floor): Promise<Map<string, Measured>> {
  const out = new Map<string, Measured>();
  const keep = (path: string) => (text: string) => {
    if (!tree) return;
    if (!bodies.has(path)) bodies.set(path, new Map());
    if (!bodies.get(path)!.has(tree)) bodies.get(path)!.set(tree, text);
  };
  for (const route of routes) {
    await settle(server.base);
    const running = replaying();
    const began = performance.now();
    const window = clock.now();
    let ended!: () => void;
    const callsEnded = new Promise<void>((resolve) => (ended = resolve));
    const [report, floorReport] = await Promise.all([
      probeWhile(server.base, () => Promise.all(Array.from({ length: CALLERS }, () => call(server.base, route, token, keep(route.path)))).finally(ended), { pid: server.pid }),
      floor ? probeWhile(floor.base, () => callsEnded, { pid: floor.pid }) : undefined,
    ]);
    const slowest = (performance.now() - began) / 1000;
    if (cpuProfDir) console.error(`cpu-prof window pid ${server.pid} ${route.path}: ${window}–${clock.now()} (epoch ms, the servers' clock)`);
    const counts = new Map<string, number>();
    for (const s of report.result) counts.set(s, (counts.get(s) ?? 0) + 1);
    out.set(route.path, {
      worstMs: Math.round(report.worstMs),
      worstCpuMs: Math.round(report.worstCpuMs),
      late: report.late.length,
      slowestS: report.result.includes('timeout') ? `>${timeoutMs / 1000}` : slowest.toFixed(2),
      statuses: [...counts].map(([s, n]) => (n === CALLERS ? s : `${s}×${n}`)).join(' '),
      replaying: running,
      ...(floorReport ? { floorMs: Math.round(floorReport.worstMs), floorCpuMs: Math.round(floorReport.worstCpuMs) } : {}),
      load: loadavg()[0]!,
    });
  }
  return out;
}

/** Times a read stamps on its answer (when it was computed or verified, how long it took) and an error's request id: not compared. */
const STAMPS = /"(generatedAt|verifiedAt|requestId)":"[^"]*"|"durationMs":\d+/g;

/** Whether every tree answered `path` with the same bytes, the time stamps aside: `yes`, or the trees that differ from the first (`--dump DIR`: written there). */
export function sameBodies(path: string): string {
  const answers = [...(bodies.get(path) ?? new Map<string, string>())].map(([tree, text]) => [tree, text.replace(STAMPS, '')] as const);
  if (dumpDir) {
    mkdirSync(resolve(dumpDir), { recursive: true });
    for (const [tree, text] of answers) writeFileSync(join(resolve(dumpDir), `${tree.replace(/\W+/g, '_')}${path.replace(/\W+/g, '_')}.json`), text);
  }
  if (answers.length < 2) return '-';
  const differ = answers.filter(([, text]) => text !== answers[0]![1]).map(([tree]) => tree);
  return differ.length ? `differs: ${differ.join(', ')}` : 'yes';
}
