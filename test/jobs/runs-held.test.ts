import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { sql } from 'drizzle-orm';
import { asStoredJsonb } from '../../src/db/repositories/scan-rows';
import type { ScansRepository } from '../../src/db/repositories/scans';
import { SignalRuns } from '../../src/jobs/runs';
import { createTestContext, smallSyntheticMarket, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ provider: smallSyntheticMarket() });
});
afterAll(() => ctx.close());

/** A SignalRuns over the context's services whose repository counts the full reads of a run (findings included). */
function countingRuns() {
  const { marketData, barStore, pool, scans, ledger, bus, log, database } = ctx.services;
  let fullReads = 0;
  const counting = Object.create(scans, { latestRun: { value: (timeframe: string) => (fullReads++, scans.latestRun(timeframe)) } }) as ScansRepository;
  const runs = new SignalRuns({ marketData, barStore, pool, scans: counting, ledger, bus, log, locks: database.locks });
  return { runs, fullReads: () => fullReads };
}

describe('the latest run of a timeframe', () => {
  it('holds a run it saved as a reader reads it back, without reading its findings again', async () => {
    const { runs, fullReads } = countingRuns();
    const runId = await runs.persist('daily');
    const held = (await runs.latest('daily'))!;
    expect(held.run.id).toBe(runId);
    expect(fullReads()).toBe(0);
    // A process that did not save it reads the row back: the same run, view and history, keys in the same order.
    const readBack = (await countingRuns().runs.latest('daily'))!;
    expect(held.run.signals.length).toBeGreaterThan(0);
    expect(JSON.stringify(held)).toBe(JSON.stringify(readBack));
  });

  it('reads the findings only when a newer run than the one held is the latest', async () => {
    const { runs, fullReads } = countingRuns();
    const first = (await runs.latest('daily'))!; // not saved here: read
    expect(fullReads()).toBe(1);
    await Bun.sleep(1_100); // past the held read's second (LATEST_RUN_TTL_MS)
    expect((await runs.latest('daily'))!.run.id).toBe(first.run.id);
    expect(fullReads()).toBe(1); // the summaries named the held run the latest
    const newer = await ctx.services.runs.persist('daily'); // another process's run (its own SignalRuns)
    await Bun.sleep(1_100);
    expect((await runs.latest('daily'))!.run.id).toBe(newer);
    expect(fullReads()).toBe(2);
  });
});

describe('asStoredJsonb', () => {
  it('orders keys as jsonb does and drops what JSON drops', async () => {
    const value = { zeta: 1, b: { dd: 2, c: undefined, a: [3, { yy: 1, x: 0 }] }, aa: new Date(0), n: Number.NaN };
    expect(JSON.stringify(asStoredJsonb(value))).toBe('{"b":{"a":[3,{"x":0,"yy":1}],"dd":2},"n":null,"aa":"1970-01-01T00:00:00.000Z","zeta":1}');
    // What the database gives back for the same value.
    const result = (await ctx.services.database.db.execute(sql`select ${JSON.stringify(value)}::jsonb::text as v`)) as unknown;
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { v: string }[];
    expect(JSON.stringify(JSON.parse(rows[0]!.v))).toBe(JSON.stringify(asStoredJsonb(value)));
  });
});
