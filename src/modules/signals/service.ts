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
import type { SignalView } from '../../kernels/signal-view';
import { decodeCursor, listPageMeta, paginateList, readPage, type PageMeta } from '../../pagination';
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

/** One symbol's group of the rollup view: its best signal, how many it has and of which patterns. */
interface SymbolRollup {
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

/** The ranking /api/breakouts pages through: best first. */
const ranking = (view: SignalView): Signal[] => [...view.signals].reverse();

/**
 * The page of /api/breakouts: of the ranking, or of the symbols in the rollup
 * view (issue 31: `limit` applies there too; `pagination` counts symbols,
 * `symbolRollups` is the page's groups and `rankedSignals`/`items` their best
 * signals, one per group).
 */
function pageOf(view: SignalView, query: BreakoutsQuery): { items: Signal[]; rollups?: SymbolRollup[]; pagination: PageMeta } {
  const request = readPage(query);
  if (query.view !== 'rollup') return paginateList(ranking(view), request);
  const page = paginateList(rollupsOf(view.signals).reverse(), request);
  return { items: page.items.map((r) => r.bestSignal), rollups: page.items, pagination: page.pagination };
}

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
function shape(deps: Deps, read: SignalRead<unknown>, query: BreakoutsQuery, include: ReadonlySet<RunGroup>): BreakoutsPage {
  const { view } = read;
  const page = pageOf(view, query);
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

/**
 * The run-level groups a REST page carries: those `include` names (`none`:
 * none), else all of them on the first page and none past it (issue 31: a
 * client paging through the ranking reads the run once, not per page).
 */
function includedGroups(query: Pick<BreakoutsRouteQuery, 'include' | 'cursor' | 'offset'>): ReadonlySet<RunGroup> {
  const { include } = query;
  if (include !== undefined) return new Set(RUN_GROUPS.filter((group) => include.split(',').includes(group)));
  const first = decodeCursor(query.cursor) === undefined && !query.offset;
  return first ? ALL_GROUPS : NO_GROUPS;
}

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
  return { ...shape(deps, read, query, NO_GROUPS), ...runLevel(deps, read) };
}

/** A serialised page of /api/breakouts and where it is (for its `Link`). */
export interface BreakoutsBody {
  text: string;
  pagination: PageMeta;
}

/**
 * /api/breakouts serialised (the REST body), with the run-level groups
 * `includedGroups` gives; one drawn from the persisted run alone is held with
 * that run under `key` (the fast path makes it once per query string; by
 * default the query's JSON).
 */
export async function breakoutsBody(deps: Deps, query: BreakoutsRouteQuery, key = JSON.stringify(query)): Promise<BreakoutsBody> {
  const read = await readOf(deps, query);
  const { include: _include, ...rest } = query;
  const body = () => JSON.stringify(shape(deps, read, rest, includedGroups(query)));
  // Where the page is, from the list's length alone (the held text is not read back).
  const request = readPage(query);
  const total = query.view === 'rollup' ? new Set(read.view.signals.map((s) => s.symbol)).size : read.view.signals.length;
  return { text: read.answers ? read.answers.keep(key, body) : body(), pagination: listPageMeta(total, request) };
}
