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
import { TERMINAL_STATES, type AlertVerdicts, type BreakoutState, type RegimeReading, type ScanResult } from '../../domain/signal';
import type { PageRequest } from '../../pagination';
import type { Db } from '../client';
import { beyondCursor, pageOffset, pageOrder } from './keyset';
import type { LedgerRepository } from './ledger';
import type { AppendedSegment } from './ledger-feed';
import { alerts, scanRuns, signalEvents, signals, type SignalEventRow } from '../schema';
import { eventEntry } from './scan-entries';
import { saveRunIn, type RunChanges, type RunFence } from './scan-save';
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
export type { RunChanges, RunFence } from './scan-save';

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
    const segments: AppendedSegment[] = [];
    const saved = await this.db.transaction((tx) => saveRunIn(tx, { ledger: this.ledger, streamEvents: this.streamEvents, segments }, { runId, result, source, verdicts, announce, fence }));
    this.ledger.tell(segments);
    return saved;
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
    const segments: AppendedSegment[] = [];
    const events = await this.db.transaction(async (tx) => {
      for (const c of changes) {
        await tx.update(signals).set({ state: c.to, updatedAt: now }).where(eq(signals.id, c.signalId));
        await tx.insert(signalEvents).values({ signalId: c.signalId, runId, fromState: c.from, toState: c.to, price: c.price, at: c.at, recordedAt: now });
      }
      await this.ledger.appendIn(tx, changes.map((c) => eventEntry(c.signalId, runId, c.from, c.to, c.price, c.at.toISOString())), segments);
      return this.streamEvents.appendIn(tx, announce(changes));
    });
    this.ledger.tell(segments);
    return events;
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
