import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { AppError } from '../../src/errors';
import { HeldAnswers, ANSWERS_PER_RUN, SignalReads } from '../../src/jobs/signal-reads';
import { ProviderError } from '../../src/providers/types';
import { createTestContext, smallSyntheticMarket, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ provider: smallSyntheticMarket() });
});
afterAll(() => ctx.close());

describe('the signals read model', () => {
  it('reads the latest persisted run, its history and the answers held with it', async () => {
    const read = await ctx.services.signals.read('daily');
    const latest = (await ctx.services.runs.latest('daily'))!;
    expect(read.view.signals.map((s) => s.id)).toEqual(latest.view.signals.map((s) => s.id));
    expect(read.history[0]!.id).toBe(latest.run.id);
    expect(read.answers?.runId).toBe(latest.run.id);
    let made = 0;
    expect(read.answers!.keep('k', () => `made ${++made}`)).toBe('made 1');
    expect((await ctx.services.signals.read('daily')).answers!.keep('k', () => `made ${++made}`)).toBe('made 1');
  });

  it('starts the answers of a newer run empty', async () => {
    const first = (await ctx.services.signals.read('daily')).answers!;
    first.keep('k', () => 'of the first run');
    await ctx.services.runs.persist('daily');
    const next = (await ctx.services.signals.read('daily')).answers!;
    expect(next.runId).not.toBe(first.runId);
    expect(next.keep('k', () => 'of the next run')).toBe('of the next run');
  });

  it('narrows to the requested symbols, keeping the run and its answers', async () => {
    const all = (await ctx.services.signals.read('daily')).view.signals;
    const picked = [...new Set(all.map((s) => s.symbol))].slice(0, 2);
    const read = await ctx.services.signals.read('daily', { symbols: picked });
    expect(read.view.signals.map((s) => s.id)).toEqual(all.filter((s) => picked.includes(s.symbol)).map((s) => s.id));
    expect(read.answers).toBeDefined();
  });

  it('scans symbols outside the universe on demand, ranked with the run’s, and holds no answers for it', async () => {
    const read = await ctx.services.signals.read('daily', { symbols: ['XLK', 'AAPL'] });
    expect(read.answers).toBeUndefined();
    for (const s of read.view.signals) expect(['XLK', 'AAPL']).toContain(s.symbol);
    const scores = read.view.signals.map((s) => s.finalScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('replays the whole universe at asOf, then narrows it, holding no answers', async () => {
    const whole = await ctx.services.signals.read('daily', { asOf: '2025-06-02' });
    const aapl = await ctx.services.signals.read('daily', { asOf: '2025-06-02', symbols: ['AAPL'] });
    expect(whole.view.asOf).toBe('2025-06-02T00:00:00.000Z');
    expect(whole.answers).toBeUndefined();
    // Ranks are cross-sectional: AAPL's signals are the whole replay's, not those of a scan of AAPL alone.
    expect(aapl.view.signals).toEqual(whole.view.signals.filter((s) => s.symbol === 'AAPL'));
  });

  it('refuses an unknown symbol as the provider’s unknown_symbol, before any scan', async () => {
    const error = await ctx.services.signals.read('daily', { symbols: ['AAPL', 'NOPE'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).code).toBe('unknown_symbol');
    expect((error as ProviderError).message).toContain('NOPE');
  });

  it('turns an unexpected scan failure into scan_failed and passes an AppError as it is', async () => {
    const { marketData, barStore, pool, scans, log } = ctx.services;
    const failing = (error: Error) => new SignalReads<string>({ marketData, barStore, pool, scans, log, runs: { current: () => Promise.reject(error), latest: () => Promise.reject(error) } });
    expect(((await failing(new Error('disk on fire')).read('daily').catch((e: unknown) => e)) as AppError).code).toBe('scan_failed');
    expect(((await failing(new AppError('not_found', 'gone')).read('daily').catch((e: unknown) => e)) as AppError).code).toBe('not_found');
  });
});

describe('answers held with a run', () => {
  it('makes an answer once per key and holds at most ANSWERS_PER_RUN of them', () => {
    const held = new HeldAnswers<number>('run_1');
    let made = 0;
    for (let i = 0; i < ANSWERS_PER_RUN; i++) held.keep(`q${i}`, () => ++made);
    expect(held.keep('q0', () => ++made)).toBe(1);
    expect(made).toBe(ANSWERS_PER_RUN);
    held.keep('one more', () => ++made); // full: emptied, then this one held
    expect(held.keep('q0', () => -1)).toBe(-1);
  });
});
