/**
 * The costly rate-limit class (issue 12): replays (`/api/breakouts?asOf=`),
 * universe scans, ledger verification and the CSV ledger count against a
 * second, stricter quota of the same window, so one client cannot spend the
 * server's time on them with the ordinary quota — while cheap routes, and the
 * same route without the costly parameter, go on being served. Also the
 * costly transparency routes themselves: a burst costs one verification, and
 * the CSV is consistent with one head, in small chunks, with an ETag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { LEDGER_CSV_COLUMNS } from '../../src/ledger/serialize';
import { createTestContext, errorBody, smallSyntheticMarket, type TestContext } from '../helpers/app';

describe('the costly rate-limit class', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // One long window: a burst never straddles two (a 60 s window ending mid-burst admits twice).
    ctx = await createTestContext({ provider: smallSyntheticMarket(), env: { RATE_LIMIT_QUOTA: '1000', RATE_LIMIT_COSTLY_QUOTA: '3', RATE_LIMIT_WINDOW_SECONDS: '86400', TRUST_PROXY: '1' } });
  });
  afterAll(() => ctx.close());

  const from = (ip: string) => ({ headers: { 'X-Forwarded-For': ip } });

  it('admits the costly quota and refuses the rest with 429, Retry-After and the costly headers', async () => {
    const ip = '203.0.113.10';
    const statuses: number[] = [];
    for (const path of ['/api/transparency/verify', '/api/transparency/ledger.csv', '/api/universe/scan', '/api/breakouts?asOf=2026-06-01', '/api/transparency/verify']) {
      const response = await ctx.request(path, from(ip));
      statuses.push(response.status);
      if (response.status === 200) expect(response.headers.get('x-ratelimit-limit')).toBe('3');
      if (response.status === 429) {
        expect((await errorBody(response)).code).toBe('rate_limited');
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      } else await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('keeps serving the same client its cheap routes, and /api/breakouts without asOf', async () => {
    const ip = '203.0.113.10';
    const health = await ctx.request('/api/health', from(ip));
    expect(health.status).toBe(200);
    expect(health.headers.get('x-ratelimit-limit')).toBe('1000');
    const latest = await ctx.request('/api/breakouts?limit=1', from(ip));
    expect(latest.status).toBe(200);
    expect(latest.headers.get('x-ratelimit-limit')).toBe('1000');
  });

  it('counts each client apart', async () => {
    expect((await ctx.request('/api/transparency/verify', from('203.0.113.11'))).status).toBe(200);
  });
});

describe('the costly transparency routes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ provider: smallSyntheticMarket(), env: { RATE_LIMIT_QUOTA: '100000', RATE_LIMIT_COSTLY_QUOTA: '100000' } });
    await ctx.services.runs.persist('daily');
    // More signal records than one CSV chunk holds, with a state change each.
    await ctx.services.ledger.append(
      Array.from({ length: 600 }, (_, i) => ({ kind: 'signal' as const, signalId: `T${i}-flat_base-2026-11-20T00:00:00.000Z`, patternType: 'flat_base', scoreBand: 'strong', finalScore: 75, detectedAt: new Date('2026-11-20T00:00:00Z'), data: { id: `T${i}`, symbol: 'T', triggerPrice: 10 + i } })),
    );
    await ctx.services.ledger.append(Array.from({ length: 600 }, (_, i) => ({ kind: 'event' as const, signalId: `T${i}-flat_base-2026-11-20T00:00:00.000Z`, data: { from: 'forming', to: 'triggered', price: 11 + i, at: '2026-11-20T15:00:00.000Z' } })));
  });
  afterAll(() => ctx.close());

  it('answers 40 concurrent verification requests from one pass', async () => {
    const replies = await Promise.all(Array.from({ length: 40 }, () => ctx.json<{ ok: boolean; verifiedAt: string; count: number }>('/api/transparency/verify')));
    expect(replies.every((r) => r.status === 200 && r.body.ok)).toBe(true);
    expect(new Set(replies.map((r) => r.body.verifiedAt)).size).toBe(1);
    expect(replies[0]!.body.count).toBeGreaterThan(0);
  });

  it('serves the CSV of the current head with its hash as ETag, and 304 for that ETag', async () => {
    const head = await ctx.services.ledger.head();
    const response = await ctx.request('/api/transparency/ledger.csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(`"${head.hash}"`);
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(LEDGER_CSV_COLUMNS.join(','));
    const { total } = await ctx.services.ledger.signalRecords({}, 1, 0);
    expect(total).toBeGreaterThan(250);
    expect(lines).toHaveLength(total + 1);
    const seqs = lines.slice(1).map((line) => Number(line.split(',')[0]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(Math.max(...seqs)).toBeLessThanOrEqual(head.seq);

    const again = await ctx.request('/api/transparency/ledger.csv', { headers: { 'If-None-Match': `"${head.hash}"` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const stale = await ctx.request('/api/transparency/ledger.csv', { headers: { 'If-None-Match': '"0000"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it('sends the CSV in chunks (100 signals each on PGlite, 2,000 on PostgreSQL), rendered once for the head', async () => {
    const perChunk = ctx.services.database.kind === 'pglite' ? 100 : 2_000;
    const response = await ctx.request('/api/transparency/ledger.csv');
    const reader = response.body!.getReader();
    const rowsPerChunk: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rowsPerChunk.push(new TextDecoder().decode(value).split('\r\n').length - 1);
    }
    expect(rowsPerChunk.length).toBeGreaterThan(1);
    expect(Math.max(...rowsPerChunk.slice(1))).toBeLessThanOrEqual(perChunk);
    // 40 downloads at once of the same head: all identical, from one rendering.
    const texts = await Promise.all(Array.from({ length: 40 }, () => ctx.request('/api/transparency/ledger.csv').then((r) => r.text())));
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]!.split('\r\n').length).toBeGreaterThan(600);
  });
});
