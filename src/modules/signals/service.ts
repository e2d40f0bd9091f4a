/**
 * @module modules/signals/service
 * /api/breakouts: the answer's shape (a page of the ranking, the alert lists
 * and thresholds, the run history, the rollup) over what the signals read
 * model (jobs/signal-reads) says a reader sees. The REST body drawn from the
 * persisted run alone is held with that run by the read model, so polling
 * the same view does no work; GraphQL takes the same answer as a value.
 */
import type { RunSummary } from '../../db/repositories/scans';
import type { Signal } from '../../domain/signal';
import { ALERT_THRESHOLDS } from '../../jobs/alerts';
import type { SignalRead } from '../../jobs/signal-reads';
import type { SignalView } from '../../kernels/signal-view';
import { paginateList, readPage } from '../../pagination';
import type { Services } from '../../services';
import type { BreakoutsQuery, BreakoutsResponse } from './model';

type Deps = Pick<Services, 'marketData' | 'signals'>;

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

/** The ranking /api/breakouts pages through: best first. */
const ranking = (view: SignalView): Signal[] => [...view.signals].reverse();

/** What /api/breakouts reads for `query`: its timeframe, narrowed to its symbols (upper-cased, each once) and its date. */
function readOf(deps: Deps, { timeframe, symbols, asOf }: Pick<BreakoutsQuery, 'symbols' | 'timeframe' | 'asOf'>): Promise<SignalRead<string>> {
  return deps.signals.read(timeframe, { symbols: symbols ? [...new Set(symbols.split(',').map((s) => s.toUpperCase()))] : undefined, asOf });
}

/** The signals of /api/breakouts for `query` (symbols, timeframe, asOf) in the order its default page lists them (best first), unpaged (GraphQL's connection pages them). */
export async function rankedSignals(deps: Deps, query: Pick<BreakoutsQuery, 'symbols' | 'timeframe' | 'asOf'>): Promise<Signal[]> {
  return [...(await readOf(deps, query)).view.signals]; // ranked best first (byRank)
}

/**
 * /api/breakouts for `query`: the read model's read, and the answer shaped
 * from what it returned, when asked (`shaped`) — a page of the ranking, the
 * alert lists and thresholds, the run history, the rollup. The answers held
 * with the read's run come along, so a body held there is not shaped again.
 */
async function answerOf(deps: Deps, query: BreakoutsQuery): Promise<{ shaped: () => BreakoutsResponse; answers?: SignalRead<string>['answers'] }> {
  const { view, history, answers } = await readOf(deps, query);
  const shaped = (): BreakoutsResponse => {
    const page = paginateList(ranking(view), readPage(query));
    const { provider } = deps.marketData;
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
  };
  return { shaped, answers };
}

/** /api/breakouts as a value (GraphQL's `breakouts`). */
export async function breakouts(deps: Deps, query: BreakoutsQuery): Promise<BreakoutsResponse> {
  return (await answerOf(deps, query)).shaped();
}

/**
 * /api/breakouts serialised (the REST body); one drawn from the persisted run
 * alone is held with that run under `key` (the fast path makes it once per
 * query string; by default the query's JSON).
 */
export async function breakoutsBody(deps: Deps, query: BreakoutsQuery, key = JSON.stringify(query)): Promise<string> {
  const { shaped, answers } = await answerOf(deps, query);
  const body = () => JSON.stringify(shaped());
  return answers ? answers.keep(key, body) : body();
}
