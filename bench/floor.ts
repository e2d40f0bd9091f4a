/**
 * @module bench/floor
 * The contract floor of bench/http: the least a server answering under the
 * contract does per request, as a bare handler on Bun's router. It reads the
 * request headers the contract needs and the URL, asks the client's address
 * (the rate limit's per-IP bucket), and answers the same bytes with the
 * header set the server answers (a fresh request id and remaining count each
 * time) from one kept Headers object.
 *
 * Served two ways: from the bench process (`floorServer`: a small heap, no
 * other work: the ceiling of any server's ratio), and, preloaded into the
 * server process itself (`bun --preload bench/floor.ts src/index.ts` with
 * BENCH_FLOOR_PORT set), from beside the app: the same handler with the
 * server's heap, threads, timers and background loops around it. The gap
 * between the two is what the process costs per request whatever the
 * pipeline does; the gap between the in-server floor and the app is the
 * pipeline's own. The in-server floor is told its route, bytes and headers by
 * `POST /__floor?path=…` (body: the bytes; `x-floor-headers`: the answered
 * headers as JSON), and serves that route on the same port from then on.
 * `POST /__floor/settle` collects the server process's garbage (a full
 * `Bun.gc`) between two measured runs, so a run in that process (the app's,
 * or the in-server floor's) does not pay for the garbage of the run before
 * it: measured right after the app, the in-server floor took 3–4 µs per
 * request more than measured alone (bench/process-share, `server+app`).
 *
 * @example
 * const floor = floorServer('/api/bars', payload, answered.headers); // in the bench process
 * await configureFloor(`http://127.0.0.1:${port}`, '/api/bars', payload, answered.headers); // in the server's
 */
import type { Server } from 'bun';

/** The request headers the fast path reads (plugins/fast-path and its steps, the rate limit's authenticator, representation). */
export const CONTRACT_READS = ['transfer-encoding', 'content-length', 'accept', 'api-version', 'x-request-id', 'origin', 'authorization', 'cookie', 'if-none-match', 'accept-encoding'];

type Handler = (request: Request, server: { requestIP(request: Request): unknown }) => Response;

/** The floor's handler answering `payload` with the headers `answered` carries (but those Bun sets itself). */
export function floorHandler(payload: ArrayBuffer, answered: Headers): Handler {
  const headers = new Headers();
  answered.forEach((value, name) => {
    if (name !== 'date' && name !== 'content-length' && name !== 'content-encoding') headers.set(name, value);
  });
  let n = 0;
  return (request, server) => {
    for (const name of CONTRACT_READS) request.headers.get(name);
    if (request.url.length === 0 || server.requestIP(request) === undefined) throw new Error('unreachable');
    n++;
    headers.set('x-request-id', `req_${n.toString(36).padStart(20, '0')}`);
    headers.set('x-ratelimit-remaining', String(1e9 - n));
    return new Response(payload, { headers });
  };
}

const notFound = () => new Response(null, { status: 404 });

/** The floor for `route`, served by this process on a port of its own. */
export function floorServer(route: string, payload: ArrayBuffer, answered: Headers): Server<undefined> {
  return Bun.serve({ port: 0, hostname: '127.0.0.1', routes: { [route]: { GET: floorHandler(payload, answered) } }, fetch: notFound });
}

/** Tells the floor preloaded into a server process (at `base`) which route, bytes and headers to answer. */
export async function configureFloor(base: string, route: string, payload: ArrayBuffer, answered: Headers): Promise<void> {
  const headers: Record<string, string> = {};
  answered.forEach((value, name) => void (headers[name] = value));
  const told = await fetch(`${base}/__floor?path=${encodeURIComponent(route)}`, { method: 'POST', body: payload, headers: { 'x-floor-headers': JSON.stringify(headers) } });
  if (told.status !== 204) throw new Error(`the in-server floor at ${base} answered ${told.status}`);
}

/** Collects the garbage of the server process the floor is preloaded into (at `base`), between two measured runs in it. */
export async function settleFloorProcess(base: string): Promise<void> {
  const settled = await fetch(`${base}/__floor/settle`, { method: 'POST' });
  if (settled.status !== 204) throw new Error(`the in-server floor at ${base} answered ${settled.status} to settle`);
}

/** Preloaded with BENCH_FLOOR_PORT: the floor beside the app, in its process, configured by `configureFloor`. */
function serveInProcess(port: number): void {
  const routes: Record<string, { GET: Handler } | ((request: Request) => Response | Promise<Response>)> = {
    '/__floor/settle': (request) => {
      if (request.method !== 'POST') return new Response(null, { status: 405 });
      Bun.gc(true);
      return new Response(null, { status: 204 });
    },
    '/__floor': async (request) => {
      const path = new URL(request.url).searchParams.get('path');
      if (request.method !== 'POST' || !path) return new Response(null, { status: 400 });
      const answered = new Headers(JSON.parse(request.headers.get('x-floor-headers') ?? '{}') as Record<string, string>);
      routes[path] = { GET: floorHandler(await request.arrayBuffer(), answered) };
      server.reload({ routes, fetch: notFound });
      return new Response(null, { status: 204 });
    },
  };
  const server = Bun.serve({ port, hostname: '127.0.0.1', routes, fetch: notFound });
}

if (process.env.BENCH_FLOOR_PORT) serveInProcess(Number(process.env.BENCH_FLOOR_PORT));
