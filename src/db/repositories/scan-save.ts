/**
 * @module db/repositories/scan-save
 * The transaction that persists a scan run (ScansRepository.saveRun): the
 * run with its findings, its signals' rows and state events, the alert
 * candidates, the ledger records and the stream events, atomically, over the
 * head a fence names.
 *
 * Between two statements it gives the event loop a turn (a macrotask, not a
 * microtask). On the embedded database (PGlite) every statement runs on the
 * main thread, and a first start's boot scan (~500 new signals a timeframe)
 * saved as one chain of microtasks held it 250–320 ms of CPU at once, at
 * load 8 (issue 27: bench/first-minute with bench/profile-stretches, a
 * quote's tick waiting behind it): the run's row (its findings, ~460 KB of
 * JSON) ~60 ms, 500 signal rows in one statement ~100 ms, their events
 * ~50 ms, the ledger's ~70 ms, the stream's ~25 ms. The multi-row inserts
 * now take `INSERT_ROWS` rows a statement (~20 ms each there) and the ledger
 * `LEDGER_ROWS` entries an append, a turn after each; the rows, their order
 * and what is returned are as before (a slice's ledger records carry the time
 * of their own append, milliseconds apart).
 */
import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { AlertVerdicts, BreakoutState, ScanResult, Signal } from '../../domain/signal';
import { runsOf } from '../../runs-of';
import { yieldToEventLoop, type Db } from '../client';
import type { AppendedSegment } from './ledger-feed';
import type { LedgerRepository } from './ledger';
import { alerts, scanRuns, signalEvents, signals } from '../schema';
import { alertNotes, eventEntry, signalEntry } from './scan-entries';
import { stateOf } from './scan-rows';
import type { StoredStreamEvent, StreamEventInput, StreamEventsRepository } from './stream-events';

/** Ids a select or update names at most: bind parameters stay far under PostgreSQL's 65,535. */
const ROWS_A_STATEMENT = 1000;
/** Rows a multi-row insert writes at most (a signal row is 21 bind parameters): about 20 ms of PGlite's main thread on a busy machine. */
export const INSERT_ROWS = 100;

/** Ledger entries appended at once: their canonical JSON, hashes and insert were ~70 ms of the main thread for 500, ~54 ms for 200 (load 10). */
export const LEDGER_ROWS = 100;

/** The event loop's turn between two statements (timers, I/O, a quote's tick). */
const turn = yieldToEventLoop;

type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'execute'>;

/** What a persisted run surfaced: its new signals and the state changes of known ones. */
export interface RunChanges {
  newSignals: Signal[];
  changes: { signal: Signal; from: BreakoutState | null; to: BreakoutState }[];
}

/**
 * A run saved only if the timeframe's newest run is still `head` (null: none
 * yet), checked under the transaction-level advisory lock `lockKey`: a saver
 * that lost its lease while scanning (the database restarted, another instance
 * took over and saved) writes nothing, so a run's signals, events and ledger
 * records are never written twice.
 */
export interface RunFence {
  head: string | null;
  lockKey: number;
}

/** Where the run's ledger records and stream events are appended, in the same transaction. */
export interface RunLogs {
  ledger: LedgerRepository;
  streamEvents: StreamEventsRepository;
  /** What the ledger's appends add here, for the caller to tell once the transaction commits (ledger-feed). */
  segments?: AppendedSegment[];
}

/** One run saved inside `tx` (see the module comment); undefined when the fence's head is no longer the newest. */
export async function saveRunIn<E extends StreamEventInput>(
  tx: Tx,
  { ledger, streamEvents, segments }: RunLogs,
  run: { runId: string; result: ScanResult; source: string; verdicts: AlertVerdicts; announce: (written: RunChanges) => E[]; fence?: RunFence },
): Promise<(RunChanges & { events: StoredStreamEvent<E>[] }) | undefined> {
  const { runId, result, source, verdicts, announce, fence } = run;
  if (fence) {
    // One saver of the timeframe at a time across the cluster, and only over the head it scanned after.
    await tx.execute(sql`select pg_advisory_xact_lock(${String(fence.lockKey)}::bigint)`);
    const [head] = await tx.select({ id: scanRuns.id }).from(scanRuns).where(eq(scanRuns.timeframe, result.timeframe)).orderBy(desc(scanRuns.finishedAt)).limit(1);
    if ((head?.id ?? null) !== fence.head) return undefined;
    await turn();
  }
  await tx.insert(scanRuns).values({
    id: runId,
    timeframe: result.timeframe,
    asOf: new Date(result.asOf),
    startedAt: new Date(result.startedAt),
    finishedAt: new Date(result.finishedAt),
    status: 'ok',
    symbolsScanned: result.symbolsScanned,
    signalsFound: result.signals.length,
    durationMs: result.durationMs,
    source,
    regime: result.regime,
    findings: result.signals,
    alerts: verdicts,
    staleSeries: result.staleSeries,
  });
  await turn();
  const ids = result.signals.map((s) => s.id);
  const known = new Map<string, BreakoutState>();
  for (const part of runsOf(ids, ROWS_A_STATEMENT)) {
    const rows = await tx.select({ id: signals.id, state: signals.state }).from(signals).where(inArray(signals.id, part));
    for (const row of rows) known.set(row.id, stateOf(row.state, `signal ${row.id} state`));
    await turn();
  }
  const now = new Date();
  const at = new Date(result.asOf);
  const newSignals: Signal[] = [];
  const changes: { signal: Signal; from: BreakoutState | null; to: BreakoutState }[] = [];
  // A statement per kind of write, many rows each (a statement a signal made persisting a run take 0.7 s of
  // PGlite's thread for 500 signals); events keep the order of the run's signals.
  const stateEvents: (typeof signalEvents.$inferInsert)[] = [];
  const seen: string[] = [];
  const moved = new Map<BreakoutState, string[]>();
  for (const s of result.signals) {
    const previous = known.get(s.id);
    if (previous === undefined) {
      newSignals.push(s);
      stateEvents.push({ signalId: s.id, runId, fromState: null, toState: s.breakoutState, price: s.price, at, recordedAt: now });
    } else if (previous !== s.breakoutState) {
      changes.push({ signal: s, from: previous, to: s.breakoutState });
      moved.set(s.breakoutState, [...(moved.get(s.breakoutState) ?? []), s.id]);
      stateEvents.push({ signalId: s.id, runId, fromState: previous, toState: s.breakoutState, price: s.price, at, recordedAt: now });
    } else {
      seen.push(s.id);
    }
  }
  for (const part of runsOf(newSignals, INSERT_ROWS)) {
    await tx.insert(signals).values(
      part.map((s) => ({
        id: s.id,
        symbol: s.symbol,
        timeframe: s.timeframe,
        patternType: s.patternType,
        patternFamily: s.patternFamily,
        direction: s.direction,
        detectedAt: new Date(s.detectedAt),
        triggerPrice: s.triggerPrice,
        target1: s.target1,
        stopLoss: s.stopLoss ?? Number.NaN,
        finalScore: s.finalScore,
        confidence: s.confidence,
        scoreBand: s.scoreBand,
        trendRegime: s.trendRegime,
        reasons: s.reasons,
        geometry: s.geometry,
        source,
        firstRunId: runId,
        state: s.breakoutState,
        lastSeenRunId: runId,
        updatedAt: now,
      })),
    );
    await turn();
  }
  for (const [state, moving] of moved) {
    for (const part of runsOf(moving, ROWS_A_STATEMENT)) {
      await tx.update(signals).set({ state, lastSeenRunId: runId, updatedAt: now }).where(inArray(signals.id, part));
      await turn();
    }
  }
  for (const part of runsOf(seen, ROWS_A_STATEMENT)) {
    await tx.update(signals).set({ lastSeenRunId: runId, updatedAt: now }).where(inArray(signals.id, part));
    await turn();
  }
  for (const part of runsOf(stateEvents, INSERT_ROWS)) {
    await tx.insert(signalEvents).values(part);
    await turn();
  }
  const byId = new Map(result.signals.map((s) => [s.id, s]));
  const alerted = verdicts.candidates.map((id) => byId.get(id)).filter((s) => s !== undefined);
  if (alerted.length > 0) {
    await tx
      .insert(alerts)
      .values(alerted.map((s) => ({ signalId: s.id, symbol: s.symbol, timeframe: s.timeframe, runId, alertedAt: new Date(result.asOf) })))
      .onConflictDoNothing();
    await turn();
  }
  // The public ledger, in the same transaction: a run and what it surfaced land together or not at all.
  const noteOf = alertNotes(verdicts);
  // In slices of LEDGER_ROWS entries, each its own statements (one chain: each slice appends after the last one's head).
  const entries = [
    ...newSignals.map((s) => signalEntry(s, runId, source, result.asOf, result.regime?.regime ?? null, noteOf(s.id))),
    ...changes.map(({ signal, from, to }) => eventEntry(signal.id, runId, from, to, signal.price, result.asOf)),
  ];
  for (const part of runsOf(entries, LEDGER_ROWS)) {
    await ledger.appendIn(tx, part, segments);
    await turn();
  }
  // Last: the stream log's lock is held only for the commit.
  const events = await streamEvents.appendIn(tx, announce({ newSignals, changes }));
  return { newSignals, changes, events };
}
