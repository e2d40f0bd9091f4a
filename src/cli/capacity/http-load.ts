/**
 * @module cli/capacity/http-load
 * Requests at a set rate per route, with autocannon's programmatic API
 * (autocannon README § API): one autocannon instance per route of the mix,
 * all at once, each paced to its share of the step's rate (`overallRate`) on
 * enough connections to carry that rate at the target's latency, so each
 * route has its own latency histogram (HdrHistogram, 1 ms resolution).
 *
 * autocannon is a closed-loop generator: a connection sends its next request
 * when the answer to the last one came. A server slower than the target
 * shows as fewer requests than offered (the step then fails its rate) and its
 * latency is that of the requests that were sent, not of those that would
 * have queued (coordinated omission, Gil Tene): the knee is taken where the
 * rate is first missed or the p99 first exceeded, before that matters.
 */
import autocannon from 'autocannon';
import type { RequestSpec } from './profile';

export interface RouteResult {
  label: string;
  offeredRps: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  /** Answers by status (2xx included). */
  statuses: Record<string, number>;
  /** Requests that got no answer: socket errors and timeouts. */
  failed: number;
  timeouts: number;
}

/** Connections that carry `rps` at `latencyMs` each, twice over, within [1, 256]. */
export function connectionsFor(rps: number, latencyMs: number): number {
  return Math.max(1, Math.min(256, Math.ceil(rps * (Math.max(latencyMs, 10) / 1000) * 2)));
}

/** The rate of each request of the mix at `rps` overall (by weight). */
export function shares(requests: readonly RequestSpec[], rps: number): number[] {
  const total = requests.reduce((sum, r) => sum + r.weight, 0);
  return requests.map((r) => (rps * r.weight) / total);
}

/** Runs every route of the mix at its share of `rps` for `seconds`; resolves with each route's figures. */
export async function loadRoutes(
  base: string,
  requests: readonly RequestSpec[],
  options: { rps: number; seconds: number; latencyMs: number; credential?: Record<string, string> },
): Promise<RouteResult[]> {
  const rates = shares(requests, options.rps);
  return Promise.all(
    requests.map(async (request, i) => {
      const rate = rates[i]!;
      const headers: Record<string, string> = { ...(request.auth ? options.credential : {}), ...(request.body ? { 'content-type': 'application/json' } : {}) };
      const result = await autocannon({
        url: base,
        connections: connectionsFor(rate, options.latencyMs),
        duration: options.seconds,
        overallRate: Math.max(1, Math.round(rate)),
        timeout: Math.max(2, Math.ceil(options.seconds)),
        requests: request.paths.map((path) => ({ method: request.method, path, headers, body: request.body })),
      });
      const statuses: Record<string, number> = {};
      for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) if (count) statuses[status] = count;
      const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
      return {
        label: request.label,
        offeredRps: rate,
        requests: answered,
        rps: answered / options.seconds,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        p999Ms: result.latency.p99_9,
        statuses,
        failed: result.errors,
        timeouts: result.timeouts,
      };
    }),
  );
}

/**
 * The mix at the most the server carries: each route on its share (by
 * weight) of `connections` (at least one), each connection sending its next
 * request as soon as the last is answered (autocannon with no rate), for
 * `seconds`. Requests a second answered, and the worst route's p99.
 */
export async function saturate(base: string, requests: readonly RequestSpec[], options: { connections: number; seconds: number; credential?: Record<string, string> }): Promise<{ rps: number; p99Ms: number; errors: number }> {
  const split = shares(requests, options.connections);
  const routes = await Promise.all(
    requests.map(async (request, i) => {
      const headers: Record<string, string> = { ...(request.auth ? options.credential : {}), ...(request.body ? { 'content-type': 'application/json' } : {}) };
      const result = await autocannon({
        url: base,
        connections: Math.max(1, Math.round(split[i]!)),
        duration: options.seconds,
        timeout: Math.max(2, Math.ceil(options.seconds)),
        requests: request.paths.map((path) => ({ method: request.method, path, headers, body: request.body })),
      });
      const ok = Object.entries(result.statusCodeStats ?? {}).reduce((n, [status, { count }]) => n + (status.startsWith('2') ? (count ?? 0) : 0), 0);
      return { ok, p99Ms: result.latency.p99, errors: result.errors + result.non2xx };
    }),
  );
  return { rps: routes.reduce((n, r) => n + r.ok, 0) / options.seconds, p99Ms: Math.max(...routes.map((r) => r.p99Ms)), errors: routes.reduce((n, r) => n + r.errors, 0) };
}
