/**
 * The replay a fresh install runs on first start: the last two years of the
 * data source, once per source; interrupted (the server stopped), it resumes
 * with its own parameters at the next start; finished, it is left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { bootReplay, bootReplayParams } from '../../src/jobs/replay/boot';
import { createSyntheticProvider } from '../../src/providers/synthetic';
import type { MarketDataProvider } from '../../src/providers/types';
import { createTestContext, type TestContext } from '../helpers/app';

const NOW = Date.UTC(2026, 4, 29, 22); // Friday 2026-05-29, after the close
let ctx: TestContext;
beforeAll(async () => {
  // A small universe keeps two years quick (4 symbols: 10 s of CPU, 8 took 20 s); the boot replay scans the live scan's universe.
  const synthetic = createSyntheticProvider({ seed: 8, now: () => NOW });
  const few = new Set(['SPY', 'AAPL', 'NVDA', 'XOM']);
  const universe = (await synthetic.universe()).filter((i) => few.has(i.symbol));
  const provider: MarketDataProvider = Object.assign(Object.create(synthetic), { universe: async () => universe });
  ctx = await createTestContext({ provider });
});
afterAll(() => ctx.close());

describe('the boot replay', () => {
  it('replays the last two years once, resuming an interrupted run with its own parameters', async () => {
    const params = await bootReplayParams(ctx.services.marketData);
    expect(params).toEqual({ timeframe: 'daily', from: '2024-05-29', to: '2026-05-29', universe: { kind: 'default' }, benchmark: 'SPY' });
    const stop = new AbortController();
    const interrupted = bootReplay({ ...ctx.services }, stop.signal);
    // Stop once the first chunks are committed (the server shutting down).
    for (let i = 0; i < 600 && ((await ctx.services.replays.of('synthetic', 'boot'))[0]?.sessionsDone ?? 0) === 0; i++) await Bun.sleep(50);
    stop.abort();
    await interrupted;
    const [stopped] = await ctx.services.replays.of('synthetic', 'boot');
    expect(stopped!.status).toBe('running');
    expect(stopped!.sessionsDone).toBeGreaterThan(0);
    expect(stopped!.sessionsDone).toBeLessThan(stopped!.sessionsTotal);

    await bootReplay({ ...ctx.services });
    const runs = await ctx.services.replays.of('synthetic', 'boot');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ id: stopped!.id, status: 'done', params });
    expect(runs[0]!.sessionsDone).toBe(runs[0]!.sessionsTotal);

    await bootReplay({ ...ctx.services }); // finished: left alone
    expect(await ctx.services.replays.of('synthetic', 'boot')).toHaveLength(1);
    const card = await ctx.json<{ source: string; replay: { id: string; origin: string }; allTime: { signals: number } }>('/api/scorecard?source=replay');
    expect(card.body).toMatchObject({ source: 'replay', replay: { id: stopped!.id, origin: 'boot' } });
    expect(card.body.allTime.signals).toBe(runs[0]!.signals);
  });
});
