import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { MarketDataProvider } from '../../src/providers/types';
import type { BreakoutsResponse, HistoryResponse } from '../../src/modules/signals/model';
import { signalHistory } from '../../src/modules/signals/history';
import { createTestContext, errorBody, PIPELINES, syntheticMarket, type TestContext } from '../helpers/app';

let shared: TestContext;
let ctx: TestContext;
beforeAll(async () => {
  ctx = shared = await createTestContext();
});
afterAll(() => shared.close());

describe.each(PIPELINES)('GET /api/breakouts through %s', (pipeline) => {
  let ctx: TestContext;
  beforeAll(() => {
    ctx = shared.via(pipeline);
  });

  it('serves the latest persisted scan, ranked, with alerts and run history', async () => {
    const { status, body } = await ctx.json<BreakoutsResponse>('/api/breakouts');
    expect(status).toBe(200);
    for (const key of ['generatedAt', 'rankedSignals', 'alertCandidates', 'alertBlocked', 'alertThresholds', 'alertSummary', 'latestPersistedRun', 'runHistory', 'items', 'pagination']) {
      expect(body).toHaveProperty(key);
    }
    expect(body.rankedSignals.length).toBeGreaterThan(0);
    expect(body.rankedSignals).toEqual(body.items);
    const scores = body.items.map((s: { finalScore: number }) => s.finalScore);
    expect([...scores].sort((a: number, b: number) => b - a)).toEqual(scores);
    for (const s of body.items) {
      expect(['daily']).toContain(s.timeframe);
      expect(['long', 'short']).toContain(s.direction);
      expect(['forming', 'triggered', 'confirmed']).toContain(s.breakoutState);
      expect(s.id).toBe(`${s.symbol}-${s.patternType}-${s.detectedAt}`);
      expect(s.finalScore).toBeGreaterThanOrEqual(0);
      expect(s.finalScore).toBeLessThanOrEqual(100);
    }
    expect(body.latestPersistedRun).toMatchObject({ timeframe: 'daily', status: 'ok', source: 'synthetic' });
    expect(body.latestPersistedRun!.symbolsScanned).toBeGreaterThan(500);
    expect(body.runHistory[0]!.id).toBe(body.latestPersistedRun!.id);
    expect(body.alertCandidates.length).toBeGreaterThan(0);
    for (const c of body.alertCandidates) expect(['elite', 'strong']).toContain(c.scoreBand);
    expect(body.alertBlocked.length).toBeGreaterThan(0);
    for (const b of body.alertBlocked) expect(b.reasons.length).toBeGreaterThan(0);
    expect(body.alertSummary.candidates).toBe(body.alertCandidates.length);
    expect(body.alertThresholds).toMatchObject({ minBand: 'strong', nearTriggerPct: 2, maxExtensionPct: 5 });
  });

  it('does not rescan per request', async () => {
    const a = (await ctx.json<BreakoutsResponse>('/api/breakouts')).body;
    const b = (await ctx.json<BreakoutsResponse>('/api/breakouts')).body;
    expect(b.latestPersistedRun!.id).toBe(a.latestPersistedRun!.id);
    expect(b.runHistory).toHaveLength(a.runHistory.length);
  });

  it('pages by cursor without repeats', async () => {
    const first = (await ctx.json<BreakoutsResponse>('/api/breakouts?limit=5')).body;
    expect(first.items).toHaveLength(5);
    expect(first.pagination).toMatchObject({ limit: 5, hasMore: true, order: 'desc' });
    const second = (await ctx.json<BreakoutsResponse>(`/api/breakouts?limit=5&cursor=${first.pagination.nextCursor}`)).body;
    const ids = new Set([...first.items, ...second.items].map((s: { id: string }) => s.id));
    expect(ids.size).toBe(10);
  });

  it('filters by symbols and groups per symbol with view=rollup', async () => {
    const all = (await ctx.json<BreakoutsResponse>('/api/breakouts?limit=200')).body.items;
    const picked = [...new Set(all.map((s) => s.symbol))].slice(0, 3);
    expect(picked).toHaveLength(3);
    const { body } = await ctx.json<BreakoutsResponse>(`/api/breakouts?symbols=${picked.join(',').toLowerCase()}&view=rollup`);
    expect(new Set(body.items.map((s: { symbol: string }) => s.symbol))).toEqual(new Set(picked));
    expect(body.view).toBe('rollup');
    expect(body.symbolRollups!.map((r) => r.symbol).sort()).toEqual([...picked].sort());
    for (const r of body.symbolRollups!) expect(r.count).toBeGreaterThanOrEqual(1);
  });

  it('scans a symbol outside the universe on demand (a sector fund)', async () => {
    const { status, body } = await ctx.json<BreakoutsResponse>('/api/breakouts?symbols=XLK,QQQ');
    expect(status).toBe(200);
    expect(body.items.length).toBeGreaterThan(0);
    for (const s of body.items) expect(['XLK', 'QQQ']).toContain(s.symbol);
  });

  it('replays as of a date without persisting, standing on that date', async () => {
    const before = (await ctx.json<BreakoutsResponse>('/api/breakouts')).body.runHistory.length;
    const { status, body } = await ctx.json<BreakoutsResponse>('/api/breakouts?asOf=2025-06-02&limit=20');
    expect(status).toBe(200);
    expect(body.asOf).toBe('2025-06-02T00:00:00.000Z');
    expect(body.items).toHaveLength(20);
    for (const s of body.items) expect(Date.parse(s.detectedAt)).toBeLessThanOrEqual(Date.parse('2025-06-02T00:00:00Z'));
    expect((await ctx.json<BreakoutsResponse>('/api/breakouts')).body.runHistory.length).toBe(before);
  });

  it('scans other timeframes', async () => {
    const { status, body } = await ctx.json<BreakoutsResponse>('/api/breakouts?timeframe=4h&limit=5');
    expect(status).toBe(200);
    expect(body.items).toHaveLength(5);
    for (const s of body.items) expect(s.timeframe).toBe('4h');
  });

  it.each([
    ['timeframe=5m', 'timeframe'],
    ['view=table', 'view'],
    ['symbols=AAPL,,MSFT', 'symbols'],
    ['asOf=June', 'asOf'],
    ['limit=ten', 'limit'],
  ])('refuses %s with 400', async (qs, parameter) => {
    const response = await ctx.request(`/api/breakouts?${qs}`);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toContain(parameter);
  });

  it('answers an unknown symbol 404', async () => {
    expect((await ctx.request('/api/breakouts?symbols=NOPE')).status).toBe(404);
  });
});

describe('GET /api/breakouts when the scan fails', () => {
  it('answers 500 in the Error shape', async () => {
    const real = syntheticMarket();
    const broken: MarketDataProvider = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
      bars: async () => {
        throw new Error('disk on fire');
      },
    });
    const failing = await createTestContext({ provider: broken });
    try {
      const response = await failing.request('/api/breakouts');
      expect(response.status).toBe(500);
      const body = await errorBody(response);
      expect(body.code).toBe('scan_failed');
      // The cause goes to the server log, never to the client (it may hold SQL or paths).
      expect(body.error).toContain('The scan failed');
      expect(body.error).not.toContain('disk on fire');
    } finally {
      await failing.close();
    }
  });
});

describe('GET /api/breakouts/history', () => {
  it('lists every persisted signal newest first with its state history', async () => {
    await ctx.json<BreakoutsResponse>('/api/breakouts'); // ensures a persisted daily run
    const { status, body } = await ctx.json<HistoryResponse>('/api/breakouts/history?limit=20');
    expect(status).toBe(200);
    expect(body.items.length).toBe(20);
    expect(body.signals).toEqual(body.items);
    expect(body.pagination.total).toBeGreaterThan(20);
    const detected = body.items.map((s: { detectedAt: string }) => s.detectedAt);
    expect([...detected].sort().reverse()).toEqual(detected);
    for (const s of body.items) {
      expect(s.stateHistory.length).toBeGreaterThanOrEqual(1);
      expect(s.stateHistory[0]!.from).toBeNull();
      expect(s.stateHistory.at(-1)!.to).toBe(s.breakoutState);
    }
  });

  it('walks all signals exactly once by keyset cursor', async () => {
    const total = (await ctx.json<HistoryResponse>('/api/breakouts/history?limit=1')).body.pagination.total;
    expect(total).toBeGreaterThan(0);
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const { body }: { body: HistoryResponse } = await ctx.json<HistoryResponse>(`/api/breakouts/history?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      for (const s of body.items) {
        expect(seen.has(s.id)).toBe(false);
        seen.add(s.id);
      }
      cursor = body.pagination.nextCursor;
    } while (cursor);
    expect(seen.size).toBe(total!);
  });

  it('filters by symbol, pattern and timeframe', async () => {
    const first = (await ctx.json<HistoryResponse>('/api/breakouts/history?limit=1')).body.items[0]!;
    const { body } = await ctx.json<HistoryResponse>(`/api/breakouts/history?symbol=${first.symbol.toLowerCase()}&pattern=${first.patternType}&timeframe=${first.timeframe}`);
    expect(body.items.length).toBeGreaterThanOrEqual(1);
    for (const s of body.items) {
      expect(s.symbol).toBe(first.symbol);
      expect(s.patternType).toBe(first.patternType);
      expect(s.timeframe).toBe(first.timeframe);
    }
    expect(body.filters).toEqual({ symbol: first.symbol, pattern: first.patternType, timeframe: first.timeframe });
  });

  it('answers identical requests at once from one read, the page serialised as its object is', async () => {
    await ctx.json<BreakoutsResponse>('/api/breakouts');
    const scans = ctx.services.scans;
    const read = scans.signalHistory.bind(scans);
    let reads = 0;
    scans.signalHistory = (...args) => (reads++, read(...args));
    try {
      const texts = await Promise.all(Array.from({ length: 5 }, async () => (await ctx.request('/api/breakouts/history?limit=200')).text()));
      expect(reads).toBe(1);
      expect(new Set(texts).size).toBe(1);
      // Field for field and in the schema's order, as Elysia sent the object (issue 27 changed how, not what).
      expect(texts[0]).toBe(JSON.stringify(await signalHistory(scans, { limit: 200 })));
    } finally {
      scans.signalHistory = read;
    }
  });

  it.each(['pattern=teacup', 'timeframe=2h', 'symbol=9X', 'order=up'])('refuses %s with 400', async (qs) => {
    const response = await ctx.request(`/api/breakouts/history?${qs}`);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toContain(qs.split('=')[0]!);
  });
});
