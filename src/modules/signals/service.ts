/**
 * @module modules/signals/service
 * /api/breakouts: the latest persisted scan of a timeframe (a scan runs and is
 * persisted first when none exists yet), filtered, alert-checked, ranked and
 * paginated. `asOf` replays the scan as of a date without persisting it;
 * symbols outside the universe are scanned on demand in the worker pool.
 */
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { defaultUniverse, runScan, type ScanResult, type Signal } from '../../jobs/scan';
import { paginateList, readPage } from '../../pagination';
import type { Timeframe } from '../../providers/types';
import type { Services } from '../../services';
import { ALERT_THRESHOLDS, evaluateAlerts } from './alerts';
import type { BreakoutsQuery, BreakoutsResponse } from './model';

type Deps = Pick<Services, 'marketData' | 'barStore' | 'pool' | 'scans' | 'log'>;

const inFlight = new WeakMap<Deps['scans'], Map<Timeframe, Promise<void>>>();

/** Runs a universe scan and persists it with its signals (one run per timeframe at a time). */
export function scanAndPersist(deps: Deps, timeframe: Timeframe): Promise<void> {
  let running = inFlight.get(deps.scans);
  if (!running) inFlight.set(deps.scans, (running = new Map()));
  const existing = running.get(timeframe);
  if (existing) return existing;
  const job = (async () => {
    const result = await runScan(deps, { timeframe });
    await deps.scans.saveRun(newId('run'), result, deps.marketData.provider.name);
  })().finally(() => running!.delete(timeframe));
  running.set(timeframe, job);
  return job;
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

export async function breakouts(deps: Deps, query: BreakoutsQuery): Promise<BreakoutsResponse> {
  const timeframe = (query.timeframe ?? 'daily') as Timeframe;
  const requested = query.symbols ? [...new Set(query.symbols.split(',').map((s) => s.toUpperCase()))] : undefined;
  if (requested) await Promise.all(requested.map((s) => deps.marketData.instrument(s)));

  let signals: Signal[];
  let generatedAt: string;
  let regime: ScanResult['regime'] = null;
  let asOf: string | undefined;
  if (query.asOf) {
    const asOfTs = Date.parse(`${query.asOf}T23:59:59.999Z`);
    if (Number.isNaN(asOfTs)) throw new AppError('invalid_parameter', `Query parameter 'asOf' is not a calendar date: ${query.asOf}`);
    const replay = await scanOrFail(() => runScan(deps, { timeframe, asOfTs }), deps.log);
    signals = replay.signals;
    generatedAt = replay.finishedAt;
    regime = replay.regime;
    asOf = replay.asOf;
  } else {
    let run = await deps.scans.latestRun(timeframe);
    if (!run) {
      await scanOrFail(() => scanAndPersist(deps, timeframe), deps.log);
      run = await deps.scans.latestRun(timeframe);
    }
    if (!run) throw new AppError('scan_failed', `No ${timeframe} scan could be produced`);
    signals = run.findings as Signal[];
    generatedAt = run.finishedAt.toISOString();
    regime = run.regime as ScanResult['regime'];
    asOf = run.asOf.toISOString();
    const universe = new Set(await defaultUniverse(deps.marketData));
    const outside = requested?.filter((s) => !universe.has(s)) ?? [];
    if (outside.length > 0) {
      const onDemand = await scanOrFail(() => runScan(deps, { timeframe, symbols: outside, asOfTs: run!.asOf.getTime() }), deps.log);
      signals = [...signals, ...onDemand.signals].sort((a, b) => b.finalScore - a.finalScore || a.id.localeCompare(b.id));
    }
  }
  if (requested) {
    const wanted = new Set(requested);
    signals = signals.filter((s) => wanted.has(s.symbol));
  }

  const alerts = evaluateAlerts(signals, { regime: regime?.regime ?? null });
  const page = paginateList([...signals].reverse(), readPage(query));
  const runs = await deps.scans.runHistory(timeframe, 10);
  const response: BreakoutsResponse = {
    generatedAt,
    asOf,
    regime,
    rankedSignals: page.items,
    alertCandidates: alerts.candidates,
    alertBlocked: alerts.blocked,
    alertThresholds: { ...ALERT_THRESHOLDS, earningsCheck: 'not available from this provider yet', cooldownCheck: 'not tracked yet' },
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
