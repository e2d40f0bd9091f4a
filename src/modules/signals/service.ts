/**
 * @module modules/signals/service
 * /api/breakouts in two steps: which signals (jobs/runs: the latest persisted
 * run, a replay at `asOf`, plus an on-demand scan of requested symbols outside
 * the universe), then the answer's shape (filter, page, alert lists, run
 * history, rollup). Answers drawn from a persisted run alone are kept
 * serialised with that run, so polling the same view does no work.
 */
import { AppError } from '../../errors';
import type { RunSummary } from '../../db/repositories/scans';
import type { Signal } from '../../domain/signal';
import { ALERT_THRESHOLDS, alertsOfSymbols, mergeAlerts } from '../../jobs/alerts';
import { byRank, type SignalView } from '../../jobs/runs';
import { defaultUniverse } from '../../jobs/scan';
import { paginateList, readPage } from '../../pagination';
import type { Services } from '../../services';
import type { BreakoutsQuery, BreakoutsResponse } from './model';

type Deps = Pick<Services, 'marketData' | 'runs' | 'log'>;

/** Serialised answers held per persisted run at most. */
const ANSWERS_PER_RUN = 1024;

/** Runs scan work, turning an unexpected failure into the spec's 500 "scan failed". */
async function scanOrFail<T>(work: () => Promise<T>, log: Deps['log']): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    log.error('scan failed', { error: String(error), stack: (error as Error).stack });
    throw new AppError('scan_failed', 'The scan failed; the cause is in the server log');
  }
}

/** The requested symbols, upper-cased and de-duplicated; each must be known (unknown → 404). */
async function requestedSymbols(deps: Deps, query: BreakoutsQuery): Promise<string[] | undefined> {
  if (!query.symbols) return undefined;
  const requested = [...new Set(query.symbols.split(',').map((s) => s.toUpperCase()))];
  await Promise.all(requested.map((s) => deps.marketData.instrument(s)));
  return requested;
}

/**
 * Which signals: a replay at `asOf`, or the latest persisted run plus an
 * on-demand scan of requested symbols outside the universe. `answers` is the
 * persisted run's answer store when the view comes from that run alone.
 */
async function signalsFor(deps: Deps, query: BreakoutsQuery, requested: string[] | undefined): Promise<{ view: SignalView; history: RunSummary[]; answers?: Map<string, string> }> {
  const { timeframe } = query;
  if (query.asOf) {
    const view = await scanOrFail(() => deps.runs.replay(timeframe, Date.parse(`${query.asOf}T23:59:59.999Z`)), deps.log);
    return { view: requested ? only(view, requested) : view, history: await deps.runs.history(timeframe) };
  }
  const latest = await scanOrFail(() => deps.runs.current(timeframe), deps.log);
  if (!requested) return { view: latest.view, history: latest.history, answers: latest.answers };
  const universe = new Set(await defaultUniverse(deps.marketData));
  const outside = requested.filter((s) => !universe.has(s));
  const inside = only(latest.view, requested);
  if (outside.length === 0) return { view: inside, history: latest.history, answers: latest.answers };
  const onDemand = await scanOrFail(() => deps.runs.replay(timeframe, Date.parse(latest.view.asOf), outside), deps.log);
  const view = { ...inside, signals: [...inside.signals, ...onDemand.signals].sort(byRank), alerts: mergeAlerts(inside.alerts, onDemand.alerts, byRank) };
  return { view, history: latest.history };
}

/** The part of a view about `symbols`. */
function only(view: SignalView, symbols: string[]): SignalView {
  const wanted = new Set(symbols);
  return { ...view, signals: view.signals.filter((s) => wanted.has(s.symbol)), alerts: alertsOfSymbols(view.alerts, wanted) };
}

const summarize = (run: RunSummary) => ({
  id: run.id,
  timeframe: run.timeframe,
  asOf: run.asOf.toISOString(),
  startedAt: run.startedAt.toISOString(),
  finishedAt: run.finishedAt.toISOString(),
  durationMs: run.durationMs,
  symbolsScanned: run.symbolsScanned,
  signalsFound: run.signalsFound,
  status: run.status,
  source: run.source,
  staleSeries: run.staleSeries,
});

/** The answer's shape: a page of the ranking, the alert lists and thresholds, the run history, the rollup. */
function shape(deps: Deps, view: SignalView, history: RunSummary[], query: BreakoutsQuery): BreakoutsResponse {
  const { provider } = deps.marketData;
  const page = paginateList([...view.signals].reverse(), readPage(query));
  const response: BreakoutsResponse = {
    generatedAt: view.generatedAt,
    asOf: view.asOf,
    regime: view.regime,
    rankedSignals: page.items,
    alertCandidates: view.alerts.candidates,
    alertBlocked: view.alerts.blocked,
    alertThresholds: {
      ...ALERT_THRESHOLDS,
      earningsCheck: provider.earningsDates ? 'applied' : `not available from provider ${provider.name}`,
      cooldownCheck: 'applied: another signal of the symbol alerted within cooldownHours of bar time (alert log of persisted scans), or a better-ranked one in this list',
    },
    alertSummary: view.alerts.summary,
    latestPersistedRun: history[0] ? summarize(history[0]) : null,
    runHistory: history.map(summarize),
    items: page.items,
    pagination: page.pagination,
  };
  if (query.view === 'rollup') {
    const bySymbol = new Map<string, Signal[]>();
    for (const s of view.signals) bySymbol.set(s.symbol, [...(bySymbol.get(s.symbol) ?? []), s]);
    response.view = 'rollup';
    response.symbolRollups = [...bySymbol.entries()].map(([symbol, list]) => ({
      symbol,
      bestSignal: list[0],
      count: list.length,
      patterns: [...new Set(list.map((s) => s.patternType))],
    }));
  }
  return response;
}

/** /api/breakouts serialised; an answer drawn from the persisted run alone is held with that run. */
export async function breakoutsJson(deps: Deps, query: BreakoutsQuery): Promise<string> {
  const requested = await requestedSymbols(deps, query);
  const { view, history, answers } = await signalsFor(deps, query, requested);
  if (!answers) return JSON.stringify(shape(deps, view, history, query));
  const key = JSON.stringify(query);
  const hit = answers.get(key);
  if (hit) return hit;
  const body = JSON.stringify(shape(deps, view, history, query));
  if (answers.size >= ANSWERS_PER_RUN) answers.clear();
  answers.set(key, body);
  return body;
}
