/**
 * @module plugins/observe
 * One access-log line and one metrics observation per answered request:
 * method, route (the matched route's pattern, `unmatched` for a 404 without a
 * route, so labels stay a closed set; a static route's path when the request
 * was answered before routing, e.g. refused by the rate limit), status, duration and request id. The
 * clock starts when the request reaches the app, before every other plugin.
 *
 * @example
 * new Elysia().use(observe({ log, metrics })); // log line: {"level":"info","msg":"request","method":"GET","route":"/api/bars","status":200,"durationMs":0.84,"requestId":"req_…"}
 */
import { Elysia } from 'elysia';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { REQUEST_ID_HEADER } from './step';
import { requestPath } from './request-path';

export interface ObserveOptions {
  log: Logger;
  metrics: Pick<Metrics, 'http' | 'tally'>;
  /**
   * Whether a path is a route's own (static) pattern: a request refused before
   * routing (a 429 in onRequest) is labelled with it rather than `unmatched`.
   */
  isRoute?: (path: string) => boolean;
}

/**
 * Records the answered requests of one method and route: the metrics
 * observation (its tallies kept here by status, so an observation is a few
 * additions, not a lookup by labels) and, at level info, the access-log
 * line (the logger's writer of the route; pino's own line for a request id
 * that is not a string, the field left out when there is none). The fast
 * path keeps one per hot route; `recorder` one per route it has seen.
 */
export function routeRecorder({ log, metrics }: Pick<ObserveOptions, 'log' | 'metrics'>, method: string, route: string) {
  const line = log.access(method, route);
  const tallies = new Map<number, { observe(seconds: number): void }>();
  return (status: number, seconds: number, requestId: unknown): void => {
    let tally = tallies.get(status);
    if (!tally) tallies.set(status, (tally = metrics.tally(method, route, status)));
    tally.observe(seconds);
    if (line === undefined) return;
    const durationMs = Math.round(seconds * 1e5) / 100;
    if (typeof requestId === 'string') line(status, durationMs, requestId);
    else log.info('request', { method, route, status, durationMs, requestId });
  };
}

/** Records one answered request of any method and route (the routes are a closed set: one `routeRecorder` each). */
export function recorder(options: Pick<ObserveOptions, 'log' | 'metrics'>) {
  const routes = new Map<string, ReturnType<typeof routeRecorder>>();
  return (method: string, route: string, status: number, seconds: number, requestId: unknown): void => {
    const key = `${method} ${route}`;
    let record = routes.get(key);
    if (!record) routes.set(key, (record = routeRecorder(options, method, route)));
    record(status, seconds, requestId);
  };
}

export function observe({ log, metrics, isRoute }: ObserveOptions) {
  const record = recorder({ log, metrics });
  const routeOf = (route: string, url: string) => {
    if (route) return route;
    const path = requestPath(url);
    return isRoute?.(path) ? path : 'unmatched';
  };
  return new Elysia({ name: 'breakline/observe' })
    .decorate('receivedAt', 0)
    .onRequest((context) => {
      context.receivedAt = performance.now();
    })
    .onAfterResponse({ as: 'global' }, ({ request, route, set, receivedAt }) => {
      const seconds = (performance.now() - receivedAt) / 1000;
      const status = typeof set.status === 'number' ? set.status : 200;
      record(request.method, routeOf(route, request.url), status, seconds, set.headers[REQUEST_ID_HEADER]);
    });
}
