import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { openDatabase } from '../../src/db/client';
import { LOCK_KEYS } from '../../src/db/cluster-locks';
import { ScanScheduler } from '../../src/background/scheduler';
import { createLogger } from '../../src/log';
import { createTestContext, FIXED_NOW, usingPostgres, type TestContext } from '../helpers/app';

describe('scan scheduler', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const scheduler = (now = () => FIXED_NOW) =>
    new ScanScheduler({ deps: ctx.services, database: ctx.services.database, log: createLogger('silent'), intervalMs: 300_000, timeframes: ['daily', '4h'], now });

  it('scans each timeframe that has no run yet, persists it and announces every new signal', async () => {
    const announced: unknown[] = [];
    const off = ctx.services.bus.subscribe('breakouts.new', (e) => announced.push(e.signal));
    await scheduler().tick();
    off();
    const daily = await ctx.services.scans.runHistory('daily', 5);
    const fourHour = await ctx.services.scans.runHistory('4h', 5);
    expect(daily).toHaveLength(1);
    expect(fourHour).toHaveLength(1);
    expect(announced.length).toBe(daily[0]!.signalsFound + fourHour[0]!.signalsFound);
  });

  it('does not scan again without a new bar inside the interval', async () => {
    const finished = (await ctx.services.scans.runHistory('daily', 1))[0]!.finishedAt.getTime();
    await scheduler(() => finished + 60_000).tick();
    expect(await ctx.services.scans.runHistory('daily', 5)).toHaveLength(1);
  });

  it('scans again once the interval has passed, announcing only state changes of known signals', async () => {
    const finished = (await ctx.services.scans.runHistory('daily', 1))[0]!.finishedAt.getTime();
    const fresh: unknown[] = [];
    const off = ctx.services.bus.subscribe('breakouts.new', (e) => fresh.push(e));
    await scheduler(() => finished + 300_000).tick();
    off();
    expect(await ctx.services.scans.runHistory('daily', 5)).toHaveLength(2);
    expect(fresh).toHaveLength(0); // same bars, same signals: nothing new to announce
  });

  it('on a shutdown saves the run in progress and leaves the steps after the save to the next run', async () => {
    const lines: Record<string, unknown>[] = [];
    const stopping = await createTestContext({ log: createLogger('info', (line) => lines.push(JSON.parse(line))) });
    try {
      // `stop` arrives while the daily scan is under way (as SIGTERM does mid-pass).
      let sched: ScanScheduler | undefined;
      let stopped: Promise<void> | undefined;
      const runs = stopping.services.runs;
      const deps = { ...stopping.services, runs: { ...runs, persist: (...args: Parameters<typeof runs.persist>) => { const run = runs.persist(...args); stopped = sched!.stop(); return run; } } as typeof runs };
      sched = new ScanScheduler({ deps, database: stopping.services.database, log: createLogger('silent'), intervalMs: 300_000, timeframes: ['daily', '4h'], now: () => FIXED_NOW });
      await sched.tick();
      await stopped;
      expect(await stopping.services.scans.runHistory('daily', 5)).toHaveLength(1); // saved
      expect(await stopping.services.scans.runHistory('4h', 5)).toHaveLength(0); // no other scan begun
      expect(lines.filter((l) => l.msg === 'scan run saved; its later steps are left to the next run (stopping)')).toEqual([expect.objectContaining({ timeframe: 'daily', step: 'alert rules' })]);
    } finally {
      await stopping.close();
    }
  });

  it.if(usingPostgres)('lets only one instance lead on a shared PostgreSQL database', async () => {
    const url = process.env.DATABASE_URL!;
    const a = await openDatabase({ url, dataDir: ':memory:' });
    const b = await openDatabase({ url, dataDir: ':memory:' });
    try {
      const key = LOCK_KEYS.scheduler + 1; // not the key the test app's scheduler may hold
      expect(await a.locks.tryLock(key)).toBe(true);
      expect(await b.locks.tryLock(key)).toBe(false);
      expect(await a.locks.tryLock(key)).toBe(true); // confirmed, not taken twice:
      await a.locks.unlock(key); // one unlock frees it
      expect(await b.locks.tryLock(key)).toBe(true);
      expect(await a.locks.tryLock(key)).toBe(false);
    } finally {
      await a.close();
      await b.close();
    }
    const c = await openDatabase({ url, dataDir: ':memory:' });
    expect(await c.locks.tryLock(LOCK_KEYS.scheduler + 1)).toBe(true); // released with b's connection
    await c.close();
  });
});
