/**
 * The fences that keep a job which lost its lease (the database restarted
 * under it, another instance took over) from writing its work a second time:
 * a scan run is saved only over the head it was scanned after, and a replay
 * chunk is committed only from where its run stands. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { LOCK_KEYS } from '../../src/db/cluster-locks';
import { ReplayConflict } from '../../src/db/repositories/replays';
import { runScan } from '../../src/jobs/scan';
import { createTestContext, smallSyntheticMarket, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ provider: smallSyntheticMarket() });
});
afterAll(() => ctx.close());

const NO_VERDICTS = { candidates: [], blocked: [] };

describe('write fences', () => {
  it('saves a scan run only over the head it was scanned after', async () => {
    const { scans, runs } = ctx.services;
    const first = await runs.persist('daily');
    const result = await runScan(ctx.services, { timeframe: 'daily' });
    const fence = (head: string | null) => ({ head, lockKey: LOCK_KEYS.scanRunSave.daily });

    // Scanned when there was no run yet: another instance's run came first, so nothing is written.
    expect(await scans.saveRun('run_fenced_out', result, 'synthetic', NO_VERDICTS, fence(null))).toBeUndefined();
    expect((await scans.runHistory('daily', 5)).map((r) => r.id)).toEqual([first]);

    // Scanned after the newest run: saved.
    expect(await scans.saveRun('run_fenced_in', result, 'synthetic', NO_VERDICTS, fence(first))).toBeDefined();
    expect((await scans.runHistory('daily', 5)).map((r) => r.id)).toEqual(['run_fenced_in', first]);
  });

  it('commits a replay chunk only from where its run stands', async () => {
    const { replays } = ctx.services;
    const id = 'rpl_fence_test';
    const params = { timeframe: 'daily' as const, from: '2024-01-02', to: '2024-01-31', universe: { kind: 'default' as const }, benchmark: 'SPY' };
    await replays.start(
      { id, key: 'fence-test', params, source: 'synthetic', origin: 'test', universe: { kind: 'default', membership: 'a test', symbols: 1, membersWithoutData: 0, minCoverage: 1, survivorshipBias: false, survivorshipNote: 'a test' }, sessionsTotal: 20 },
      { kind: 'replay', signalId: id, replayId: id, data: { mode: 'replay' } },
    );
    expect(await replays.commitChunk(id, [], { from: 0, sessionsDone: 10, signals: 0, books: {} })).toBe(0);
    // A second committer of the same sessions (it resumed from 0 too): refused, nothing moved.
    await expect(replays.commitChunk(id, [], { from: 0, sessionsDone: 10, signals: 0, books: {} })).rejects.toBeInstanceOf(ReplayConflict);
    expect((await replays.get(id))!.sessionsDone).toBe(10);
    expect(await replays.commitChunk(id, [], { from: 10, sessionsDone: 20, signals: 0, books: {} })).toBe(0);
    expect((await replays.get(id))!.sessionsDone).toBe(20);
  });
});
