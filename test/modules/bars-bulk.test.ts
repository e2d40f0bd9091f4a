import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { BarsResponse } from '../../src/modules/market/model';
import { createTestContext, type ErrorBody, type TestContext } from '../helpers/app';
import { linksOf, nextOf } from '../helpers/links';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());


describe('GET /api/bars as a bulk read (range=max, limit, cursor)', () => {
  it('reads every session of the history page by page, following Link rel="next", with no bar twice or missing', async () => {
    const whole = await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=max&limit=10000');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('link')).toBeNull();
    const all = whole.body.bars.map((b) => b.date);
    // More than the spec's longest range (6mo ≈ 126 sessions), and the whole window in one page.
    expect(all.length).toBeGreaterThan(126);
    expect(whole.body.pagination).toEqual({ nextCursor: null, hasMore: false, total: all.length, limit: 10000, offset: 0, order: 'asc' });

    const read: string[] = [];
    let path: string | null = '/api/bars?symbol=AAPL&range=max&limit=100';
    let pages = 0;
    while (path !== null) {
      const { status, headers, body } = await ctx.json<BarsResponse>(path);
      expect(status).toBe(200);
      expect(body.pagination!.offset).toBe(read.length);
      expect(body.pagination!.total).toBe(all.length);
      read.push(...body.bars.map((b) => b.date));
      path = nextOf(headers);
      expect(path === null).toBe(!body.pagination!.hasMore);
      if (path !== null) expect(new URL(path, 'http://x').searchParams.get('cursor')).toBe(body.pagination!.nextCursor);
      expect(linksOf(headers).first).toBe(pages === 0 ? undefined : '/api/bars?symbol=AAPL&range=max&limit=100');
      pages++;
    }
    expect(pages).toBe(Math.ceil(all.length / 100));
    expect(read).toEqual(all);
  });

  it('bounds the span by from/to, and pages it with the cursor passed by hand (Alpaca page_token style)', async () => {
    const first = await ctx.json<BarsResponse>('/api/bars?symbol=MSFT&range=max&from=2025-01-01&to=2025-12-31&limit=200');
    expect(first.body.bars[0]!.date >= '2025-01-01').toBe(true);
    expect(first.body.bars).toHaveLength(200);
    const cursor = first.body.pagination!.nextCursor!;
    const second = await ctx.json<BarsResponse>(`/api/bars?symbol=MSFT&range=max&from=2025-01-01&to=2025-12-31&limit=200&cursor=${cursor}`);
    expect(second.body.bars[0]!.date > first.body.bars.at(-1)!.date).toBe(true);
    expect(second.body.bars.at(-1)!.date <= '2025-12-31').toBe(true);
    // 2025 had 250 NYSE sessions (NYSE holiday calendar): 200 + 50.
    expect(second.body.bars).toHaveLength(first.body.pagination!.total! - 200);
    expect(second.body.pagination).toMatchObject({ hasMore: false, nextCursor: null, offset: 200 });
    // The last page names no next, only the first (the same query without the cursor; bars take no offset, so no prev).
    expect(linksOf(second.headers)).toEqual({ first: '/api/bars?symbol=MSFT&range=max&from=2025-01-01&to=2025-12-31&limit=200' });
  });

  it('reads a cursor of another symbol, or a malformed one, as the first page (the spec envelope rule)', async () => {
    const aapl = await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=max&limit=5');
    const msft = await ctx.json<BarsResponse>(`/api/bars?symbol=MSFT&range=max&limit=5&cursor=${aapl.body.pagination!.nextCursor}`);
    expect(msft.body.pagination!.offset).toBe(0);
    const junk = await ctx.json<BarsResponse>('/api/bars?symbol=MSFT&range=max&limit=5&cursor=not-a-cursor');
    expect(junk.body.bars).toEqual(msft.body.bars);
  });

  it('keeps the spec ranges as they were: the largest window (6mo of hourly bars) is one page with no pagination and no Link', async () => {
    const { status, headers, body } = await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=6mo&timeframe=1h');
    expect(status).toBe(200);
    expect(body.pagination).toBeUndefined();
    expect(headers.get('link')).toBeNull();
    // A smaller limit pages a spec range too, and says so.
    const paged = await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=1mo&limit=10');
    expect(paged.body.bars).toHaveLength(10);
    expect(paged.body.pagination).toMatchObject({ hasMore: true, total: 21, offset: 0 });
    expect(nextOf(paged.headers)).toContain('range=1mo');
  });
});

describe('GET /api/bars representations (Accept, format=)', () => {
  it('answers CSV by Accept: a header row, then the same bars as the JSON answer', async () => {
    const json = await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=1mo');
    const res = await ctx.request('/api/bars?symbol=AAPL&range=1mo', { headers: { accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('x-request-id')).not.toBeNull();
    expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
    const lines = (await res.text()).split('\r\n');
    expect(lines[0]).toBe('date,open,high,low,close,volume');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1)).toEqual(json.body.bars.map((b) => [b.date, b.open, b.high, b.low, b.close, b.volume].join(',')));
  });

  it('answers NDJSON by format=ndjson (over any Accept), one PriceBar per line, with the ts column of intraday bars', async () => {
    const json = await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=1mo&timeframe=4h');
    const res = await ctx.request('/api/bars?symbol=AAPL&range=1mo&timeframe=4h&format=ndjson', { headers: { accept: 'application/json' } });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = (await res.text()).split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l))).toEqual(json.body.bars);
    const csv = await (await ctx.request('/api/bars?symbol=AAPL&range=1mo&timeframe=4h&format=csv')).text();
    expect(csv.split('\r\n')[0]).toBe('date,ts,open,high,low,close,volume');
  });

  it('carries the Link of the next page on a CSV page too', async () => {
    const res = await ctx.request('/api/bars?symbol=AAPL&range=max&limit=50', { headers: { accept: 'text/csv' } });
    const next = nextOf(res.headers)!;
    expect(next).toContain('cursor=');
    const page2 = await ctx.request(next, { headers: { accept: 'text/csv' } });
    const [first, second] = [(await res.text()).split('\r\n'), (await page2.text()).split('\r\n')];
    expect(second[0]).toBe(first[0]!);
    expect(second[1]! > first[50]!).toBe(true);
  });

  it('weighs Accept by quality, and answers 406 in the Error shape when it takes none of JSON, CSV, NDJSON', async () => {
    const preferred = await ctx.request('/api/bars?symbol=AAPL&range=1mo', { headers: { accept: 'application/json;q=0.5, application/x-ndjson' } });
    expect(preferred.headers.get('content-type')).toStartWith('application/x-ndjson');
    const browser = await ctx.request('/api/bars?symbol=AAPL&range=1mo', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browser.headers.get('content-type')).toStartWith('application/json');
    const refused = await ctx.json<ErrorBody>('/api/bars?symbol=AAPL&range=1mo', { headers: { accept: 'application/xml, text/csv;q=0' } });
    expect(refused.status).toBe(406);
    expect(refused.body.code).toBe('not_acceptable');
    expect(refused.body.error).toContain('text/csv');
    expect(refused.body.requestId).toBeString();
  });

  it('refuses an unknown format with 400', async () => {
    const { status, body } = await ctx.json<ErrorBody>('/api/bars?symbol=AAPL&range=1mo&format=xml');
    expect(status).toBe(400);
    expect(body.error).toContain("'format'");
  });
});
