/**
 * @module jobs/alerts
 * DESIGN §4's alert policy (kernels/alert-policy) as a run applies it: the
 * cooldown from the alert log, earnings from the provider; and the verdicts
 * stored with a run and read back.
 */
import type { ScansRepository } from '../db/repositories/scans';
import type { AlertVerdicts, ScanResult, Signal } from '../domain/signal';
import { ALERT_THRESHOLDS, evaluateAlerts, summarize, type AlertEvaluation } from '../kernels/alert-policy';
import { tradingDaysToNext } from '../providers/calendar';
import type { MarketDataProvider } from '../providers/types';

export { ALERT_THRESHOLDS, evaluateAlerts, type AlertEvaluation, type AlertInputs, type BlockedAlert } from '../kernels/alert-policy';

/** An evaluation by signal id, to store with a persisted run. */
export function verdictsOf(evaluation: AlertEvaluation): AlertVerdicts {
  return {
    candidates: evaluation.candidates.map((s) => s.id),
    blocked: evaluation.blocked.map((b) => ({ signalId: b.signal.id, codes: b.codes, reasons: b.reasons })),
  };
}

/** Stored verdicts back over the run's signals. */
export function evaluationOf(signals: readonly Signal[], verdicts: AlertVerdicts): AlertEvaluation {
  const byId = new Map(signals.map((s) => [s.id, s]));
  const candidates = verdicts.candidates.map((id) => byId.get(id)).filter((s) => s !== undefined);
  const blocked = verdicts.blocked.flatMap((b) => {
    const signal = byId.get(b.signalId);
    return signal ? [{ signal, reasons: b.reasons, codes: b.codes }] : [];
  });
  return { candidates, blocked, summary: summarize(candidates, blocked) };
}

/** Trading days from the scan's date to each symbol's next earnings report, when the provider knows the dates. */
export function earningsDistance(provider: MarketDataProvider, asOf: string): ((symbol: string) => number | null) | undefined {
  if (!provider.earningsDates) return undefined;
  const today = asOf.slice(0, 10);
  return (symbol) => tradingDaysToNext(provider.earningsDates!(symbol), today);
}

/**
 * The alert policy for a scan's ranked signals as of its bar time `asOf`
 * (a scan just made, or a persisted run read back): earnings from the
 * provider, the cooldown from the alert log.
 */
export async function alertsAt(
  deps: { scans: Pick<ScansRepository, 'recentAlerts'>; provider: MarketDataProvider },
  { timeframe, signals, regime, asOf }: Pick<ScanResult, 'timeframe' | 'signals' | 'regime' | 'asOf'>,
): Promise<AlertEvaluation> {
  const to = new Date(asOf);
  const from = new Date(to.getTime() - ALERT_THRESHOLDS.cooldownHours * 3_600_000);
  const recentAlerts = await deps.scans.recentAlerts(timeframe, from, to);
  return evaluateAlerts(signals, { regime: regime?.regime ?? null, earningsInTradingDays: earningsDistance(deps.provider, asOf), recentAlerts });
}
