/**
 * @module modules/signals/service
 * /api/breakouts: the latest persisted scan of a timeframe (a scan runs and is
 * persisted first when none exists yet), filtered, alert-checked, ranked and
 * paginated. `asOf` replays the scan as of a date without persisting it;
 * symbols outside the universe are scanned on demand in the worker pool.
 */
import { AppError } from '../../errors';
import { alertsAt, ALERT_THRESHOLDS } from '../../jobs/alerts';
import { defaultUniverse, runScan, scanAndPersist, type ScanResult, type Signal } from '../../jobs/scan';
import { paginateList, readPage } from '../../pagination';
import type { Timeframe } from '../../providers/types';
import type { Services } from '../../services';
import type { BreakoutsQuery, BreakoutsResponse } from './model';

type Deps = Pick<Services, 'marketData' | 'barStore' | 'pool' | 'scans' | 'ledger' | 'log' | 'bus'>;

/**
 * The latest persisted run per timeframe, held for `LATEST_RUN_TTL_MS` so a
 * burst of requests reads the database once; a run persisted by this process
 * replaces it at once, one persisted by another instance shows within the TTL.
 */
const LATEST_RUN_TTL_MS = 1000;
type LatestRun = { run: NonNullable<Awaited<ReturnType<Deps['scans']['latestRun']>>>; history: Awaited<ReturnType<Deps['scans']['runHistory']>>; readAt: number };
const latestRuns = new WeakMap<Deps['scans'], Map<Timeframe, LatestRun>>();

async function latestRun(deps: Deps, timeframe: Timeframe): Promise<LatestRun | undefined> {
  let cache = latestRuns.get(deps.scans);
  if (!cache) latestRuns.set(deps.scans, (cache = new Map()));
  const held = cache.get(timeframe);
  if (held && Date.now() - held.readAt < LATEST_RUN_TTL_MS) return held;
  const [run, history] = await Promise.all([deps.scans.latestRun(timeframe), deps.scans.runHistory(timeframe, 10)]);
  if (!run) return undefined;
  const fresh = { run, history, readAt: Date.now() };
  cache.set(timeframe, fresh);
  return fresh;
}

async function scanOrFail<T>(work: () => Promise<T>, log: Deps['log']): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    log.error('scan failed', { error: String(error), stack: (error as Error).stack });
    throw new AppError('scan_failed', `The scan failed: ${(error as Error).message}`);
  }
}

const summarize = (run: { id: string; timeframe: string; asOf: Date; startedAt: Date; finishedAt: Date; durationMs: number; symbolsScanned: number; signalsFound: number; status: string; source: string }) => ({
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
});

/** Serialised answers per persisted run and query (bounded); a new run makes new keys. */
const answerCache = new WeakMap<Deps['scans'], Map<string, string>>();
const ANSWER_CACHE_MAX = 1024;

/**
 * `breakouts` serialised. Answers drawn only from a persisted run (no `asOf`
 * replay, no on-demand symbols) are cached by run id and query, so repeated
 * polling of the same view does no ranking, filtering or JSON work.
 */
export async function breakoutsJson(deps: Deps, query: BreakoutsQuery): Promise<string> {
  if (query.asOf) return JSON.stringify(await breakouts(deps, query));
  const latest = await latestRun(deps, (query.timeframe ?? 'daily') as Timeframe);
  if (!latest) return JSON.stringify(await breakouts(deps, query));
  let cache = answerCache.get(deps.scans);
  if (!cache) answerCache.set(deps.scans, (cache = new Map()));
  const key = `${latest.run.id}|${JSON.stringify(query)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const body = JSON.stringify(await breakouts(deps, query));
  if (cache.size >= ANSWER_CACHE_MAX) cache.clear();
  cache.set(key, body);
  return body;
}

export async function breakouts(deps: Deps, query: BreakoutsQuery): Promise<BreakoutsResponse> {
  const timeframe = (query.timeframe ?? 'daily') as Timeframe;
  const requested = query.symbols ? [...new Set(query.symbols.split(',').map((s) => s.toUpperCase()))] : undefined;
  if (requested) await Promise.all(requested.map((s) => deps.marketData.instrument(s)));

  let signals: Signal[];
  let generatedAt: string;
  let regime: ScanResult['regime'] = null;
  let asOf: string | undefined;
  let runs: Awaited<ReturnType<Deps['scans']['runHistory']>> | undefined;
  if (query.asOf) {
    const asOfTs = Date.parse(`${query.asOf}T23:59:59.999Z`);
    if (Number.isNaN(asOfTs)) throw new AppError('invalid_parameter', `Query parameter 'asOf' is not a calendar date: ${query.asOf}`);
    const replay = await scanOrFail(() => runScan(deps, { timeframe, asOfTs }), deps.log);
    signals = replay.signals;
    generatedAt = replay.finishedAt;
    regime = replay.regime;
    asOf = replay.asOf;
  } else {
    let latest = await latestRun(deps, timeframe);
    if (!latest) {
      await scanOrFail(() => scanAndPersist(deps, timeframe), deps.log);
      latestRuns.get(deps.scans)?.delete(timeframe);
      latest = await latestRun(deps, timeframe);
    }
    if (!latest) throw new AppError('scan_failed', `No ${timeframe} scan could be produced`);
    const { run } = latest;
    runs = latest.history;
    signals = run.findings as Signal[];
    generatedAt = run.finishedAt.toISOString();
    regime = run.regime as ScanResult['regime'];
    asOf = run.asOf.toISOString();
    const universe = requested ? new Set(await defaultUniverse(deps.marketData)) : undefined;
    const outside = requested?.filter((s) => !universe!.has(s)) ?? [];
    if (outside.length > 0) {
      const onDemand = await scanOrFail(() => runScan(deps, { timeframe, symbols: outside, asOfTs: run.asOf.getTime() }), deps.log);
      signals = [...signals, ...onDemand.signals].sort((a, b) => b.finalScore - a.finalScore || a.id.localeCompare(b.id));
    }
  }
  if (requested) {
    const wanted = new Set(requested);
    signals = signals.filter((s) => wanted.has(s.symbol));
  }

  const alerts = await alertsAt({ scans: deps.scans, provider: deps.marketData.provider }, timeframe, signals, regime?.regime ?? null, asOf ?? generatedAt);
  const page = paginateList([...signals].reverse(), readPage(query));
  runs ??= await deps.scans.runHistory(timeframe, 10);
  const response: BreakoutsResponse = {
    generatedAt,
    asOf,
    regime,
    rankedSignals: page.items,
    alertCandidates: alerts.candidates,
    alertBlocked: alerts.blocked,
    alertThresholds: {
      ...ALERT_THRESHOLDS,
      earningsCheck: deps.marketData.provider.earningsDates ? 'applied' : `not available from provider ${deps.marketData.provider.name}`,
      cooldownCheck: 'applied: another signal of the symbol alerted within cooldownHours of bar time (alert log of persisted scans), or a better-ranked one in this list',
    },
    alertSummary: alerts.summary,
    latestPersistedRun: runs[0] ? summarize(runs[0]) : null,
    runHistory: runs.map(summarize),
    items: page.items,
    pagination: page.pagination,
  };
  if (query.view === 'rollup') {
    const bySymbol = new Map<string, Signal[]>();
    for (const s of signals) bySymbol.set(s.symbol, [...(bySymbol.get(s.symbol) ?? []), s]);
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
