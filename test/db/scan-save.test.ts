/**
 * A scan run saved in statements of `INSERT_ROWS` rows with a turn of the
 * event loop between them (db/repositories/scan-save; issue 27: a first
 * start's run held the main thread 250–320 ms at once) writes what one pass
 * wrote: every signal row, its state event in the run's order, its ledger
 * record in the same order, the run's findings whole. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import { INSERT_ROWS, LEDGER_ROWS } from '../../src/db/repositories/scan-save';
import { ledgerRecords, signalEvents, signals } from '../../src/db/schema';
import type { ScanResult } from '../../src/domain/signal';
import { runScan } from '../../src/jobs/scan';
import { createTestContext, smallSyntheticMarket, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ provider: smallSyntheticMarket() });
});
afterAll(() => ctx.close());

const NO_VERDICTS = { candidates: [], blocked: [] };

/** A run of the small market's signals copied under new ids until it holds `n` (more than one statement's worth). */
async function runOf(n: number): Promise<ScanResult> {
  const scanned = await runScan(ctx.services, { timeframe: 'daily' });
  expect(scanned.signals.length).toBeGreaterThan(0);
  const copies = Array.from({ length: n }, (_, i) => ({ ...scanned.signals[i % scanned.signals.length]!, id: `sig_save_${String(i).padStart(4, '0')}` }));
  return { ...scanned, signals: copies };
}

/** Counts the turns of the event loop (macrotasks) until stopped. */
function countTurns() {
  let turns = 0;
  let stopped = false;
  const turn = () => {
    if (stopped) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  return () => {
    stopped = true;
    return turns;
  };
}

describe('saving a scan run', () => {
  const n = 2 * INSERT_ROWS + 37;

  it('writes every signal, its event and its ledger record in the run order (one chain), giving the event loop turns between statements', async () => {
    const { scans, database } = ctx.services;
    const result = await runOf(n);
    const stop = countTurns();
    const saved = await scans.saveRun('run_save_a', result, 'synthetic', NO_VERDICTS, (written) => written.newSignals.map((s) => ({ channel: 'breakouts.new' as const, payload: { id: s.id } })));
    const turns = stop();
    expect(saved?.newSignals.map((s) => s.id)).toEqual(result.signals.map((s) => s.id));
    expect(saved?.events).toHaveLength(n);
    // A turn after each insert of INSERT_ROWS rows at least: three of signals, three of their events.
    expect(turns).toBeGreaterThanOrEqual(6);

    const db = database.db;
    const rows = await db.select({ id: signals.id, firstRunId: signals.firstRunId }).from(signals).where(eq(signals.firstRunId, 'run_save_a')).orderBy(asc(signals.id));
    expect(rows.map((r) => r.id)).toEqual(result.signals.map((s) => s.id));
    const events = await db.select({ signalId: signalEvents.signalId }).from(signalEvents).where(eq(signalEvents.runId, 'run_save_a')).orderBy(asc(signalEvents.id));
    expect(events.map((e) => e.signalId)).toEqual(result.signals.map((s) => s.id));
    // The ledger's appends (LEDGER_ROWS entries each) make one chain: each record links to the one before it.
    const records = await db.select({ signalId: ledgerRecords.signalId, prevHash: ledgerRecords.prevHash, hash: ledgerRecords.hash }).from(ledgerRecords).orderBy(asc(ledgerRecords.seq));
    expect(records.filter((r) => r.signalId.startsWith('sig_save_')).map((r) => r.signalId)).toEqual(result.signals.map((s) => s.id));
    expect(n).toBeGreaterThan(LEDGER_ROWS);
    records.slice(1).forEach((r, i) => expect(r.prevHash).toBe(records[i]!.hash));
    const run = await scans.latestRun('daily');
    expect(run?.id).toBe('run_save_a');
    expect(run?.signals.map((s) => s.id)).toEqual(result.signals.map((s) => s.id));
  });

  it('moves every known signal of the next run, over more than one statement', async () => {
    const { scans, database } = ctx.services;
    const result = await runOf(n);
    const changed = { ...result, signals: result.signals.map((s, i) => (i % 2 === 0 ? s : { ...s, breakoutState: s.breakoutState === 'triggered' ? 'forming' : 'triggered' }) as typeof s) };
    const saved = await scans.saveRun('run_save_b', changed, 'synthetic', NO_VERDICTS, () => []);
    expect(saved?.newSignals).toEqual([]);
    expect(saved?.changes.map((c) => c.signal.id)).toEqual(changed.signals.filter((_, i) => i % 2 === 1).map((s) => s.id));
    const rows = await database.db.select({ lastSeenRunId: signals.lastSeenRunId }).from(signals).where(eq(signals.firstRunId, 'run_save_a'));
    expect(rows).toHaveLength(n);
    expect(new Set(rows.map((r) => r.lastSeenRunId))).toEqual(new Set(['run_save_b']));
  });
});
