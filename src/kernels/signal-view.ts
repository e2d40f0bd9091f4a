/**
 * @module kernels/signal-view
 * Signals as one scan saw them: the ranked list with the alert policy's
 * verdicts (a persisted run's, read back, or those of a scan made for a
 * read), and the two ways a read combines views — the part about some
 * symbols, and two views of disjoint symbols ranked as one — and a page of
 * a view, of its ranking or of its per-symbol rollup. Pure: every rule
 * of the policy reads one signal or one symbol (kernels/alert-policy), so a
 * part or a join of views carries the verdicts a scan of those symbols gives.
 *
 * @example
 * const view = joined(narrowed(run.view, ['AAPL', 'XLK']), onDemand); // XLK scanned beside the run
 */
import type { RegimeReading, Signal, Timeframe } from '../domain/signal';
import { paginateList, readPage, type PageMeta } from '../pagination';
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

/** One symbol's group of the rollup view: its best signal, how many it has and of which patterns. */
export interface SymbolRollup {
  symbol: string;
  bestSignal: Signal;
  count: number;
  patterns: string[];
}

/** The rollup view: one group per symbol, in the order of each symbol's best signal (best first, as `signals` is ranked). */
function rollupsOf(signals: readonly Signal[]): SymbolRollup[] {
  const bySymbol = new Map<string, Signal[]>();
  for (const s of signals) {
    const list = bySymbol.get(s.symbol);
    if (list) list.push(s);
    else bySymbol.set(s.symbol, [s]);
  }
  return [...bySymbol.entries()].map(([symbol, list]) => ({ symbol, bestSignal: list[0]!, count: list.length, patterns: [...new Set(list.map((s) => s.patternType))] }));
}

/** A page of a view: its signals, and in the rollup view the groups they are the best of. */
export interface ViewPage {
  items: Signal[];
  rollups?: SymbolRollup[];
  pagination: PageMeta;
}

/**
 * The page `query` asks of a view: of its ranking (best first by default),
 * or of its symbols in the rollup view (issue 31: `limit` applies there too;
 * `pagination` counts symbols, `items` are the page's groups' best signals,
 * one per group).
 */
export function pageOfView(view: SignalView, query: Parameters<typeof readPage>[0] & { view?: string }): ViewPage {
  const request = readPage(query);
  // paginateList takes the list ascending and reads `desc` from its end: the ranking reversed.
  if (query.view !== 'rollup') return paginateList([...view.signals].reverse(), request);
  const page = paginateList(rollupsOf(view.signals).reverse(), request);
  return { items: page.items.map((r) => r.bestSignal), rollups: page.items, pagination: page.pagination };
}

/** How many entries `pageOfView` pages through: signals, or symbols in the rollup view. */
export function pagedCount(view: SignalView, rollup: boolean): number {
  return rollup ? new Set(view.signals.map((s) => s.symbol)).size : view.signals.length;
}
