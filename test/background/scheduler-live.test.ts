/**
 * The scheduler driven by a live feed: a bar's close scans its timeframe at
 * once (the bar the last run stood on was still forming, so the usual "new
 * bar or interval" rule would wait), and nothing is scanned while the feed
 * fills a gap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ScanScheduler } from '../../src/background/scheduler';
import { createLogger } from '../../src/log';
import { createTestContext, FIXED_NOW, smallSyntheticMarket, type TestContext } from '../helpers/app';

describe('scan scheduler, live', () => {
  let ctx: TestContext;
  let holding = false;
  beforeAll(async () => {
    ctx = await createTestContext({ provider: smallSyntheticMarket() });
  });
  afterAll(() => ctx.close());

  const scheduler = (now: () => number) =>
    new ScanScheduler({ deps: ctx.services, database: ctx.services.database, log: createLogger('silent'), intervalMs: 3_600_000, timeframes: ['4h'], now, hold: () => holding });
  const runs = async () => (await ctx.services.scans.runHistory('4h', 10)).length;

  it('scans a timeframe when its bar closes, though no new bar came and the interval has not passed', async () => {
    await scheduler(() => FIXED_NOW).tick();
    expect(await runs()).toBe(1);
    const finished = (await ctx.services.scans.runHistory('4h', 1))[0]!.finishedAt.getTime();
    const soon = scheduler(() => finished + 60_000);
    await soon.tick();
    expect(await runs()).toBe(1); // the timer's rule: not due
    await soon.barClosed('4h');
    expect(await runs()).toBe(2);
  });

  it('runs one more pass when a bar closes during a pass', async () => {
    const finished = (await ctx.services.scans.runHistory('4h', 1))[0]!.finishedAt.getTime();
    const busy = scheduler(() => finished + 60_000);
    const running = busy.tick(); // not due: a quick pass
    const closed = busy.barClosed('4h'); // asked while it runs
    expect(closed).toBe(running); // the same promise: the close joins the pass in flight and the pass after it
    await closed;
    expect(await runs()).toBe(3);
  });

  it('scans nothing while the feed fills a gap, and scans the closed bar once it is filled', async () => {
    const finished = (await ctx.services.scans.runHistory('4h', 1))[0]!.finishedAt.getTime();
    const held = scheduler(() => finished + 7_200_000); // due by the interval, too
    holding = true;
    await held.barClosed('4h');
    expect(await runs()).toBe(3);
    holding = false;
    await held.barClosed('4h');
    expect(await runs()).toBe(4);
  });
});
