/**
 * GET/POST /api/backtest/walk-forward and GET /api/backtest/jobs/:id on the
 * synthetic market: the session requirement, the inputs (query and body),
 * the single-symbol answer, its errors, and the universe job's life.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { backtestJobs } from '../../src/db/schema';
import type { BacktestJob, WalkForwardResponse } from '../../src/domain/backtest';
import type { BusEvents } from '../../src/stream/bus';
import { createTestContext, errorBody, type ErrorBody, type TestContext } from '../helpers/app';
import { until } from '../helpers/until';

let ctx: TestContext;
let alice: string;
let bob: string;

const PATH = '/api/backtest/walk-forward';
const get = (query: string, cookie = alice) => ctx.request(`${PATH}${query}`, { headers: { cookie } });
const post = (query: string, body?: unknown, cookie = alice, type = 'application/json') =>
  ctx.request(`${PATH}${query}`, { method: 'POST', headers: { cookie, ...(body === undefined ? {} : { 'content-type': type }) }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.sessionCookie('user_alice', 'free', 3600);
  bob = await ctx.sessionCookie('user_bob', 'free', 3600);
});
afterAll(async () => {
  await ctx.close();
});

async function expectError(response: Response, status: number, code: string, says?: string): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  const body = await errorBody(response);
  expect(body.code).toBe(code);
  if (says) expect(body.error).toContain(says);
  return body;
}

describe('authentication', () => {
  it('answers 401 without a session, on every backtest route', async () => {
    for (const response of [
      await ctx.request(PATH),
      await ctx.request(PATH, { method: 'POST' }),
      await ctx.request('/api/backtest/jobs/btj_00000000000000000000'),
      await ctx.request(`${PATH}?train=abc`), // before validation: nothing about the inputs leaks
    ]) {
      await expectError(response, 401, 'unauthorized');
      expect(response.headers.get('www-authenticate')).toContain('__session');
    }
  });

  it('declares the session scheme, or an API key with the backtest scope, on each operation', async () => {
    const doc = (await (await ctx.request('/openapi/json')).json()) as { paths: Record<string, Record<string, { security?: unknown; tags?: string[] }>>; tags: { name: string }[] };
    expect(doc.paths[PATH]!.get!.security).toEqual([{ SessionCookie: [] }, { ApiKey: ['backtest'] }]);
    expect(doc.paths[PATH]!.post!.security).toEqual([{ SessionCookie: [] }, { ApiKey: ['backtest'] }]);
    expect(doc.paths['/api/backtest/jobs/{id}']!.get!.tags).toEqual(['Backtest']);
    expect(doc.tags.map((t) => t.name)).toContain('Backtest');
  });
});

describe('a single-symbol walk-forward', () => {
  let body: WalkForwardResponse;
  beforeAll(async () => {
    const response = await get('?symbol=nvda');
    expect(response.status).toBe(200);
    body = (await response.json()) as WalkForwardResponse;
  });

  it('answers the spec’s WalkForwardResponse with the effective inputs and their units', () => {
    expect(body.symbol).toBe('NVDA');
    expect(body.benchmark).toBe('SPY');
    expect(body.range).toBe('6mo');
    expect(body.config).toEqual({ timeframe: 'daily', months: 6, train: 60, test: 20, purge: 2, embargo: 2, hold: 20, commission: 0.005, slippage: 5, capital: 100_000, maxPositions: 1, minTrainTrades: 5, trials: null });
    expect(body.method.costs).toContain('US dollars per share');
    expect(body.disclaimer).toContain('not a forecast');
    expect(body.dataFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(body.data.source).toBe('synthetic');
  });

  it('lays out its folds with exact purge and embargo, over about six months', () => {
    expect(body.folds.length).toBeGreaterThanOrEqual(5);
    for (const f of body.folds) {
      expect(f.train.bars).toBe(60);
      expect(f.purge!.bars).toBe(2);
      if (!f.test.partial) expect(f.test.bars).toBe(20);
      expect(f.train.to < f.purge!.from && f.purge!.to < f.test.from).toBe(true);
      if (f.index < body.folds.length - 1) expect(f.embargo!.bars).toBe(2);
    }
    expect(body.period.bars).toBe(body.folds.reduce((n, f) => n + f.test.bars, 0));
    expect(body.period.bars).toBeGreaterThan(100);
    expect(body.equity).toHaveLength(body.period.bars);
    expect(body.tradeCount).toBe(body.folds.reduce((n, f) => n + f.tradeCount, 0));
    expect(body.metrics.tradeCount).toBe(body.tradeCount);
  });

  it('compares with buy-and-hold of the symbol and the benchmark over the same test bars', () => {
    expect(body.benchmarks.symbol!.symbol).toBe('NVDA');
    expect(body.benchmarks.benchmark.symbol).toBe('SPY');
    expect(typeof body.benchmarks.benchmark.totalReturn).toBe('number');
  });

  it('gives the same numbers for the same inputs and data, by GET, by POST query or by POST body', async () => {
    const again = await (await get('?symbol=NVDA&months=6&train=60')).json();
    expect(again).toEqual(body);
    expect(await (await post('?symbol=NVDA')).json()).toEqual(body);
    expect(await (await post('', { symbol: 'NVDA', months: 6, commission: 0.005 })).json()).toEqual(body);
  });

  it('changes its fingerprint and its costs with the inputs', async () => {
    const costly = (await (await get('?symbol=NVDA&commission=0.05&slippage=25')).json()) as WalkForwardResponse;
    expect(costly.dataFingerprint).not.toBe(body.dataFingerprint);
    expect(costly.config.commission).toBe(0.05);
    const trades = costly.folds.flatMap((f) => f.trades);
    expect(trades.length).toBeGreaterThan(0);
    for (const t of trades) {
      const sign = t.direction === 'long' ? 1 : -1;
      // Commission both ways: the net R is below the (slipped) price move per unit of risk.
      expect(t.r).toBeLessThan((sign * (t.exitPrice - t.entryPrice)) / Math.abs(t.entryPrice - t.stopLoss));
      // Slippage of 25 bp: a stop entry fills beyond its trigger.
      if (t.entryKind === 'stop') expect(sign * (t.entryPrice - t.trigger)).toBeGreaterThan(0);
    }
  });

  it('states the number of trials of its deflated Sharpe ratio', async () => {
    const stated = (await (await get('?symbol=NVDA&trials=50')).json()) as WalkForwardResponse;
    expect(stated.config.trials).toBe(50);
    if (stated.metrics.deflatedSharpe) expect(stated.metrics.deflatedSharpe).toMatchObject({ trials: 50, trialsSource: 'request' });
    expect(body.variants.map((v) => v.name)).toEqual(['learned', 'watchlist', 'strong', 'elite']);
  });
});

describe('bad input is a 4xx in the Error shape', () => {
  it('400 when there are not enough bars for one train + purge + test window', async () => {
    await expectError(await get('?symbol=AAPL&train=2000&test=500'), 400, 'invalid_parameter', 'Insufficient bars');
  });

  it('400 naming the parameter', async () => {
    await expectError(await get('?months=2'), 400, 'invalid_parameter', 'months');
    await expectError(await get('?months=x'), 400, 'invalid_parameter', 'months');
    await expectError(await post('?months=4'), 400, 'invalid_parameter', 'months');
    await expectError(await get('?train=abc'), 400, 'invalid_parameter', 'train');
    await expectError(await get('?purge=-1'), 400, 'invalid_parameter', 'purge');
    await expectError(await get('?commission=2'), 400, 'invalid_parameter', 'commission');
    await expectError(await get('?symbols=AAPL,,MSFT'), 400, 'invalid_parameter', 'symbols');
    await expectError(await get('?symbol=%24%24'), 400, 'invalid_parameter', 'symbol');
  });

  it('400 for a body that is not the schema: unknown field, wrong type, not JSON', async () => {
    await expectError(await post('', { symbol: 'AAPL', bogus: 1 }), 400, 'invalid_body');
    await expectError(await post('', { months: '6' }), 400, 'invalid_body', 'months');
    await expectError(await post('', { symbols: 'AAPL,MSFT' }), 400, 'invalid_body', 'symbols');
    await expectError(await post('', '{"train": 60', undefined), 400, 'invalid_body', 'not valid JSON');
    await expectError(await post('', 'train=60', undefined, 'application/x-www-form-urlencoded'), 400, 'invalid_body', 'JSON');
    await expectError(await post('', [1, 2]), 400, 'invalid_body');
  });

  it('400 when the query and the body disagree, or when symbols and universe are both given', async () => {
    await expectError(await post('?train=60', { train: 80 }), 400, 'invalid_parameter', "'train'");
    await expectError(await post('?universe=sp500', { symbols: ['AAPL'] }), 400, 'invalid_parameter', 'not both');
  });

  it('400 for a universe run on GET (a job is started by POST only)', async () => {
    await expectError(await get('?symbols=AAPL,MSFT'), 400, 'invalid_parameter', 'POST');
  });

  it('413 for a body over the limit', async () => {
    await expectError(await post('', { symbols: Array.from({ length: 600 }, () => 'ABCDEFGHIJ'), pad: 'x'.repeat(70_000) }), 413, 'payload_too_large');
  });

  it('404 for an unknown symbol or benchmark', async () => {
    await expectError(await get('?symbol=ZZZZZZ'), 404, 'not_found');
    await expectError(await get('?symbol=AAPL&benchmark=ZZZZZZ'), 404, 'not_found');
  });

  it('500 backtest_failed when the run itself fails', async () => {
    const pool = ctx.services.pool;
    const run = pool.run;
    pool.run = ((task, input) => (task === 'walkForward' ? Promise.reject(new Error('worker crashed')) : run(task, input))) as typeof pool.run;
    try {
      await expectError(await get('?symbol=MSFT'), 500, 'backtest_failed', 'worker crashed');
    } finally {
      pool.run = run;
    }
  });
});

describe('a universe job', () => {
  const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMD', 'JPM', 'XOM'];
  const events: BusEvents['backtest.progress'][] = [];
  let unsubscribe: () => void;
  beforeAll(() => {
    unsubscribe = ctx.services.bus.subscribe('backtest.progress', (e) => events.push(e));
  });
  afterAll(() => unsubscribe());

  async function finished(location: string, cookie = alice): Promise<BacktestJob> {
    for (let i = 0; i < 600; i++) {
      const job = (await (await ctx.request(location, { headers: { cookie } })).json()) as BacktestJob;
      if (job.status === 'succeeded' || job.status === 'failed') return job;
      await Bun.sleep(100);
    }
    throw new Error('the job did not finish');
  }

  it('is accepted with 202 and a Location, runs, reports progress to its owner and ends with the universe’s result', async () => {
    const response = await post('?maxPositions=3', { symbols: SYMBOLS, months: 3 });
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as BacktestJob;
    expect(accepted).toMatchObject({ status: 'queued', result: null, request: { symbols: SYMBOLS, universe: null, benchmark: 'SPY' } });
    expect(accepted.request.config).toMatchObject({ months: 3, maxPositions: 3 });
    const location = response.headers.get('location')!;
    expect(location).toBe(`/api/backtest/jobs/${accepted.id}`);

    const job = await finished(location);
    expect(job.status).toBe('succeeded');
    expect(job.error).toBeNull();
    expect(job.progress.phase).toBe('done');
    const result = job.result!;
    expect(result.symbol).toBe('symbols');
    expect(result.universe).toMatchObject({ name: 'symbols', requested: 6, tested: 6, skipped: [] });
    expect(result.config.maxPositions).toBe(3);
    expect(result.benchmarks.universeEqualWeight).toBeDefined();
    expect(result.folds.length).toBeGreaterThanOrEqual(2);
    expect(result.dataFingerprint).toMatch(/^[0-9a-f]{64}$/);
    for (const t of result.folds.flatMap((f) => f.trades)) expect(SYMBOLS).toContain(t.symbol);

    // The row is written before the event is published, and through Redis the event arrives a moment later.
    await until('the job’s last event', () => events.some((e) => e.jobId === accepted.id && e.status === 'succeeded'));
    const mine = events.filter((e) => e.jobId === accepted.id);
    expect(mine.every((e) => e.userId === 'user_alice')).toBe(true);
    expect(mine[0]!.status).toBe('queued');
    expect(mine.at(-1)).toMatchObject({ status: 'succeeded', phase: 'done' });
    const scanning = mine.filter((e) => e.phase === 'scanning');
    expect(scanning.length).toBeGreaterThan(1);
    expect(scanning.at(-1)).toMatchObject({ done: 6, total: 6 });

    // another user cannot see it
    await expectError(await ctx.request(location, { headers: { cookie: bob } }), 404, 'not_found');
  });

  it('gives the same result for the same inputs and data', async () => {
    const a = await finished((await post('', { symbols: ['AAPL', 'MSFT'], months: 1 }, bob)).headers.get('location')!, bob);
    const b = await finished((await post('', { symbols: ['AAPL', 'MSFT'], months: 1 }, bob)).headers.get('location')!, bob);
    expect(b.result).toEqual(a.result);
  });

  it('fails in the job, naming why, when no symbol can be read', async () => {
    const job = await finished((await post('', { symbols: ['QQQQQ', 'ZZZZZ'] })).headers.get('location')!);
    expect(job.status).toBe('failed');
    expect(job.result).toBeNull();
    expect(job.error).toContain('Insufficient bars');
  });

  it('refuses a third active job of a user with 429', async () => {
    const carol = await ctx.sessionCookie('user_carol', 'free', 3600);
    const first = await post('', { symbols: SYMBOLS }, carol);
    const second = await post('', { symbols: SYMBOLS }, carol);
    expect([first.status, second.status]).toEqual([202, 202]);
    await expectError(await post('', { symbols: SYMBOLS }, carol), 429, 'rate_limited');
    await finished(first.headers.get('location')!, carol);
    await finished(second.headers.get('location')!, carol);
  });

  it('reads as failed when the server running it went silent', async () => {
    const id = 'btj_silentsilentsilent00';
    const long = new Date(Date.now() - 10 * 60_000);
    await ctx.services.database.db.insert(backtestJobs).values({
      id,
      userId: 'user_alice',
      status: 'running',
      request: { symbols: ['AAPL'], universe: null, benchmark: 'SPY', config: { timeframe: 'daily', months: 6, train: 60, test: 20, purge: 2, embargo: 2, hold: 20, commission: 0.005, slippage: 5, capital: 100000, maxPositions: 10, minTrainTrades: 5, trials: null } },
      progress: { phase: 'scanning', done: 1, total: 6 },
      createdAt: long,
      startedAt: long,
      heartbeatAt: long,
    });
    const job = (await (await ctx.request(`/api/backtest/jobs/${id}`, { headers: { cookie: alice } })).json()) as BacktestJob;
    expect(job.status).toBe('failed');
    expect(job.error).toContain('interrupted');
  });

  it('400 for a malformed job id', async () => {
    await expectError(await ctx.request('/api/backtest/jobs/nope', { headers: { cookie: alice } }), 400, 'invalid_parameter');
  });
});
