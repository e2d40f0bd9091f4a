/**
 * @module plugins/elysia-internals
 * The one place Breakline reaches past Elysia's public API (elysia 1.4). Two
 * things it needs have no public form:
 *
 * - the handler Elysia itself gives Bun for one route (`createBunRouteHandler`
 *   from `elysia/adapter/bun/compose`, over an entry of `app.router.history`):
 *   what the fast path leaves goes there, not to `app.fetch`, whose path parser
 *   assumes a host of 4+ characters (`Host: a` would be a 404 there);
 * - composing a route's handler now rather than on its first request (the
 *   `compile()` of an entry of `app.routes`): cli/precompile does it for the
 *   heavy routes before the server takes its port (issue 27).
 *
 * test/plugins/elysia-internals.test.ts fails loudly when an upgrade moves either.
 */
import type { AnyElysia } from 'elysia';
import { createBunRouteHandler } from 'elysia/adapter/bun/compose';

type Handler = (request: Request) => Response | Promise<Response>;

/** The handler Elysia gives Bun for `GET path`, or undefined when the app has no such route. */
export function bunRouteHandler(app: AnyElysia, path: string): Handler | undefined {
  const route = app.router.history.find((r) => r.method === 'GET' && r.path === path);
  return route ? (createBunRouteHandler(app, route) as Handler) : undefined;
}

/** What an entry of `app.routes` carries that composing reads. */
export interface ComposableRoute {
  compile?: () => unknown;
  hooks?: { detail?: { tags?: string[] } & Record<string, unknown> };
}

/** Composes a route's handler now (Elysia keeps it); false when this Elysia has no `compile` on its routes. */
export function composeRoute(route: ComposableRoute): boolean {
  if (typeof route.compile !== 'function') return false;
  route.compile();
  return true;
}
