/**
 * @module kernels/signal-view
 * Signals as one scan saw them: the ranked list with the alert policy's
 * verdicts (a persisted run's, read back, or those of a scan made for a
 * read), and the two ways a read combines views — the part about some
 * symbols, and two views of disjoint symbols ranked as one. Pure: every rule
 * of the policy reads one signal or one symbol (kernels/alert-policy), so a
 * part or a join of views carries the verdicts a scan of those symbols gives.
 *
 * @example
 * const view = joined(narrowed(run.view, ['AAPL', 'XLK']), onDemand); // XLK scanned beside the run
 */
import type { RegimeReading, Signal, Timeframe } from '../domain/signal';
import { summarize, type AlertEvaluation } from './alert-policy';

/** Signals as one scan saw them, ranked, with the alert policy's evaluation. */
export interface SignalView {
  timeframe: Timeframe;
  /** Bar time the scan stood on. */
  asOf: string;
  /** When the scan finished. */
  generatedAt: string;
  regime: RegimeReading | null;
  signals: Signal[];
  alerts: AlertEvaluation;
}

/** Ranking order of signals: finalScore, best first, then id. */
export const byRank = (a: Signal, b: Signal) => b.finalScore - a.finalScore || a.id.localeCompare(b.id);

/**
 * The part of an evaluation that concerns `symbols`. Every rule of the policy
 * reads one signal or one symbol, so this equals evaluating those symbols'
 * signals alone.
 */
export function alertsOfSymbols(evaluation: AlertEvaluation, symbols: ReadonlySet<string>): AlertEvaluation {
  const candidates = evaluation.candidates.filter((s) => symbols.has(s.symbol));
  const blocked = evaluation.blocked.filter((b) => symbols.has(b.signal.symbol));
  return { candidates, blocked, summary: summarize(candidates, blocked) };
}

/** Two evaluations of disjoint symbols as one, in rank order (`byRank`). */
export function mergeAlerts(a: AlertEvaluation, b: AlertEvaluation): AlertEvaluation {
  const candidates = [...a.candidates, ...b.candidates].sort(byRank);
  const blocked = [...a.blocked, ...b.blocked].sort((x, y) => byRank(x.signal, y.signal));
  return { candidates, blocked, summary: summarize(candidates, blocked) };
}

/** The part of a view about `symbols`. */
export function narrowed(view: SignalView, symbols: readonly string[]): SignalView {
  const wanted = new Set(symbols);
  return { ...view, signals: view.signals.filter((s) => wanted.has(s.symbol)), alerts: alertsOfSymbols(view.alerts, wanted) };
}

/** Two views of disjoint symbols at one bar (a run's part and an on-demand scan beside it) ranked as one, their verdicts merged; the first's run fields stay. */
export function joined(first: SignalView, second: SignalView): SignalView {
  return { ...first, signals: [...first.signals, ...second.signals].sort(byRank), alerts: mergeAlerts(first.alerts, second.alerts) };
}
