import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { ExportPage, ExportSchema } from '../../../src/modules/exports/model';
import type { LedgerResponse } from '../../../src/modules/transparency/model';
import { JOURNAL_CSV_COLUMNS } from '../../../src/ledger/journal';
import { createTestContext, type TestContext } from '../../helpers/app';
import { allPages, as, expectAllUnauthorized, expectError, send, sessionCookie } from '../../helpers/account';
import { smallMarket } from '../../helpers/small-market';

let ctx: TestContext;
let pro: string;
let other: string;
beforeAll(async () => {
  ctx = await createTestContext({ provider: await smallMarket(30) });
  await ctx.services.runs.persist('daily');
  pro = await sessionCookie(ctx, 'ann', 'pro');
  other = await sessionCookie(ctx, 'ben', 'enterprise');
});
afterAll(() => ctx.close());

/** Queues an export and waits for the background pass to make it. */
async function made(cookie: string, body: unknown): Promise<ExportSchema> {
  const queued = await ctx.json<ExportSchema>('/api/exports', send('POST', body, { cookie }));
  expect(queued.status).toBe(202);
  expect(queued.body).toMatchObject({ status: 'queued', rowCount: null, sizeBytes: null, downloadUrl: null });
  await ctx.services.account.exportJobs.kick();
  return (await ctx.json<ExportSchema>(`/api/exports/${queued.body.id}`, as(cookie))).body;
}

async function download(cookie: string, job: ExportSchema): Promise<{ response: Response; text: string }> {
  const response = await ctx.request(job.downloadUrl!, as(cookie));
  return { response, text: await response.text() };
}

describe('/api/exports', () => {
  it('makes the whole ledger as CSV, byte for byte the ledger’s own CSV, with its row count and size', async () => {
    const job = await made(pro, { dataset: 'ledger' });
    const ledger = await ctx.json<LedgerResponse>('/api/transparency/ledger?limit=1000', {});
    expect(ledger.body.count).toBeGreaterThan(0);
    expect(job).toMatchObject({ status: 'done', format: 'csv', rowCount: ledger.body.count, error: null, downloadUrl: `/api/exports/${job.id}/download` });
    const { response, text } = await download(pro, job);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="breakline-ledger-${job.id}.csv"`);
    expect(Buffer.byteLength(text)).toBe(job.sizeBytes!);
    expect(text).toBe(await (await ctx.request('/api/transparency/ledger.csv')).text());
    expect(Date.parse(job.expiresAt!) - Date.parse(job.finishedAt!)).toBe(24 * 3_600_000);
  });

  it('makes a filtered ledger slice as JSON holding the ledger endpoint’s records', async () => {
    const all = await ctx.json<LedgerResponse>('/api/transparency/ledger?limit=1000', {});
    const band = String(all.body.records[0]!.signal.scoreBand);
    const job = await made(pro, { dataset: 'ledger', format: 'json', filters: { scoreBand: band, since: '2000-01-01' } });
    const slice = await ctx.json<LedgerResponse>(`/api/transparency/ledger?limit=1000&scoreBand=${band}&since=2000-01-01`, {});
    expect(slice.body.count).toBeGreaterThan(0);
    expect(job.rowCount).toBe(slice.body.count);
    const { response, text } = await download(pro, job);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const parsed = JSON.parse(text) as { dataset: string; filters: unknown; records: unknown[] };
    expect(parsed).toMatchObject({ dataset: 'ledger', format: 'json', filters: { scoreBand: band, since: '2000-01-01' } });
    expect(parsed.records).toEqual(slice.body.records);
  });

  it('exports the user’s journal with its figures, and nobody else’s', async () => {
    await ctx.request('/api/journal/entries', send('POST', { symbol: 'AAPL', side: 'long', entryPrice: 100, entryAt: '2026-11-02T15:00:00Z', exitPrice: 110, exitAt: '2026-11-04T15:00:00Z', size: 10, tags: ['swing', 'A+'] }, { cookie: pro }));
    await ctx.request('/api/journal/entries', send('POST', { symbol: 'MSFT', side: 'short', entryPrice: 50, entryAt: '2026-11-03T15:00:00Z', size: 5, notes: 'line one\nline "two"' }, { cookie: pro }));
    await ctx.request('/api/journal/entries', send('POST', { symbol: 'JPM', side: 'long', entryPrice: 50, entryAt: '2026-11-03T15:00:00Z', size: 5 }, { cookie: other }));
    expect((await ctx.json<{ items: unknown[] }>('/api/journal/entries', as(pro))).body.items).toHaveLength(2);
    const csv = await made(pro, { dataset: 'journal' });
    expect(csv.rowCount).toBe(2);
    const { text } = await download(pro, csv);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(JOURNAL_CSV_COLUMNS.join(','));
    expect(lines[1]).toMatch(/^jrn_[0-9a-z]{20},AAPL,long,100,2026-11-02T15:00:00.000Z,110,2026-11-04T15:00:00.000Z,10,0,closed,100,10,,,,2,,swing;A\+,$/);
    expect(text).toContain('"line one\nline ""two"""');
    expect(text).not.toContain('JPM');
    const json = await made(pro, { dataset: 'journal', format: 'json', filters: { symbol: 'aapl' } });
    const parsed = JSON.parse((await download(pro, json)).text) as { records: { symbol: string; pnl: number }[]; filters: unknown };
    expect(parsed.filters).toEqual({ symbol: 'AAPL' });
    expect(parsed.records).toEqual([expect.objectContaining({ symbol: 'AAPL', pnl: 100, holdingDays: 2 })]);
  });

  it('says 409 while a job is not done or failed, and 410 once it expired (its content deleted)', async () => {
    const { exports } = ctx.services.account;
    const base = { userId: 'ann', dataset: 'ledger', format: 'csv', rowCount: null, sizeBytes: null, error: null, createdAt: new Date(), startedAt: null, finishedAt: null, expiresAt: null } as const;
    await exports.create({ ...base, id: 'exp_queued00000000000000', filters: {}, status: 'queued' });
    await expectError(await ctx.request('/api/exports/exp_queued00000000000000/download', as(pro)), 409, 'conflict');
    // A filter the database cannot read makes the job fail, with the reason kept.
    await exports.create({ ...base, id: 'exp_broken00000000000000', filters: { since: 'not-a-date' }, status: 'queued' });
    await ctx.services.account.exportJobs.kick();
    const broken = await ctx.json<ExportSchema>('/api/exports/exp_broken00000000000000', as(pro));
    expect(broken.body.status).toBe('failed');
    expect(broken.body.error!.length).toBeGreaterThan(0);
    expect((await expectError(await ctx.request('/api/exports/exp_broken00000000000000/download', as(pro)), 409, 'conflict')).error).toContain('failed');
    const done = await ctx.json<ExportSchema>('/api/exports/exp_queued00000000000000', as(pro));
    expect(done.body.status).toBe('done');
    expect(await exports.chunkCount(done.body.id)).toBeGreaterThan(0);
    expect(await exports.expire(new Date(Date.parse(done.body.expiresAt!) + 1))).toContain(done.body.id);
    const expired = await ctx.json<ExportSchema>(`/api/exports/${done.body.id}`, as(pro));
    expect(expired.body).toMatchObject({ status: 'expired', downloadUrl: null });
    await expectError(await ctx.request(`/api/exports/${done.body.id}/download`, as(pro)), 410, 'gone');
    expect(await exports.chunkCount(done.body.id)).toBe(0);
  });

  it('takes over a job left running by an instance that stopped', async () => {
    const { exports } = ctx.services.account;
    await exports.create({ id: 'exp_stale000000000000000', userId: 'ann', dataset: 'journal', format: 'csv', filters: {}, status: 'running', rowCount: null, sizeBytes: null, error: null, createdAt: new Date(), startedAt: new Date(Date.now() - 3_600_000), finishedAt: null, expiresAt: null });
    await exports.appendChunk('exp_stale000000000000000', 0, 'half a file');
    await ctx.services.account.exportJobs.kick();
    const job = await ctx.json<ExportSchema>('/api/exports/exp_stale000000000000000', as(pro));
    expect(job.body.status).toBe('done');
    expect((await download(pro, job.body)).text).not.toContain('half a file');
  });

  it('answers 400 naming the bad field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'dataset'],
      [{ dataset: 'trades' }, 'dataset'],
      [{ dataset: 'ledger', format: 'xlsx' }, 'format'],
      [{ dataset: 'ledger', filters: { since: '2026-02-30' } }, 'filters.since'],
      [{ dataset: 'ledger', filters: { since: '2026-03-01', until: '2026-02-01' } }, 'filters.since'],
      [{ dataset: 'ledger', filters: { scoreBand: 'great' } }, 'filters.scoreBand'],
      [{ dataset: 'ledger', filters: { symbol: 'AAPL' } }, 'filters.symbol'],
      [{ dataset: 'journal', filters: { patternType: 'vcp' } }, 'filters.patternType'],
      [{ dataset: 'ledger', filters: { colour: 'red' } }, 'colour'],
      [{ dataset: 'ledger', extra: true }, 'extra'],
    ];
    for (const [body, names] of cases) {
      const error = await expectError(await ctx.request('/api/exports', send('POST', body, { cookie: pro })), 400);
      expect(error.error).toContain(names);
    }
    await expectError(await ctx.request('/api/exports/exp_nope', as(pro)), 400, 'invalid_parameter');
  });

  it('answers 401 without a credential and 403 below the pro tier on every route (BFLA)', async () => {
    const id = 'exp_00000000000000000000';
    const routes: [string, RequestInit?][] = [['/api/exports'], ['/api/exports', send('POST', { dataset: 'ledger' })], [`/api/exports/${id}`], [`/api/exports/${id}/download`]];
    await expectAllUnauthorized(ctx, routes);
    const free = await sessionCookie(ctx, 'frugal', 'free');
    const { key } = await ctx.services.auth.keys.create({ userId: 'frugal', name: 'k', tier: 'free' });
    for (const [path, init] of routes) {
      const withCookie = { ...init, headers: { ...(init?.headers as Record<string, string>), cookie: free } };
      expect((await expectError(await ctx.request(path, withCookie), 403, 'forbidden')).error).toContain('pro tier');
      if (init?.method !== 'POST') await expectError(await ctx.request(path, as(key)), 403, 'forbidden');
    }
  });

  it('answers 404 for another user’s export, on every route (BOLA)', async () => {
    const job = await made(pro, { dataset: 'ledger', format: 'json', filters: { since: '2026-11-01' } });
    await expectError(await ctx.request(`/api/exports/${job.id}`, as(other)), 404, 'not_found');
    await expectError(await ctx.request(`/api/exports/${job.id}/download`, as(other)), 404, 'not_found');
    const theirs = await ctx.json<ExportPage>('/api/exports', as(other));
    expect(theirs.body.items.some((e) => e.id === job.id)).toBe(false);
  });

  it('lists exports newest first in the envelope, paged by cursor', async () => {
    const cara = await sessionCookie(ctx, 'cara', 'pro');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await ctx.json<ExportSchema>('/api/exports', send('POST', { dataset: 'journal' }, { cookie: cara }))).body.id);
    await ctx.services.account.exportJobs.kick();
    const pages = await allPages<ExportSchema>(ctx, '/api/exports', as(cara), 3);
    expect(pages.items.map((e) => e.id)).toEqual([...ids].reverse());
    expect(pages.items.every((e) => e.status === 'done' && e.rowCount === 0)).toBe(true);
  });
});
