/**
 * /api/breakouts pages (issue 31): `view=rollup` honours `limit` and the
 * cursor (it pages the symbols), and the run-level fields are on the first
 * page only, or where `include` names them; the spec's required keys
 * (generatedAt, rankedSignals) and the envelope are on every page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { BreakoutsPage } from '../../src/modules/signals/model';
import { createTestContext, PIPELINES, type TestContext } from '../helpers/app';
import { linksOf } from '../helpers/links';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { RATE_LIMIT_QUOTA: '100000' } });
  expect((await ctx.request('/api/breakouts')).status).toBe(200); // the first run, persisted: the tests read it
});
afterAll(() => ctx.close());

/** The run-level fields (BreakoutsPage's description), by `include` group. */
const GROUPS = {
  regime: ['regime'],
  alerts: ['alertCandidates', 'alertBlocked', 'alertThresholds', 'alertSummary'],
  runs: ['latestPersistedRun', 'runHistory'],
} as const;
const RUN_FIELDS = Object.values(GROUPS).flat();
/** What every page carries: the spec's required keys (BreakoutsResponse) and the envelope. */
const EVERY_PAGE = ['generatedAt', 'rankedSignals', 'items', 'pagination'];

const page = async (path: string) => {
  const response = await ctx.request(path);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { body: JSON.parse(text) as BreakoutsPage, bytes: Buffer.byteLength(text), links: linksOf(response.headers) };
};

describe('GET /api/breakouts?view=rollup', () => {
  it('pages the symbols by limit and cursor: each page’s rollups and their best signals, every symbol once along the Links', async () => {
    const signals: { symbol: string }[] = [];
    for (let offset = 0, more = true; more; offset += 200) {
      const { body } = await page(`/api/breakouts?limit=200&offset=${offset}`);
      signals.push(...body.items);
      more = body.pagination.hasMore;
    }
    const symbols = new Set(signals.map((s) => s.symbol));

    const first = await page('/api/breakouts?view=rollup&limit=3');
    expect(first.body.symbolRollups).toHaveLength(3);
    expect(first.body.items).toEqual(first.body.symbolRollups!.map((r) => r.bestSignal));
    expect(first.body.rankedSignals).toEqual(first.body.items);
    expect(first.body.pagination).toMatchObject({ limit: 3, offset: 0, total: symbols.size, hasMore: true });

    const seen: string[] = [];
    let counted = 0;
    let url: string | undefined = '/api/breakouts?view=rollup&limit=40';
    while (url !== undefined) {
      const { body, links } = await page(url);
      expect(body.view).toBe('rollup');
      for (const rollup of body.symbolRollups!) {
        seen.push(rollup.symbol as string);
        counted += rollup.count as number;
      }
      url = links.next;
    }
    expect(seen).toHaveLength(symbols.size);
    expect(new Set(seen)).toEqual(symbols);
    expect(counted).toBe(signals.length); // each signal in its symbol's group, once
  });
});

describe('run-level fields of /api/breakouts', () => {
  it('are on the first page, and past it only where include names their group; the required keys are on every page', async () => {
    const first = await page('/api/breakouts?limit=3');
    for (const key of [...EVERY_PAGE, ...RUN_FIELDS]) expect(first.body).toHaveProperty(key);

    const second = await page(`/api/breakouts?limit=3&cursor=${first.body.pagination.nextCursor}`);
    for (const key of EVERY_PAGE) expect(second.body).toHaveProperty(key);
    for (const key of RUN_FIELDS) expect(second.body).not.toHaveProperty(key);
    expect(second.body.items).toHaveLength(3);
    expect(second.bytes).toBeLessThan(first.bytes);

    for (const [group, fields] of Object.entries(GROUPS)) {
      const asked = await page(`/api/breakouts?limit=3&offset=3&include=${group}`);
      expect(Object.keys(asked.body).filter((key) => (RUN_FIELDS as readonly string[]).includes(key))).toEqual([...fields]);
      for (const field of fields) expect(asked.body[field]).toEqual(first.body[field]);
      expect(asked.body.items).toEqual(second.body.items);
    }
  });

  it('leaves them out of the first page with include=none (the page and its envelope alone), and refuses an unknown group (400)', async () => {
    const full = await page('/api/breakouts?limit=3');
    const bare = await page('/api/breakouts?limit=3&include=none');
    expect(Object.keys(bare.body).sort()).toEqual([...EVERY_PAGE, 'asOf'].sort());
    expect(bare.body.items).toEqual(full.body.items);
    expect(bare.bytes).toBeLessThan(full.bytes / 2); // 7.0 KB against 19.2 KB on the test market
    expect((await ctx.request('/api/breakouts?include=everything')).status).toBe(400);
  });
});

describe.each(PIPELINES)('the default rollup page through %s', (pipeline) => {
  it('is one default page (50 symbols) with its Link', async () => {
    const response = await ctx.via(pipeline).request('/api/breakouts?view=rollup');
    const body = (await response.json()) as BreakoutsPage;
    expect(body.symbolRollups).toHaveLength(50);
    expect(linksOf(response.headers)).toEqual({ next: `/api/breakouts?view=rollup&cursor=${body.pagination.nextCursor}` });
  });
});
