/**
 * @module db/repositories/scans
 * Persists scan runs and the signals they surfaced. A signal row is written
 * once (its detection-time fields never change); a later run that sees it in
 * another state moves `state` and appends the change to `signal_events`, all in
 * the run's transaction.
 */
import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, notInArray, or, type SQL } from 'drizzle-orm';
import type { ScanResult, Signal } from '../../jobs/scan';
import type { Db } from '../client';
import type { LedgerEntry, LedgerRepository } from './ledger';
import { alerts, scanRuns, signalEvents, signals, type ScanRunRow, type SignalEventRow, type SignalRow } from '../schema';

export type RunSummary = Omit<ScanRunRow, 'findings' | 'regime'>;

const summaryColumns = {
  id: scanRuns.id,
  timeframe: scanRuns.timeframe,
  asOf: scanRuns.asOf,
  startedAt: scanRuns.startedAt,
  finishedAt: scanRuns.finishedAt,
  status: scanRuns.status,
  symbolsScanned: scanRuns.symbolsScanned,
  signalsFound: scanRuns.signalsFound,
  durationMs: scanRuns.durationMs,
  error: scanRuns.error,
  source: scanRuns.source,
};

export class ScansRepository {
  constructor(
    private readonly db: Db,
    private readonly ledger: LedgerRepository,
  ) {}

  /**
   * Persists a run, its signals, their state changes, the alert candidates it
   * raised (`alerted`, logged once per signal) and the ledger records, in one transaction.
   */
  async saveRun(runId: string, result: ScanResult, source: string, alerted: readonly Signal[] = []): Promise<{ newSignals: Signal[]; changes: { signal: Signal; from: string | null; to: string }[] }> {
    return this.db.transaction(async (tx) => {
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
      });
      const ids = result.signals.map((s) => s.id);
      const known = new Map<string, string>();
      for (let i = 0; i < ids.length; i += 1000) {
        const rows = await tx.select({ id: signals.id, state: signals.state }).from(signals).where(inArray(signals.id, ids.slice(i, i + 1000)));
        for (const row of rows) known.set(row.id, row.state);
      }
      const now = new Date();
      const newSignals: Signal[] = [];
      const changes: { signal: Signal; from: string | null; to: string }[] = [];
      for (const s of result.signals) {
        const previous = known.get(s.id);
        if (previous === undefined) {
          newSignals.push(s);
          await tx.insert(signals).values({
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
          });
          await tx.insert(signalEvents).values({ signalId: s.id, runId, fromState: null, toState: s.breakoutState, price: s.price, at: new Date(result.asOf), recordedAt: now });
        } else if (previous !== s.breakoutState) {
          changes.push({ signal: s, from: previous, to: s.breakoutState });
          await tx.update(signals).set({ state: s.breakoutState, lastSeenRunId: runId, updatedAt: now }).where(eq(signals.id, s.id));
          await tx.insert(signalEvents).values({ signalId: s.id, runId, fromState: previous, toState: s.breakoutState, price: s.price, at: new Date(result.asOf), recordedAt: now });
        } else {
          await tx.update(signals).set({ lastSeenRunId: runId, updatedAt: now }).where(eq(signals.id, s.id));
        }
      }
      if (alerted.length > 0) {
        await tx
          .insert(alerts)
          .values(alerted.map((s) => ({ signalId: s.id, symbol: s.symbol, timeframe: s.timeframe, runId, alertedAt: new Date(result.asOf) })))
          .onConflictDoNothing();
      }
      // The public ledger, in the same transaction: a run and what it surfaced land together or not at all.
      await this.ledger.appendIn(tx, [
        ...newSignals.map((s) => signalEntry(s, runId, source, result)),
        ...changes.map(({ signal, from, to }) => eventEntry(signal.id, runId, from, to, signal.price, result.asOf)),
      ]);
      return { newSignals, changes };
    });
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
  async latestRun(timeframe: string): Promise<ScanRunRow | undefined> {
    const rows = await this.db
      .select()
      .from(scanRuns)
      .where(and(eq(scanRuns.timeframe, timeframe), eq(scanRuns.status, 'ok')))
      .orderBy(desc(scanRuns.finishedAt))
      .limit(1);
    return rows[0];
  }

  async runHistory(timeframe: string, limit = 10): Promise<RunSummary[]> {
    return this.db.select(summaryColumns).from(scanRuns).where(eq(scanRuns.timeframe, timeframe)).orderBy(desc(scanRuns.finishedAt)).limit(limit);
  }

  /**
   * Signals newest (or oldest) first by (detectedAt, id), filtered, keyset-paged:
   * `after` is the last row of the previous page; without it `offset` applies.
   * Fetches `limit + 1` rows so the caller can tell whether more exist.
   */
  async signalHistory(filter: SignalFilter, page: { limit: number; offset: number; order: 'asc' | 'desc'; after?: [string | number, string] }): Promise<{ rows: SignalRow[]; total: number }> {
    const conditions: SQL[] = [];
    if (filter.symbol) conditions.push(eq(signals.symbol, filter.symbol));
    if (filter.patternType) conditions.push(eq(signals.patternType, filter.patternType));
    if (filter.timeframe) conditions.push(eq(signals.timeframe, filter.timeframe));
    const where = conditions.length ? and(...conditions) : undefined;
    const keyset: SQL[] = [...conditions];
    if (page.after) {
      const at = new Date(page.after[0]);
      const id = page.after[1];
      const beyond = page.order === 'desc' ? or(lt(signals.detectedAt, at), and(eq(signals.detectedAt, at), lt(signals.id, id))) : or(gt(signals.detectedAt, at), and(eq(signals.detectedAt, at), gt(signals.id, id)));
      keyset.push(beyond!);
    }
    const direction = page.order === 'desc' ? desc : asc;
    const query = this.db
      .select()
      .from(signals)
      .where(keyset.length ? and(...keyset) : undefined)
      .orderBy(direction(signals.detectedAt), direction(signals.id))
      .limit(page.limit + 1);
    const [rows, totals] = await Promise.all([page.after ? query : query.offset(page.offset), this.db.select({ n: count() }).from(signals).where(where)]);
    return { rows, total: Number(totals[0]?.n ?? 0) };
  }

  /** Signals of a timeframe not in a terminal state, except those listed. */
  async openSignals(timeframe: string, except: string[]): Promise<SignalRow[]> {
    const conditions = [eq(signals.timeframe, timeframe), notInArray(signals.state, ['target_hit', 'stopped', 'failed', 'expired'])];
    if (except.length) conditions.push(notInArray(signals.id, except));
    return this.db.select().from(signals).where(and(...conditions));
  }

  /** Moves a signal to a new state and appends the change, in one transaction per batch. */
  async recordTransitions(runId: string, changes: { signalId: string; from: string; to: string; price: number; at: Date }[]): Promise<void> {
    if (changes.length === 0) return;
    const now = new Date();
    await this.db.transaction(async (tx) => {
      for (const c of changes) {
        await tx.update(signals).set({ state: c.to, updatedAt: now }).where(eq(signals.id, c.signalId));
        await tx.insert(signalEvents).values({ signalId: c.signalId, runId, fromState: c.from, toState: c.to, price: c.price, at: c.at, recordedAt: now });
      }
      await this.ledger.appendIn(tx, changes.map((c) => eventEntry(c.signalId, runId, c.from, c.to, c.price, c.at.toISOString())));
    });
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

/** The ledger record of a newly surfaced signal: what was known when it was first surfaced. */
function signalEntry(s: Signal, runId: string, source: string, result: ScanResult): LedgerEntry {
  return {
    kind: 'signal',
    signalId: s.id,
    patternType: s.patternType,
    scoreBand: s.scoreBand,
    finalScore: s.finalScore,
    detectedAt: new Date(s.detectedAt),
    data: {
      id: s.id,
      symbol: s.symbol,
      timeframe: s.timeframe,
      patternFamily: s.patternFamily,
      patternType: s.patternType,
      direction: s.direction,
      detectedAt: s.detectedAt,
      surfacedAt: result.asOf,
      state: s.breakoutState,
      triggerPrice: s.triggerPrice,
      target1: s.target1,
      stopLoss: s.stopLoss,
      finalScore: s.finalScore,
      scoreBand: s.scoreBand,
      confidence: s.confidence,
      reasons: s.reasons,
      trendRegime: s.trendRegime,
      regime: result.regime?.regime ?? null,
      priceAtDetection: s.price,
      source,
      runId,
    },
  };
}

function eventEntry(signalId: string, runId: string, from: string | null, to: string, price: number, at: string): LedgerEntry {
  return { kind: 'event', signalId, data: { from, to, price, at, runId } };
}
