import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Static } from 'elysia';
import { csvRows } from '../../src/ledger/serialize';
import { runReplay } from '../../src/jobs/replay/run';
import { CheckpointsResponse, MonthlyResponse, ScorecardResponse, VerifyResponse, type LedgerResponse } from '../../src/modules/transparency/model';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.services.runs.persist('daily');
});
afterAll(() => ctx.close());

describe('GET /api/transparency/ledger', () => {
  it('lists every surfaced signal as first recorded, with seq, hash, state and outcome', async () => {
    const { status, body } = await ctx.json<LedgerResponse>('/api/transparency/ledger?limit=20');
    expect(status).toBe(200);
    const run = (await ctx.services.scans.latestRun('daily'))!;
    expect(body.count).toBe(run.signalsFound);
    expect(body.records).toHaveLength(20);
    expect(body.filters).toMatchObject({ limit: 20, offset: 0, maxLimit: 1000, since: null });
    const seqs = body.records.map((r: { seq: number }) => r.seq);
    expect([...seqs].sort((a: number, b: number) => a - b)).toEqual(seqs);
    for (const r of body.records) {
      expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.signal).toMatchObject({ source: 'synthetic', runId: run.id });
      for (const key of ['triggerPrice', 'target1', 'stopLoss', 'finalScore', 'scoreBand', 'confidence', 'reasons', 'regime', 'priceAtDetection']) expect(r.signal).toHaveProperty(key);
      expect(r.outcome.outcome).toBe('open');
    }
  });

  it('filters by pattern, band and dates, and pages with offset', async () => {
    const all = (await ctx.json<LedgerResponse>('/api/transparency/ledger?limit=1000')).body;
    const band = all.records[0]!.signal.scoreBand;
    const byBand = (await ctx.json<LedgerResponse>(`/api/transparency/ledger?scoreBand=${band}&limit=1000`)).body;
    expect(byBand.count).toBe(all.records.filter((r) => r.signal.scoreBand === band).length);
    const pattern = all.records[0]!.signal.patternType;
    const byPattern = (await ctx.json<LedgerResponse>(`/api/transparency/ledger?patternType=${pattern}&limit=1000`)).body;
    expect(byPattern.records.length).toBeGreaterThan(0);
    for (const r of byPattern.records) expect(r.signal.patternType).toBe(pattern);
    const day = all.records[0]!.signal.detectedAt.slice(0, 10);
    const byDay = (await ctx.json<LedgerResponse>(`/api/transparency/ledger?since=${day}&until=${day}&limit=1000`)).body;
    expect(byDay.records.length).toBeGreaterThan(0);
    for (const r of byDay.records) expect(r.signal.detectedAt.slice(0, 10)).toBe(day);
    const second = (await ctx.json<LedgerResponse>('/api/transparency/ledger?limit=5&offset=5')).body;
    expect(second.records.map((r) => r.seq)).toEqual(all.records.slice(5, 10).map((r) => r.seq));
  });

  it.each([
    ['since=2026-13-01', 'since'],
    ['until=yesterday', 'until'],
    ['scoreBand=gold', 'scoreBand'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['offset=-3', 'offset'],
    ['since=2026-06-02&until=2026-06-01', 'since'],
  ])('refuses %s with 400', async (qs, parameter) => {
    const response = await ctx.request(`/api/transparency/ledger?${qs}`);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toContain(parameter);
  });
});

describe('ledger verification, checkpoints and CSV', () => {
  it('verifies the chain and the checkpoint written after the run', async () => {
    const { body } = await ctx.json<Static<typeof VerifyResponse>>('/api/transparency/verify');
    expect(body).toMatchObject({ ok: true, firstBadSeq: null, reason: null });
    expect(body.count).toBeGreaterThan(0);
    expect(body.checkpoints.count).toBeGreaterThanOrEqual(1);
    expect(body.checkpoints.verified).toBe(body.checkpoints.count);
    const checkpoints = (await ctx.json<Static<typeof CheckpointsResponse>>('/api/transparency/checkpoints')).body;
    expect(checkpoints.checkpoints.at(-1)).toMatchObject({ seq: body.head.seq, headHash: body.head.hash, count: body.count });
  });

  it('serves the whole ledger as cacheable RFC 4180 CSV', async () => {
    const response = await ctx.request('/api/transparency/ledger.csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('cache-control')).toContain('public');
    const text = await response.text();
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toStartWith('seq,signal_id,symbol');
    const total = (await ctx.json<LedgerResponse>('/api/transparency/ledger?limit=1')).body.count;
    expect(total).toBeGreaterThan(0);
    expect(lines.length - 1).toBe(total);
    const columns = lines[0]!.split(',').length;
    for (const line of lines.slice(1)) expect(line.split(',').length).toBe(columns); // no field here needs quoting
  });
});

describe('ledger CSV fields', () => {
  it('quotes fields with commas, quotes and line breaks (RFC 4180)', () => {
    const row = csvRows([
      {
        seq: 7,
        hash: 'h',
        recordedAt: '2026-11-20T00:00:00.000Z',
        signal: { id: 'A,B', symbol: 'say "hi"', timeframe: 'daily', regime: 'line\nbreak' },
        state: 'forming',
        outcome: { outcome: 'open' },
      },
    ]);
    expect(row).toStartWith('7,"A,B","say ""hi""",daily,');
    expect(row).toContain('"line\nbreak"');
    expect(row.endsWith('\r\n')).toBe(true);
  });
});

describe('source=live|replay', () => {
  type Card = Static<typeof ScorecardResponse>;
  type Month = Static<typeof MonthlyResponse>;
  type Verify = Static<typeof VerifyResponse>;

  it('answers 404 for a replay before one has run, and 400 for a replayId without source=replay', async () => {
    for (const path of ['/api/scorecard?source=replay', '/api/transparency/ledger?source=replay', '/api/transparency/monthly?month=2026-11&source=replay']) {
      const response = await ctx.request(path);
      expect(response.status).toBe(404);
      expect((await errorBody(response)).code).toBe('not_found');
    }
    const response = await ctx.request('/api/scorecard?replayId=rpl_aaaaaaaaaaaaaaaaaaaa');
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toContain('replayId');
    expect((await ctx.request('/api/scorecard?source=both')).status).toBe(400);
  });

  it('reads a replay from its own chain, saying which ledger it shows and whether its universe is biased', async () => {
    const run = await runReplay({ ...ctx.services }, { timeframe: 'daily', from: '2026-06-01', to: '2026-08-31', universe: { kind: 'symbols', symbols: ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'XOM', 'JPM', 'KO'] }, benchmark: 'SPY' }, { origin: 'test' });
    const live = (await ctx.json<Card>('/api/scorecard')).body;
    expect(live).toMatchObject({ source: 'live', replay: null, survivorshipBias: false });
    const card = await ctx.json<Card>('/api/scorecard?source=replay');
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({ source: 'replay', replay: { id: run.id, status: 'done', dataSource: 'synthetic', params: { from: '2026-06-01', to: '2026-08-31' } }, survivorshipBias: true });
    expect(card.body.survivorshipNote).toContain('Survivorship bias');
    expect(card.body.allTime.signals).toBe(run.signals);
    expect(card.body.allTime.signals).not.toBe(live.allTime.signals);
    expect((await ctx.json<Card>(`/api/scorecard?source=replay&replayId=${run.id}`)).body.allTime).toEqual(card.body.allTime);
    expect((await ctx.request('/api/scorecard?source=replay&replayId=rpl_aaaaaaaaaaaaaaaaaaaa')).status).toBe(404);

    const page = await ctx.json<LedgerResponse>('/api/transparency/ledger?source=replay&limit=50');
    expect(page.body).toMatchObject({ source: 'replay', count: run.signals, replay: { id: run.id } });
    expect(page.body.records.length).toBeGreaterThan(0);
    for (const r of page.body.records) expect(r.signal).toMatchObject({ mode: 'replay', replay: { id: run.id, source: 'synthetic' } });
    const livePage = await ctx.json<LedgerResponse>('/api/transparency/ledger?limit=50');
    expect(livePage.body.source).toBe('live');
    for (const r of livePage.body.records) expect(r.signal.mode).toBeUndefined();

    const month = await ctx.json<Month>('/api/transparency/monthly?month=2026-07&source=replay');
    expect(month.body).toMatchObject({ source: 'replay', replay: { id: run.id } });
    expect(month.body.summary.signals).toBeGreaterThan(0);

    const verify = (await ctx.json<Verify>('/api/transparency/verify')).body;
    expect(verify.ok).toBe(true);
    expect(verify.chains.replay).toMatchObject({ ok: true, count: run.records });
    expect(verify.chains.live.count).toBe(verify.count);
  });
});
