import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { BarsResponse, MacroCalendarResponse, SectorRotationResponse, SectorRotationRow, SnapshotResponse } from '../../src/modules/market/model';
import type { Page } from '../../src/pagination';
import { previousTradingDay, tradingDays } from '../../src/providers/calendar';
import { newYorkDate } from '../../src/providers/new-york-time';
import { createTestContext, errorBody, FIXED_NOW, PIPELINES, type TestContext } from '../helpers/app';

let shared: TestContext;
let ctx: TestContext;
beforeAll(async () => {
  ctx = shared = await createTestContext();
});
afterAll(() => shared.close());

/** /api/sector-rotation/v2: the legacy answer with the `{ items, pagination }` envelope added. */
type SectorRotationPage = SectorRotationResponse & Page<SectorRotationRow>;

describe.each(PIPELINES)('GET /api/bars through %s', (pipeline) => {
  let ctx: TestContext;
  beforeAll(() => {
    ctx = shared.via(pipeline);
  });

  it.each([
    ['1mo', 21],
    ['3mo', 63],
    ['6mo', 126],
  ])('answers %s with %i daily bars, newest last', async (range, count) => {
    const { status, headers, body } = await ctx.json<BarsResponse>(`/api/bars?symbol=AAPL&range=${range}`);
    expect(status).toBe(200);
    expect(body.symbol).toBe('AAPL');
    expect<string>(body.range).toBe(range);
    expect(body.bars).toHaveLength(count);
    const dates = body.bars.map((b: { date: string }) => b.date);
    expect([...dates].sort()).toEqual(dates);
    expect(new Set(dates).size).toBe(count);
    expect(dates.at(-1)! <= new Date(FIXED_NOW).toISOString().slice(0, 10)).toBe(true);
    for (const bar of body.bars) {
      expect(bar.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(bar.high).toBeGreaterThanOrEqual(Math.max(bar.open, bar.close));
      expect(bar.low).toBeLessThanOrEqual(Math.min(bar.open, bar.close));
      expect(bar.volume).toBeGreaterThan(0);
    }
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id']) {
      expect(headers.get(header)).not.toBeNull();
    }
  });

  it('normalises the symbol to upper case and accepts share classes', async () => {
    expect((await ctx.json<BarsResponse>('/api/bars?symbol=aapl&range=1mo')).body.symbol).toBe('AAPL');
    const brk = await ctx.json<BarsResponse>('/api/bars?symbol=brk.b&range=1mo');
    expect(brk.status).toBe(200);
    expect(brk.body.symbol).toBe('BRK.B');
  });

  it.each([
    ['/api/bars', 'symbol'],
    ['/api/bars?symbol=', 'symbol'],
    ['/api/bars?symbol=1ABC', 'symbol'],
    ['/api/bars?symbol=ABCDEFGHIJK', 'symbol'],
    ['/api/bars?symbol=AA%20PL', 'symbol'],
    ['/api/bars?symbol=AAPL&range=1y', 'range'],
    ['/api/bars?symbol=AAPL&range=', 'range'],
    ['/api/bars?symbol=AAPL&range=1mo&timeframe=1d', 'timeframe'],
    ['/api/bars?symbol=AAPL&range=1mo&from=2026-02-30', 'from'],
    ['/api/bars?symbol=AAPL&range=1mo&to=yesterday', 'to'],
  ])('refuses %s with 400 naming %s', async (path, parameter) => {
    const response = await ctx.request(path);
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.code).toBe('invalid_parameter');
    expect(body.error).toContain(parameter);
  });

  it('answers a well-formed unknown symbol 404 naming it', async () => {
    const response = await ctx.request('/api/bars?symbol=ZZZZZ&range=1mo');
    expect(response.status).toBe(404);
    const body = await errorBody(response);
    expect(body.error).toContain('ZZZZZ');
  });

  it('says where the bars come from and their timeframe (additive fields), daily by default', async () => {
    const { body } = await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=1mo');
    expect(body).toMatchObject({ symbol: 'AAPL', range: '1mo', timeframe: 'daily', source: 'synthetic' });
    expect(body.bars[0]!.ts).toBeUndefined();
  });

  it.each([
    ['1h', 7],
    ['4h', 2],
  ])('answers timeframe=%s: the last 21 sessions of bars, each with its start time, on the New York session date', async (timeframe, perSession) => {
    const { status, body } = await ctx.json<BarsResponse>(`/api/bars?symbol=MSFT&range=1mo&timeframe=${timeframe}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ timeframe, source: 'synthetic', range: '1mo' });
    expect(body.bars.length).toBeGreaterThan(21);
    const sessions = new Set(body.bars.map((b) => b.date));
    expect(sessions.size).toBe(21);
    expect(body.bars.length).toBeLessThanOrEqual(21 * perSession);
    const starts = body.bars.map((b) => Date.parse(b.ts!));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    for (const bar of body.bars) expect(newYorkDate(Date.parse(bar.ts!))).toBe(bar.date);
    // The latest complete session holds a full day of bars: 09:30–16:00 is 7 hourly bars (the last one half an hour), or 2 blocks.
    const day = [...sessions].at(-2)!;
    expect(body.bars.filter((b) => b.date === day)).toHaveLength(perSession);
  });

  it('bounds the window by from and to (session dates, inclusive)', async () => {
    const { status, body } = await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=6mo&from=2026-06-01&to=2026-06-30');
    expect(status).toBe(200);
    const june = tradingDays('2026-06-01', '2026-06-30');
    expect(june.length).toBeGreaterThan(15);
    expect(body.bars.map((b) => b.date)).toEqual(june);
    const wide = (await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=6mo&to=2026-08-31')).body.bars;
    const inWide = wide.filter((b) => b.date >= '2026-06-01' && b.date <= '2026-06-30');
    expect(body.bars).toEqual(inWide); // the same bars, whichever window they are read through
  });

  it('counts range back from to, never before from', async () => {
    const toOnly = (await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=1mo&to=2026-03-31')).body.bars;
    expect(toOnly).toHaveLength(21);
    expect(toOnly.at(-1)!.date).toBe(previousTradingDay('2026-04-01'));
    const both = (await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=3mo&from=2026-03-20&to=2026-03-31')).body.bars;
    expect(both.map((b) => b.date)).toEqual(tradingDays('2026-03-20', '2026-03-31'));
    const hourly = (await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=1mo&timeframe=1h&from=2026-11-02&to=2026-11-06')).body.bars;
    expect(new Set(hourly.map((b) => b.date))).toEqual(new Set(tradingDays('2026-11-02', '2026-11-06')));
  });

  it('answers an empty window with no bars, and refuses from after to', async () => {
    expect((await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=1mo&from=2026-07-04&to=2026-07-05')).body.bars).toEqual([]);
    const response = await ctx.request('/api/bars?symbol=AAPL&range=1mo&from=2026-07-10&to=2026-07-01');
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toContain("'from'");
  });

  it('requires range from API-Version 1.1.0 also with from/to', async () => {
    const response = await ctx.request('/api/bars?symbol=AAPL&from=2026-06-01&to=2026-06-30', { headers: { 'API-Version': '1.1.0' } });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toContain('range');
    expect((await ctx.request('/api/bars?symbol=AAPL&from=2026-06-01&to=2026-06-30', { headers: { 'API-Version': '1.1.0' } })).status).toBe(400);
    expect((await ctx.request('/api/bars?symbol=AAPL&range=1mo&from=2026-06-01', { headers: { 'API-Version': '1.1.0' } })).status).toBe(200);
  });

  it('serves the same bars twice from the cache', async () => {
    const a = await ctx.json<BarsResponse>('/api/bars?symbol=MSFT&range=3mo');
    const b = await ctx.json<BarsResponse>('/api/bars?symbol=MSFT&range=3mo');
    expect(b.body).toEqual(a.body);
  });
});

describe.each(PIPELINES)('GET /api/snapshot through %s', (pipeline) => {
  let ctx: TestContext;
  beforeAll(() => {
    ctx = shared.via(pipeline);
  });

  it('gives price, volume, change, day range, ts and source', async () => {
    const { status, body } = await ctx.json<SnapshotResponse>('/api/snapshot?symbol=msft');
    expect(status).toBe(200);
    expect(body.symbol).toBe('MSFT');
    expect(body.source).toBe('synthetic');
    expect(body.price).toBeGreaterThan(0);
    expect(body.volume).toBeGreaterThan(0);
    expect(body.dayHigh).toBeGreaterThanOrEqual(body.price);
    expect(body.dayLow).toBeLessThanOrEqual(body.price);
    expect(body.change).toBeCloseTo(body.price - body.previousClose, 4);
    expect(body.changePercent).toBeCloseTo((100 * body.change) / body.previousClose, 3);
    expect(Date.parse(body.ts)).not.toBeNaN();
    expect(body.sector).toBe('Information Technology');
  });

  it('agrees with the last daily bar', async () => {
    const bars = (await ctx.json<BarsResponse>('/api/bars?symbol=MSFT&range=1mo')).body.bars;
    const snap = (await ctx.json<SnapshotResponse>('/api/snapshot?symbol=MSFT')).body;
    expect(snap.previousClose).toBeCloseTo(bars.at(-2)!.close, 6);
  });

  it('refuses a missing symbol with 400', async () => {
    const response = await ctx.request('/api/snapshot');
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toContain('symbol');
  });

  it('answers an unknown symbol 404', async () => {
    expect((await ctx.request('/api/snapshot?symbol=NOPE')).status).toBe(404);
  });
});

describe('GET /api/sector-rotation', () => {
  it('places the 11 sector funds against SPY on the rotation graph', async () => {
    const { status, body } = await ctx.json<SectorRotationResponse>('/api/sector-rotation');
    expect(status).toBe(200);
    expect(body.benchmark).toBe('SPY');
    expect(body.count).toBe(11);
    expect(body.sectors).toHaveLength(11);
    expect(Date.parse(body.asOf)).not.toBeNaN();
    const symbols = body.sectors.map((s: { symbol: string }) => s.symbol).sort();
    expect(symbols).toEqual(['XLB', 'XLC', 'XLE', 'XLF', 'XLI', 'XLK', 'XLP', 'XLRE', 'XLU', 'XLV', 'XLY']);
    for (const s of body.sectors) {
      const expected = s.rsRatio >= 100 ? (s.rsMomentum >= 100 ? 'leading' : 'weakening') : s.rsMomentum >= 100 ? 'improving' : 'lagging';
      expect(s.quadrant).toBe(expected);
      expect(s.performance['1m'].relative).toBeCloseTo(s.performance['1m'].asset! - s.performance['1m'].benchmark!, 1);
      expect(s.tail.length).toBeGreaterThan(1);
    }
    const ratios = body.sectors.map((s: { rsRatio: number }) => s.rsRatio);
    expect([...ratios].sort((a, b) => b - a)).toEqual(ratios);
    const quadrants = new Set(body.sectors.map((s: { quadrant: string }) => s.quadrant));
    expect(quadrants.size).toBeGreaterThan(1); // sectors really rotate apart
  });
});

describe('GET /api/sector-rotation/v2', () => {
  it('adds the envelope and keeps the legacy keys', async () => {
    const { status, body } = await ctx.json<SectorRotationPage>('/api/sector-rotation/v2?limit=4');
    expect(status).toBe(200);
    expect(body.sectors).toHaveLength(11);
    expect(body.items).toHaveLength(4);
    expect(body.items).toEqual(body.sectors.slice(0, 4));
    expect(body.pagination).toMatchObject({ limit: 4, offset: 0, order: 'desc', hasMore: true, total: 11 });
    expect(typeof body.pagination.nextCursor).toBe('string');
  });

  it('walks every item exactly once by cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { body }: { body: SectorRotationPage } = await ctx.json<SectorRotationPage>(`/api/sector-rotation/v2?limit=5&order=asc${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...body.items.map((s: { symbol: string }) => s.symbol));
      cursor = body.pagination.nextCursor;
      pages++;
      if (cursor) expect(body.pagination.hasMore).toBe(true);
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(11);
    const { body } = await ctx.json<SectorRotationPage>('/api/sector-rotation/v2?order=asc');
    expect(seen).toEqual(body.items.map((s: { symbol: string }) => s.symbol));
  });

  it('clamps limit and treats a malformed cursor as the first page', async () => {
    expect((await ctx.json<SectorRotationPage>('/api/sector-rotation/v2?limit=0')).body.pagination.limit).toBe(1);
    expect((await ctx.json<SectorRotationPage>('/api/sector-rotation/v2?limit=5000')).body.pagination.limit).toBe(200);
    const bad = await ctx.json<SectorRotationPage>('/api/sector-rotation/v2?cursor=%%%garbage&limit=3');
    expect(bad.status).toBe(200);
    expect(bad.body.items).toEqual(bad.body.sectors.slice(0, 3));
  });

  it('lets the cursor win over offset', async () => {
    const first = (await ctx.json<SectorRotationPage>('/api/sector-rotation/v2?limit=2')).body;
    const second = (await ctx.json<SectorRotationPage>(`/api/sector-rotation/v2?limit=2&offset=9&cursor=${first.pagination.nextCursor}`)).body;
    expect(second.items).toEqual(first.sectors.slice(2, 4));
  });

  it.each(['limit=abc', 'offset=-1', 'order=sideways'])('refuses %s with 400', async (qs) => {
    const response = await ctx.request(`/api/sector-rotation/v2?${qs}`);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toContain(qs.split('=')[0]!);
  });
});

describe('GET /api/macro/calendar', () => {
  it('lists releases with New York times and the next release of each kind', async () => {
    const { status, body } = await ctx.json<MacroCalendarResponse>('/api/macro/calendar?from=2025-01-01&to=2025-12-31');
    expect(status).toBe(200);
    expect(body.timezone).toBe('America/New_York');
    const kinds = new Set(body.events.map((e: { type: string }) => e.type));
    expect([...kinds].sort()).toEqual(['cpi', 'fomc', 'gdp', 'jobs']);
    const fomc = body.events.filter((e: { type: string }) => e.type === 'fomc');
    expect(fomc).toHaveLength(8); // eight scheduled meetings a year
    const march = body.events.find((e: { type: string; date: string }) => e.type === 'cpi' && e.date === '2025-03-12');
    expect(march!.at).toBe('2025-03-12T12:30:00.000Z'); // 08:30 EDT
    expect(body.count).toBe(body.events.length);
    expect(Object.keys(body.coverage).sort()).toEqual(['cpi', 'fomc', 'gdp', 'jobs']);
    expect(body.next.fomc!.next === null || Date.parse(body.next.fomc!.next.at) >= Date.parse(body.asOf) - 1000).toBe(true);
  });

  it('filters by kind', async () => {
    const { body } = await ctx.json<MacroCalendarResponse>('/api/macro/calendar?types=cpi&from=2024-01-01&to=2024-12-31');
    expect(body.events).toHaveLength(12);
    expect(Object.keys(body.next)).toEqual(['cpi']);
  });

  it.each(['types=rates', 'from=2025-13', 'to=yesterday', 'from=2025-06-01&to=2025-01-01'])('refuses %s with 400', async (qs) => {
    const response = await ctx.request(`/api/macro/calendar?${qs}`);
    expect(response.status).toBe(400);
    await errorBody(response);
  });

  it('answers 404 in the Error shape when the deployment turns it off', async () => {
    const off = await createTestContext({ env: { MACRO_CALENDAR: 'off' } });
    try {
      const response = await off.request('/api/macro/calendar');
      expect(response.status).toBe(404);
      expect((await errorBody(response)).code).toBe('not_found');
    } finally {
      await off.close();
    }
  });
});
