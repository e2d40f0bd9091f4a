/**
 * @module cli/precompile
 * The handlers of the heavy routes composed before the app takes the port
 * (issue 27). Elysia composes a route's handler — its validators, the
 * response schema's encoder and mirror — on the route's first request, in
 * one synchronous stretch on the server's thread: for the Transparency
 * routes' large response schemas 90–130 ms at load 15, long enough to make
 * every other client of the server wait (the stall guard, test/e2e/stall,
 * measured its first probes late on exactly that). Composed here, while the
 * warm-up listener still answers `/livez` (cli/warming-listener), a route's
 * first caller pays nothing. Only the routes that are costly or read the
 * ledger: composing all of them would lengthen every start for routes that
 * compose in a few milliseconds.
 */
import type { Elysia } from 'elysia';
import { composeRoute, type ComposableRoute as RouteEntry } from '../plugins/elysia-internals';
import { classFromDetail } from '../plugins/rate-limit';

/** Whether a route's handler is composed before it is first asked: the costly class (any condition) or the Transparency tag. */
export function composedEarly(route: RouteEntry): boolean {
  const detail = route.hooks?.detail;
  return classFromDetail(detail) !== false || (detail?.tags ?? []).includes('Transparency');
}

/** Composes the handlers of `composedEarly` routes (each once: Elysia keeps the composition); returns how many. */
export function precompileHeavyRoutes(app: Pick<Elysia, 'routes'>): number {
  let composed = 0;
  for (const route of app.routes as RouteEntry[]) {
    if (composedEarly(route) && composeRoute(route)) composed++;
  }
  return composed;
}
