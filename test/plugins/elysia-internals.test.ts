/**
 * plugins/elysia-internals holds the two reaches past Elysia's public API. These
 * tests fail loudly when an Elysia upgrade moves what they rely on: the
 * handler Elysia gives Bun for one route answers that route (also for a
 * request whose Host is a single letter, which `app.fetch` would 404), and a
 * route of `app.routes` can be composed before its first request.
 */
import { describe, expect, it } from 'bun:test';
import { Elysia, t } from 'elysia';
import { bunRouteHandler, composeRoute } from '../../src/plugins/elysia-internals';

const app = () =>
  new Elysia()
    .get('/api/thing', ({ query }) => ({ n: query.n }), { query: t.Object({ n: t.Numeric() }) })
    .post('/api/thing', () => 'posted');

describe("Elysia's internals", () => {
  it('gives the handler Elysia composes for a GET route, which validates and answers as the route does', async () => {
    const handler = bunRouteHandler(app(), '/api/thing');
    expect(handler).toBeFunction();
    const ok = await handler!(new Request('http://a/api/thing?n=7'));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ n: 7 });
    expect((await handler!(new Request('http://a/api/thing?n=x'))).status).toBe(422);
  });

  it('has no handler for a path without a GET route', () => {
    expect(bunRouteHandler(app(), '/api/other')).toBeUndefined();
  });

  it("composes a route's handler before its first request", async () => {
    const built = app();
    const routes = built.routes as Parameters<typeof composeRoute>[0][];
    expect(routes.length).toBe(2);
    for (const route of routes) expect(composeRoute(route)).toBe(true);
    expect((await built.handle(new Request('http://localhost/api/thing?n=3'))).status).toBe(200);
    expect(composeRoute({})).toBe(false);
  });
});
