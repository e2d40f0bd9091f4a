/**
 * @module modules/signals/service
 * /api/breakouts: the answer's shape (a page of the ranking or of the
 * per-symbol rollup, the alert lists and thresholds, the run history) over
 * what the signals read model (jobs/signal-reads) says a reader sees. The
 * REST body drawn from the persisted run alone is held with that run by the
 * read model, so polling the same view does no work; GraphQL takes the same
 * answer as a value, with every run-level field.
 */
import type { RunSummary } from '../../db/repositories/scans';
import type { Signal } from '../../domain/signal';
import { ALERT_THRESHOLDS } from '../../jobs/alerts';
import type { SignalRead } from '../../jobs/signal-reads';
import { pagedCount, pageOfView, type ViewPage } from '../../kernels/signal-view';
import { isFirstPage, listPageMeta, readPage, type PageMeta } from '../../pagination';
import type { Services } from '../../services';
import { RUN_GROUPS, type BreakoutsPage, type BreakoutsQuery, type BreakoutsResponse, type BreakoutsRouteQuery, type RunGroup } from './model';

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

/** What a page says of itself; the rest of BreakoutsResponse is run-level. */
type RunLevel = Omit<BreakoutsResponse, 'generatedAt' | 'rankedSignals' | 'view' | 'symbolRollups' | 'asOf' | 'items' | 'pagination'>;

/** The run-level fields: what the scan says as a whole, the same on every page. */
function runLevel(deps: Deps, { view, history }: SignalRead<unknown>): RunLevel {
  const { provider } = deps.marketData;
  return {
    regime: view.regime,
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
  };
}

/**
 * A page with the run-level groups `include` names. The spec's required keys
 * (generatedAt, rankedSignals) and the envelope are on every page; the keys
 * keep the order they always had.
 */
function shape(deps: Deps, read: SignalRead<unknown>, page: ViewPage, include: ReadonlySet<RunGroup>): BreakoutsPage {
  const { view } = read;
  const run = runLevel(deps, read);
  return {
    generatedAt: view.generatedAt,
    asOf: view.asOf,
    ...(include.has('regime') ? { regime: run.regime } : {}),
    rankedSignals: page.items,
    ...(include.has('alerts') ? { alertCandidates: run.alertCandidates, alertBlocked: run.alertBlocked, alertThresholds: run.alertThresholds, alertSummary: run.alertSummary } : {}),
    ...(include.has('runs') ? { latestPersistedRun: run.latestPersistedRun, runHistory: run.runHistory } : {}),
    items: page.items,
    pagination: page.pagination,
    ...(page.rollups ? { view: 'rollup' as const, symbolRollups: page.rollups } : {}),
  };
}

const ALL_GROUPS: ReadonlySet<RunGroup> = new Set(RUN_GROUPS);
const NO_GROUPS: ReadonlySet<RunGroup> = new Set();

/** What /api/breakouts reads for `query`: its timeframe, narrowed to its symbols (upper-cased, each once) and its date. */
function readOf(deps: Deps, { timeframe, symbols, asOf }: Pick<BreakoutsQuery, 'symbols' | 'timeframe' | 'asOf'>): Promise<SignalRead<string>> {
  return deps.signals.read(timeframe, { symbols: symbols ? [...new Set(symbols.split(',').map((s) => s.toUpperCase()))] : undefined, asOf });
}

/** The signals of /api/breakouts for `query` (symbols, timeframe, asOf) in the order its default page lists them (best first), unpaged (GraphQL's connection pages them). */
export async function rankedSignals(deps: Deps, query: Pick<BreakoutsQuery, 'symbols' | 'timeframe' | 'asOf'>): Promise<Signal[]> {
  return [...(await readOf(deps, query)).view.signals]; // ranked best first (byRank)
}

/** /api/breakouts as a value, every field present (GraphQL's `breakouts`: its client selects the fields it reads). */
export async function breakouts(deps: Deps, query: BreakoutsQuery): Promise<BreakoutsResponse> {
  const read = await readOf(deps, query);
  return { ...shape(deps, read, pageOfView(read.view, query), NO_GROUPS), ...runLevel(deps, read) };
}

/** A serialised page of /api/breakouts and where it is (for its `Link`). */
export interface BreakoutsBody {
  text: string;
  pagination: PageMeta;
}

/**
 * /api/breakouts serialised (the REST body), with the run-level groups
 * `include` names — else all of them on the first page and none past it
 * (issue 31: a client paging through the ranking reads the run once, not per
 * page); one drawn from the persisted run alone is held with that run under
 * `key` (the fast path makes it once per query string; by default the
 * query's JSON).
 *
 * The read comes first and everything after it works on values (the page of
 * the view, the groups), so the query goes one way down: read model, view,
 * pagination.
 */
export async function breakoutsBody(deps: Deps, query: BreakoutsRouteQuery, key = JSON.stringify(query)): Promise<BreakoutsBody> {
  const read = await readOf(deps, query);
  const body = () => {
    const page = pageOfView(read.view, query);
    const { include } = query;
    const groups = include !== undefined ? new Set(RUN_GROUPS.filter((group) => include.split(',').includes(group))) : isFirstPage(query) ? ALL_GROUPS : NO_GROUPS;
    return JSON.stringify(shape(deps, read, page, groups));
  };
  // Where the page is, from the list's length alone (the held text is not read back).
  const pagination = listPageMeta(pagedCount(read.view, query.view === 'rollup'), readPage(query));
  return { text: read.answers ? read.answers.keep(key, body) : body(), pagination };
}
