/**
 * The heavy routes' handlers composed before the app takes the port
 * (cli/precompile, issue 27): the Transparency routes, every route in a
 * costly class and those with a large response schema, and no other, so a
 * start composes only what its first caller would otherwise wait for on the
 * server's thread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { composedEarly, precompileHeavyRoutes } from '../../src/cli/precompile';
import { createTestContext, type TestContext } from '../helpers/app';

type Entry = { method: string; path: string; composed: unknown; compile?: () => unknown; hooks?: { detail?: Record<string, unknown> } };

describe('precompiling the heavy routes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('composes the Transparency and costly routes and those with a large response schema, each once, and leaves the others to their first request', async () => {
    const routes = ctx.app.routes as Entry[];
    const heavy = routes.filter((r) => r.compile && composedEarly(r));
    const names = heavy.map((r) => `${r.method} ${r.path}`);
    // The six ledger and scorecard reads of the stall guard, and the costly routes of other tags.
    for (const name of ['GET /api/transparency/ledger', 'GET /api/transparency/ledger.csv', 'GET /api/transparency/monthly', 'GET /api/scorecard', 'GET /api/transparency/verify', 'GET /api/universe/scan'])
      expect(names).toContain(name);
    // Large response schemas (LARGE_RESPONSE_SCHEMA): the forecast's and the earnings calendar's.
    for (const name of ['GET /api/forecast', 'GET /api/earnings']) expect(names).toContain(name);
    expect(names).not.toContain('GET /livez');
    expect(names).not.toContain('GET /api/bars');
    // Before its first request a route holds Elysia's lazy stand-in; composing replaces it with the handler, kept.
    const before = new Map(routes.map((r) => [r, r.composed]));

    expect(await precompileHeavyRoutes(ctx.app)).toBe(heavy.length);
    for (const r of heavy) {
      expect(r.composed).not.toBe(before.get(r));
      expect(r.compile!()).toBe(r.composed);
    }
    const livez = routes.find((r) => r.path === '/livez')!;
    expect(livez.composed).toBe(before.get(livez));
    // A composed route answers as before.
    const response = await ctx.request('/api/scorecard');
    expect(response.status).toBe(200);
  });
});
