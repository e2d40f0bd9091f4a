/**
 * @module db/repositories/scans
 * Persists scan runs and the signals they surfaced. A signal row is written
 * once (its detection-time fields never change); a later run that sees it in
 * another state moves `state` and appends the change to `signal_events`, all in
 * the run's transaction. Rows come back typed through checked mappers
 * (domain/check): stored JSON is validated, never cast.
 */
import { and, asc, count, desc, eq, gte, inArray, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import type { ExplainableSignal } from '../../domain/explanation';
import { TERMINAL_STATES, type AlertVerdicts, type BreakoutState, type RegimeReading, type ScanResult, type Signal } from '../../domain/signal';
import type { PageRequest } from '../../pagination';
import type { Db } from '../client';
import { beyondCursor, pageOffset, pageOrder } from './keyset';
import type { LedgerRepository } from './ledger';
import { alerts, scanRuns, signalEvents, signals, type SignalEventRow } from '../schema';
import { alertNotes, eventEntry, signalEntry } from './scan-entries';
import { storedSignalId, withStoredIds } from './signal-ids';
import type { StoredStreamEvent, StreamEventInput, StreamEventsRepository } from './stream-events';
import {
  findingOf,
  historyColumns,
  historyRow,
  patternFamilyOf,
  patternTypeOf,
  persistedRun,
  regimeOf,
  runSummary,
  scoreBandOf,
  stateOf,
  storedSignal,
  summaryColumns,
  timeframeOf,
  trendRegimeOf,
  type HistoryRow,
  type PersistedRun,
  type RunSummary,
  type StoredSignal,
} from './scan-rows';

export type { HistoryRow, PersistedRun, RunSummary, StoredSignal } from './scan-rows';

/** Rows a multi-row statement: 21 bind parameters a signal row stay well under PostgreSQL's 65,535. */
const ROWS_A_STATEMENT = 1000;

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

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_A_STATEMENT) out.push(items.slice(i, i + ROWS_A_STATEMENT));
  return out;
}

/** What a persisted run surfaced: its new signals and the state changes of known ones. */
export interface RunChanges {
  newSignals: Signal[];
  changes: { signal: Signal; from: BreakoutState | null; to: BreakoutState }[];
}

/** A state change of a signal a run no longer lists (jobs/runs tracks it). */
export interface Transition {
  signalId: string;
  symbol: string;
  from: BreakoutState;
  to: BreakoutState;
  price: number;
  at: Date;
}

export class ScansRepository {
  constructor(
    private readonly db: Db,
    private readonly ledger: LedgerRepository,
    /** The realtime stream's log: what a run announces is appended in the run's transaction. */
    private readonly streamEvents: StreamEventsRepository,
  ) {}

  /**
   * Persists a run, its signals, their state changes, the alert verdicts (the
   * candidates also logged once per signal, for the cooldown), the ledger
   * records and the stream events `announce` makes of what was new, in one
   * transaction; with a `fence`, only over the head it names (undefined when
   * another run came first).
   */
  async saveRun<E extends StreamEventInput>(
    runId: string,
    result: ScanResult,
    source: string,
    verdicts: AlertVerdicts,
    announce: (written: RunChanges) => E[],
    fence?: RunFence,
  ): Promise<(RunChanges & { events: StoredStreamEvent<E>[] }) | undefined> {
    return this.db.transaction(async (tx) => {
      if (fence) {
        // One saver of the timeframe at a time across the cluster, and only over the head it scanned after.
        await tx.execute(sql`select pg_advisory_xact_lock(${String(fence.lockKey)}::bigint)`);
        const [head] = await tx.select({ id: scanRuns.id }).from(scanRuns).where(eq(scanRuns.timeframe, result.timeframe)).orderBy(desc(scanRuns.finishedAt)).limit(1);
        if ((head?.id ?? null) !== fence.head) return undefined;
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
      const ids = result.signals.map((s) => s.id);
      const known = new Map<string, BreakoutState>();
      for (const part of chunks(ids)) {
        const rows = await tx.select({ id: signals.id, state: signals.state }).from(signals).where(inArray(signals.id, part));
        for (const row of rows) known.set(row.id, stateOf(row.state, `signal ${row.id} state`));
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
      for (const part of chunks(newSignals)) {
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
      }
      for (const [state, moving] of moved) {
        for (const part of chunks(moving)) await tx.update(signals).set({ state, lastSeenRunId: runId, updatedAt: now }).where(inArray(signals.id, part));
      }
      for (const part of chunks(seen)) await tx.update(signals).set({ lastSeenRunId: runId, updatedAt: now }).where(inArray(signals.id, part));
      for (const part of chunks(stateEvents)) await tx.insert(signalEvents).values(part);
      const byId = new Map(result.signals.map((s) => [s.id, s]));
      const alerted = verdicts.candidates.map((id) => byId.get(id)).filter((s) => s !== undefined);
      if (alerted.length > 0) {
        await tx
          .insert(alerts)
          .values(alerted.map((s) => ({ signalId: s.id, symbol: s.symbol, timeframe: s.timeframe, runId, alertedAt: new Date(result.asOf) })))
          .onConflictDoNothing();
      }
      // The public ledger, in the same transaction: a run and what it surfaced land together or not at all.
      const noteOf = alertNotes(verdicts);
      await this.ledger.appendIn(tx, [
        ...newSignals.map((s) => signalEntry(s, runId, source, result.asOf, result.regime?.regime ?? null, noteOf(s.id))),
        ...changes.map(({ signal, from, to }) => eventEntry(signal.id, runId, from, to, signal.price, result.asOf)),
      ]);
      // Last: the stream log's lock is held only for the commit.
      const events = await this.streamEvents.appendIn(tx, announce({ newSignals, changes }));
      return { newSignals, changes, events };
    });
  }

  /** The scan's result with intraday signals stored under their bare ids named by them (db/repositories/signal-ids). */
  withStoredIds(result: ScanResult): Promise<ScanResult> {
    return withStoredIds(this.db, result);
  }

  /** Per symbol, the signals of a timeframe alerted at bar times within [from, to]. */
  async recentAlerts(timeframe: string, from: Date, to: Date): Promise<Map<string, Set<string>>> {
    const rows = await this.db
      .select({ symbol: alerts.symbol, signalId: alerts.signalId })
      .from(alerts)
      .where(and(eq(alerts.timeframe, timeframe), gte(alerts.alertedAt, from), lte(alerts.alertedAt, to)));
    const out = new Map<string, Set<string>>();
    for (const row of rows) {
      let ids = out.get(row.symbol);
      if (!ids) out.set(row.symbol, (ids = new Set()));
      ids.add(row.signalId);
    }
    return out;
  }

  /** The latest successful run of a timeframe, with its findings. */
  async latestRun(timeframe: string): Promise<PersistedRun | undefined> {
    const rows = await this.db
      .select()
      .from(scanRuns)
      .where(and(eq(scanRuns.timeframe, timeframe), eq(scanRuns.status, 'ok')))
      .orderBy(desc(scanRuns.finishedAt))
      .limit(1);
    return rows[0] && persistedRun(rows[0]);
  }

  async runHistory(timeframe: string, limit = 10): Promise<RunSummary[]> {
    const rows = await this.db.select(summaryColumns).from(scanRuns).where(eq(scanRuns.timeframe, timeframe)).orderBy(desc(scanRuns.finishedAt)).limit(limit);
    return rows.map(runSummary);
  }

  /**
   * Signals newest (or oldest) first by (detectedAt, id), filtered, keyset-paged:
   * `after` is the last row of the previous page; without it `offset` applies.
   * Fetches `limit + 1` rows so the caller can tell whether more exist.
   */
  async signalHistory(filter: SignalFilter, page: PageRequest): Promise<{ rows: HistoryRow[]; total: number }> {
    const conditions: SQL[] = [];
    if (filter.symbol) conditions.push(eq(signals.symbol, filter.symbol));
    if (filter.patternType) conditions.push(eq(signals.patternType, filter.patternType));
    if (filter.timeframe) conditions.push(eq(signals.timeframe, filter.timeframe));
    const where = conditions.length ? and(...conditions) : undefined;
    const query = this.db
      .select(historyColumns)
      .from(signals)
      .where(and(where, beyondCursor(signals.detectedAt, signals.id, page)))
      .orderBy(...pageOrder(signals.detectedAt, signals.id, page.order))
      .limit(page.limit + 1)
      .offset(pageOffset(page));
    const [rows, totals] = await Promise.all([query, this.db.select({ n: count() }).from(signals).where(where)]);
    return { rows: rows.map(historyRow), total: Number(totals[0]?.n ?? 0) };
  }

  /**
   * A persisted signal by id (either form: db/repositories/signal-ids): as the last run that listed it saw it (with its
   * state now), with that run's market regime and bar time; from its own row
   * when the run no longer holds it. Undefined when no such signal was ever surfaced.
   */
  async findSignal(given: string): Promise<{ signal: ExplainableSignal; regime: RegimeReading | null; asOf: string | null } | undefined> {
    const id = await storedSignalId(this.db, given);
    if (id === undefined) return undefined;
    const [row] = await this.db.select().from(signals).where(eq(signals.id, id)).limit(1);
    if (!row) return undefined;
    const stored = storedSignal(row);
    const [seen] = await this.db
      .select({
        // Only the one finding, not the run's whole list.
        finding: sql`(select f from jsonb_array_elements(${scanRuns.findings}) as f where f->>'id' = ${id} limit 1)`.mapWith(scanRuns.findings),
        regime: scanRuns.regime,
        asOf: scanRuns.asOf,
      })
      .from(scanRuns)
      .where(eq(scanRuns.id, stored.lastSeenRunId))
      .limit(1);
    const what = `scan run ${stored.lastSeenRunId}`;
    const regime = seen ? regimeOf(seen.regime ?? null, `${what} regime`) : null;
    const asOf = seen ? seen.asOf.toISOString() : null;
    if (seen?.finding) return { signal: { ...findingOf(seen.finding, `${what} finding ${id}`), breakoutState: stored.state }, regime, asOf };
    const at = `signal ${id}`;
    const fromRow: ExplainableSignal = {
      id: stored.id,
      symbol: stored.symbol,
      timeframe: timeframeOf(stored.timeframe, `${at} timeframe`),
      patternType: patternTypeOf(stored.patternType, `${at} patternType`),
      patternFamily: patternFamilyOf(stored.patternFamily, `${at} patternFamily`),
      direction: stored.direction,
      trendRegime: trendRegimeOf(stored.trendRegime, `${at} trendRegime`),
      breakoutState: stored.state,
      triggerPrice: stored.triggerPrice,
      target1: stored.target1,
      stopLoss: stored.stopLoss,
      finalScore: stored.finalScore,
      confidence: stored.confidence,
      scoreBand: scoreBandOf(stored.scoreBand, `${at} scoreBand`),
      reasons: stored.reasons,
      detectedAt: stored.detectedAt.toISOString(),
      geometry: stored.geometry,
    };
    return { signal: fromRow, regime, asOf };
  }

  /** Signals of a timeframe not in a terminal state, except those listed. */
  async openSignals(timeframe: string, except: string[]): Promise<StoredSignal[]> {
    const conditions = [eq(signals.timeframe, timeframe), notInArray(signals.state, [...TERMINAL_STATES])];
    if (except.length) conditions.push(notInArray(signals.id, except));
    return (await this.db.select().from(signals).where(and(...conditions))).map(storedSignal);
  }

  /** Moves signals to new states and appends the changes (to the ledger, and as `announce` makes them to the stream log), in one transaction. */
  async recordTransitions<E extends StreamEventInput>(runId: string, changes: Transition[], announce: (changes: Transition[]) => E[]): Promise<StoredStreamEvent<E>[]> {
    if (changes.length === 0) return [];
    const now = new Date();
    return this.db.transaction(async (tx) => {
      for (const c of changes) {
        await tx.update(signals).set({ state: c.to, updatedAt: now }).where(eq(signals.id, c.signalId));
        await tx.insert(signalEvents).values({ signalId: c.signalId, runId, fromState: c.from, toState: c.to, price: c.price, at: c.at, recordedAt: now });
      }
      await this.ledger.appendIn(tx, changes.map((c) => eventEntry(c.signalId, runId, c.from, c.to, c.price, c.at.toISOString())));
      return this.streamEvents.appendIn(tx, announce(changes));
    });
  }

  /** A stored signal by id (either form: db/repositories/signal-ids), or undefined when none was ever surfaced (links from journals and posts are checked with it). */
  async signalById(given: string): Promise<StoredSignal | undefined> {
    const id = await storedSignalId(this.db, given);
    if (id === undefined) return undefined;
    const [row] = await this.db.select().from(signals).where(eq(signals.id, id)).limit(1);
    return row && storedSignal(row);
  }

  /** The stop of each of the given signals that exists (null when it had none). */
  async stopsOf(ids: readonly string[]): Promise<Map<string, number | null>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.select({ id: signals.id, stopLoss: signals.stopLoss }).from(signals).where(inArray(signals.id, [...ids]));
    return new Map(rows.map((r) => [r.id, Number.isFinite(r.stopLoss) ? r.stopLoss : null]));
  }

  /** Each symbol's newest signal (by detectedAt, then id), any timeframe and state. */
  async latestSignalsOf(symbols: readonly string[]): Promise<Map<string, StoredSignal>> {
    if (symbols.length === 0) return new Map();
    const rows = await this.db
      .selectDistinctOn([signals.symbol])
      .from(signals)
      .where(inArray(signals.symbol, [...symbols]))
      .orderBy(signals.symbol, desc(signals.detectedAt), desc(signals.id));
    return new Map(rows.map((r) => [r.symbol, storedSignal(r)]));
  }

  /**
   * State changes (a new signal's first state included) of signals of the
   * given symbols, by event id (the order they were recorded), keyset-paged.
   */
  async eventsOfSymbols(symbols: readonly string[], filter: { timeframe?: string }, page: PageRequest): Promise<{ rows: { event: SignalEventRow; signal: StoredSignal }[]; total: number }> {
    if (symbols.length === 0) return { rows: [], total: 0 };
    const scope = and(inArray(signals.symbol, [...symbols]), filter.timeframe ? eq(signals.timeframe, filter.timeframe) : undefined);
    const [rows, totals] = await Promise.all([
      this.db
        .select({ event: signalEvents, signal: signals })
        .from(signalEvents)
        .innerJoin(signals, eq(signals.id, signalEvents.signalId))
        .where(and(scope, beyondCursor(signalEvents.id, null, page, 'number')))
        .orderBy(page.order === 'desc' ? desc(signalEvents.id) : asc(signalEvents.id))
        .limit(page.limit + 1)
        .offset(pageOffset(page)),
      this.db.select({ n: count() }).from(signalEvents).innerJoin(signals, eq(signals.id, signalEvents.signalId)).where(scope),
    ]);
    return { rows: rows.map((r) => ({ event: r.event, signal: storedSignal(r.signal) })), total: Number(totals[0]?.n ?? 0) };
  }

  /** Every recorded state change of the given signals, oldest first. */
  async eventsOf(signalIds: string[]): Promise<SignalEventRow[]> {
    if (signalIds.length === 0) return [];
    return this.db.select().from(signalEvents).where(inArray(signalEvents.signalId, signalIds)).orderBy(asc(signalEvents.id));
  }
}

export interface SignalFilter {
  symbol?: string;
  patternType?: string;
  timeframe?: string;
}
