/**
 * The fences that keep a job which lost its lease (the database restarted
 * under it, another instance took over) from writing its work a second time:
 * a scan run is saved only over the head it was scanned after, and a replay
 * chunk is committed only from where its run stands. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { LOCK_KEYS } from '../../src/db/cluster-locks';
import { entryText } from '../../src/db/repositories/ledger-text';
import { ReplayConflict } from '../../src/db/repositories/replays';
import { runScan } from '../../src/jobs/scan';
import { createTestContext, smallSyntheticMarket, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ provider: smallSyntheticMarket() });
});
afterAll(() => ctx.close());

const NO_VERDICTS = { candidates: [], blocked: [] };
/** No stream events: the fence is what is tested. */
const NO_EVENTS = () => [];

describe('write fences', () => {
  it('saves a scan run only over the head it was scanned after', async () => {
    const { scans, runs } = ctx.services;
    const first = await runs.persist('daily');
    const result = await runScan(ctx.services, { timeframe: 'daily' });
    const fence = (head: string | null) => ({ head, lockKey: LOCK_KEYS.scanRunSave.daily });

    // Scanned when there was no run yet: another instance's run came first, so nothing is written.
    expect(await scans.saveRun('run_fenced_out', result, 'synthetic', NO_VERDICTS, NO_EVENTS, fence(null))).toBeUndefined();
    expect((await scans.runHistory('daily', 5)).map((r) => r.id)).toEqual([first]);

    // Scanned after the newest run: saved.
    expect(await scans.saveRun('run_fenced_in', result, 'synthetic', NO_VERDICTS, NO_EVENTS, fence(first))).toBeDefined();
    expect((await scans.runHistory('daily', 5)).map((r) => r.id)).toEqual(['run_fenced_in', first]);
  });

  it('commits a replay slice, its progress and its books only from where its run stands', async () => {
    const { replays } = ctx.services;
    const id = 'rpl_fence_test';
    const params = { timeframe: 'daily' as const, from: '2024-01-02', to: '2024-01-31', universe: { kind: 'default' as const }, benchmark: 'SPY' };
    await replays.start(
      { id, key: 'fence-test', params, source: 'synthetic', origin: 'test', universe: { kind: 'default', membership: 'a test', symbols: 1, membersWithoutData: 0, minCoverage: 1, survivorshipBias: false, survivorshipNote: 'a test' }, sessionsTotal: 20 },
      { kind: 'replay', signalId: id, replayId: id, data: { mode: 'replay' } },
    );
    const note = (n: number) => entryText({ kind: 'event', signalId: `${id}_note_${n}`, replayId: id, data: { n } }, 'replay');
    // The run stands at its start record: a slice from there is written.
    expect(await replays.commitSlice(id, [note(1), note(2)], { records: 1, entriesSinceBooks: 2, signals: 0 })).toBe(2);
    // A second writer of the same slice (it resumed from the start too): refused, nothing written.
    await expect(replays.commitSlice(id, [note(1), note(2)], { records: 1, entriesSinceBooks: 2, signals: 0 })).rejects.toBeInstanceOf(ReplayConflict);
    await expect(replays.progress(id, 10, 1)).rejects.toBeInstanceOf(ReplayConflict);
    await expect(replays.storeBooks(id, 10, {}, { records: 1, perStatement: 10 })).rejects.toBeInstanceOf(ReplayConflict);
    expect(await replays.get(id)).toMatchObject({ records: 3, sessionsDone: 0, booksThrough: 0, entriesSinceBooks: 2 });
    // The writer that stands where the run does goes on.
    await replays.progress(id, 10, 3);
    await replays.storeBooks(id, 10, {}, { records: 3, perStatement: 10 });
    expect(await replays.get(id)).toMatchObject({ records: 3, sessionsDone: 10, booksThrough: 10, entriesSinceBooks: 0 });
  });
});
