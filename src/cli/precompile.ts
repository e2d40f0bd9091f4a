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
 * first caller pays nothing. Only the routes that are costly, read the
 * ledger, or answer with a large response schema (composing walks it:
 * Elysia's `mapSchema`/`hasRef` held the thread 55 ms on `/api/forecast`'s
 * first request at load 4, bench/stall with bench/profile-stretches):
 * composing all of them would lengthen every start for routes that compose
 * in a few milliseconds.
 */
import type { Elysia } from 'elysia';
import { yieldToEventLoop } from '../db/client';
import { composeRoute, type ComposableRoute as RouteEntry } from '../plugins/elysia-internals';
import { classFromDetail } from '../plugins/rate-limit';

/**
 * A response schema this large (its JSON, in characters) is composed early: the routes past it composed in 12–66 ms
 * in a test process (the forecast's 10,030, the earnings' 5,203, the scorecard's 60,951), those under it mostly under 10.
 */
export const LARGE_RESPONSE_SCHEMA = 5_000;

/** The size of a route's 200 response schema as JSON (0 without one). */
function responseSchemaSize(route: RouteEntry): number {
  const response = (route.hooks as { response?: Record<number, unknown> } | undefined)?.response;
  const ok = response?.[200];
  return ok ? JSON.stringify(ok).length : 0;
}

/** Whether a route's handler is composed before it is first asked: the costly class (any condition), the Transparency tag, or a large response schema. */
export function composedEarly(route: RouteEntry): boolean {
  const detail = route.hooks?.detail;
  return classFromDetail(detail) !== false || (detail?.tags ?? []).includes('Transparency') || responseSchemaSize(route) >= LARGE_RESPONSE_SCHEMA;
}

/**
 * Composes the handlers of `composedEarly` routes (each once: Elysia keeps the composition), a turn of the event loop
 * after each so the warm-up listener answers `/livez` between them; resolves to how many.
 */
export async function precompileHeavyRoutes(app: Pick<Elysia, 'routes'>): Promise<number> {
  let composed = 0;
  for (const route of app.routes as RouteEntry[]) {
    if (!composedEarly(route) || !composeRoute(route)) continue;
    composed++;
    await yieldToEventLoop();
  }
  return composed;
}
