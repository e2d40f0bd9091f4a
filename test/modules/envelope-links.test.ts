/**
 * RFC 8288 `Link` on every envelope page (issue 31): for each list the spec
 * lists as an envelope (and the bulk bars), following `rel="next"` from the
 * first page reads the whole list — the same items, in the same order, as one
 * page of them all — with no item twice; a page at an offset names its
 * `prev`, and every page past the first its `first`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { PAGE_LIMIT_MAX } from '../../src/pagination';
import { send, sessionCookie } from '../helpers/account';
import { createTestContext, PIPELINES, type TestContext } from '../helpers/app';
import { linksOf } from '../helpers/links';

let ctx: TestContext;
let pro: string;
beforeAll(async () => {
  // Walks read many pages: a quota the test does not meet.
  ctx = await createTestContext({ env: { RATE_LIMIT_QUOTA: '100000' } });
  pro = await sessionCookie(ctx, 'links-pro', 'pro');
  const posted = async (path: string, body: unknown) => expect((await ctx.request(path, send('POST', body, { cookie: pro }))).status).toBe(201);
  // A watchlist of the symbols with the most signals: their breakout events are /api/breakouts/notifications.
  const ranked = (await ctx.json<Envelope>('/api/breakouts?limit=200')).body.items as { symbol: string }[];
  await posted('/api/watchlists', { name: 'watched', symbols: [...new Set(ranked.map((s) => s.symbol))].slice(0, 20) });
  for (let i = 0; i < 5; i++) {
    await posted('/api/watchlists', { name: `list ${i}` });
    await posted('/api/journal/entries', { symbol: 'AAPL', side: 'long', entryPrice: 100 + i, entryAt: `2026-11-0${i + 2}T15:00:00Z`, size: 1 });
    await posted('/api/alerts/v2', { name: `rule ${i}`, symbols: ['AAPL'] });
    await posted('/api/community/feed', { body: `post ${i}` });
    const queued = await ctx.request('/api/exports', send('POST', { dataset: 'journal' }, { cookie: pro }));
    expect([201, 202]).toContain(queued.status);
  }
});
afterAll(() => ctx.close());

interface Envelope {
  items: unknown[];
  pagination: { nextCursor: string | null; hasMore: boolean; limit: number; offset: number; order: 'asc' | 'desc' };
}

/** Each envelope list, with the page size its walk uses (small enough for several pages of what the test context holds). */
const LISTS: { path: string; limit: number; owned?: true }[] = [
  { path: '/api/breakouts', limit: 150 },
  { path: '/api/breakouts?view=rollup', limit: 100 },
  { path: '/api/breakouts/history', limit: 150 },
  { path: '/api/breakouts/notifications', limit: 10, owned: true },
  { path: '/api/earnings?symbol=AAPL', limit: 2 },
  { path: '/api/insider?symbol=AAPL', limit: 3 },
  { path: '/api/short-interest?symbol=AAPL', limit: 3 },
  { path: '/api/filings/AAPL', limit: 2 },
  { path: '/api/social/AAPL', limit: 4 },
  { path: '/api/sector-rotation/v2', limit: 3 },
  { path: '/api/community/feed', limit: 2 },
  { path: '/api/watchlists', limit: 2, owned: true },
  { path: '/api/journal/entries', limit: 2, owned: true },
  { path: '/api/alerts/v2', limit: 2, owned: true },
  { path: '/api/exports', limit: 2, owned: true },
];

/** An item by its id where it has one (an export's status moves on while the test reads), else by its JSON. */
const keyOf = (item: unknown): string => {
  const id = (item as { id?: unknown }).id;
  return typeof id === 'string' ? id : JSON.stringify(item);
};

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

describe.each(LISTS)('Link on $path', ({ path, limit, owned }) => {
  const init = () => (owned ? { headers: { cookie: pro } } : {});
  const read = async (url: string) => {
    const response = await ctx.request(url, init());
    expect(response.status).toBe(200);
    return { links: linksOf(response.headers), body: (await response.json()) as Envelope };
  };

  /** The whole list, read by `offset` in the largest pages (no cursor, no Link): the reference. */
  const everything = async (): Promise<unknown[]> => {
    const items: unknown[] = [];
    for (let more = true; more; ) {
      const { body } = await read(withQuery(path, `limit=${PAGE_LIMIT_MAX}&offset=${items.length}`));
      items.push(...body.items);
      more = body.pagination.hasMore;
    }
    return items;
  };

  it('walks the whole list by rel="next", with no item twice or missing, and names first past the first page', async () => {
    const all = (await everything()).map(keyOf);
    expect(all.length).toBeGreaterThan(limit); // so the walk has more than one page

    const walked: string[] = [];
    let url: string | undefined = withQuery(path, `limit=${limit}`);
    let pages = 0;
    while (url !== undefined) {
      const { links, body } = await read(url);
      walked.push(...body.items.map(keyOf));
      expect(links.next === undefined).toBe(!body.pagination.hasMore);
      if (links.next) expect(new URL(links.next, 'http://x').searchParams.get('cursor')).toBe(body.pagination.nextCursor);
      expect(links.first).toBe(pages === 0 ? undefined : withQuery(path, `limit=${limit}&order=desc`));
      url = links.next;
      pages++;
    }
    expect(pages).toBe(Math.ceil(all.length / limit));
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual(all);
  });

  it('names prev and first on a page at an offset, and they read the pages they name', async () => {
    const at = await read(withQuery(path, `limit=${limit}&offset=${limit + 1}`));
    expect(at.links.prev).toBe(withQuery(path, `limit=${limit}&order=desc&offset=1`));
    expect(at.links.first).toBe(withQuery(path, `limit=${limit}&order=desc`));
    const all = (await everything()).map(keyOf);
    expect(at.body.items.map(keyOf)).toEqual(all.slice(limit + 1, 2 * limit + 1));
    expect((await read(at.links.prev!)).body.items.map(keyOf)).toEqual(all.slice(1, 1 + limit));
    expect((await read(at.links.first!)).body.items.map(keyOf)).toEqual(all.slice(0, limit));
  });
});

describe.each(PIPELINES)('Link on GET /api/breakouts through %s', (pipeline) => {
  it('is on the default page (the held answer) when the ranking has more than one page', async () => {
    const response = await ctx.via(pipeline).request('/api/breakouts');
    const body = (await response.json()) as Envelope;
    expect(body.pagination.hasMore).toBe(true);
    expect(linksOf(response.headers)).toEqual({ next: `/api/breakouts?cursor=${body.pagination.nextCursor}` });
  });
});
