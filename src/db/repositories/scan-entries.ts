/**
 * @module db/repositories/scan-entries
 * The ledger records a scan writes: a newly surfaced signal (what was known when
 * it was first surfaced) and a state change. The live run (ScansRepository) and
 * the replay (jobs/replay) append the same records.
 */
import type { AlertNote, AlertVerdicts, Signal } from '../../domain/signal';
import type { LedgerEntry } from './ledger';

/**
 * The ledger record of a newly surfaced signal: what was known when it was
 * first surfaced (at bar time `surfacedAt`, in market regime `regime`), and the
 * alert policy's verdict on it then (`alert`; records written before it was
 * kept have none).
 */
export function signalEntry(s: Signal, runId: string, source: string, surfacedAt: string, regime: string | null, alert?: AlertNote): LedgerEntry {
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
      surfacedAt,
      state: s.breakoutState,
      triggerPrice: s.triggerPrice,
      target1: s.target1,
      stopLoss: s.stopLoss,
      finalScore: s.finalScore,
      scoreBand: s.scoreBand,
      confidence: s.confidence,
      reasons: s.reasons,
      trendRegime: s.trendRegime,
      regime,
      priceAtDetection: s.price,
      source,
      runId,
      ...(alert ? { alert } : {}),
    },
  };
}

/** Each signal's alert note from a run's stored verdicts (not named there: not eligible). */
export function alertNotes(verdicts: AlertVerdicts): (signalId: string) => AlertNote {
  const notes = new Map<string, AlertNote>(verdicts.candidates.map((id) => [id, { verdict: 'candidate', codes: [] }]));
  for (const b of verdicts.blocked) notes.set(b.signalId, { verdict: 'blocked', codes: [...b.codes] });
  return (id) => notes.get(id) ?? { verdict: 'not_eligible', codes: [] };
}

/** The ledger record of a state change. */
export function eventEntry(signalId: string, runId: string, from: string | null, to: string, price: number, at: string): LedgerEntry {
  return { kind: 'event', signalId, data: { from, to, price, at, runId } };
}
