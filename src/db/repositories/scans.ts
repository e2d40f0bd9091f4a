/**
 * @module db/repositories/scans
 * Persists scan runs and the signals they surfaced. A signal row is written
 * once (its detection-time fields never change); a later run that sees it in
 * another state moves `state` and appends the change to `signal_events`, all in
 * the run's transaction.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { ScanResult, Signal } from '../../jobs/scan';
import type { Db } from '../client';
import { scanRuns, signalEvents, signals, type ScanRunRow } from '../schema';

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
  constructor(private readonly db: Db) {}

  async saveRun(runId: string, result: ScanResult, source: string): Promise<{ newSignals: Signal[]; changes: { signal: Signal; from: string | null; to: string }[] }> {
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
      return { newSignals, changes };
    });
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
}
