/**
 * @module jobs/replay/boot
 * The replay a fresh install runs in the background on first start, so a new
 * user sees a scorecard at once (`/api/scorecard?source=replay`) instead of an
 * empty one for weeks: the last two years of the configured data source, the
 * live scan's universe, daily bars. It runs once per data source: a finished
 * boot replay is kept, an interrupted one (the server stopped mid-way) is
 * resumed with its own parameters at the next start. `REPLAY_ON_BOOT` turns it
 * on or off (default on for the synthetic market only). Instances sharing a
 * PostgreSQL database run it once between them (background/boot-replay): the
 * holder of its lease runs or resumes it, the others take over only if the
 * holder stops before it is done.
 */
import type { ReplayParams } from '../../domain/replay';
import type { Timeframe } from '../../domain/signal';
import type { MarketData } from '../../market-data';
import { DEFAULT_BENCHMARK } from '../../providers/universe';
import { runReplay, type ReplayJobDeps } from './run';

/** The last `years` calendar years of sessions up to the benchmark's latest bar, as dates. */
export async function recentRange(marketData: MarketData, timeframe: Timeframe, years: number, benchmark = DEFAULT_BENCHMARK): Promise<{ from: string; to: string }> {
  const bars = await marketData.bars(benchmark, timeframe);
  const last = bars.ts[bars.ts.length - 1];
  if (last === undefined) throw new RangeError(`replay: ${benchmark} has no ${timeframe} bars`);
  const start = new Date(last);
  start.setUTCFullYear(start.getUTCFullYear() - years);
  return { from: start.toISOString().slice(0, 10), to: new Date(last).toISOString().slice(0, 10) };
}

/** The boot replay's parameters over the configured source. */
export async function bootReplayParams(marketData: MarketData): Promise<ReplayParams> {
  const range = await recentRange(marketData, 'daily', 2);
  return { timeframe: 'daily', ...range, universe: { kind: 'default' }, benchmark: DEFAULT_BENCHMARK };
}

/**
 * Runs (or resumes) the boot replay unless one finished already; resolves when
 * it is done or stopped. Errors are logged, never thrown (it runs unawaited).
 */
export async function bootReplay(deps: ReplayJobDeps, signal?: AbortSignal): Promise<void> {
  try {
    await runBootReplay(deps, signal);
  } catch (error) {
    deps.log.error('boot replay failed', { error: String(error) });
  }
}

/** Runs (or resumes) the boot replay; answers whether it is done (false: stopped by `signal`). Once per cluster: background/boot-replay. */
export async function runBootReplay(deps: ReplayJobDeps, signal?: AbortSignal): Promise<boolean> {
  const { replays, marketData, log } = deps;
  const [last] = await replays.of(marketData.provider.name, 'boot');
  if (last?.status === 'done') return true;
  const params = last?.params ?? (await bootReplayParams(marketData));
  let logged = 0;
  const run = await runReplay(deps, params, {
    origin: 'boot',
    signal,
    onProgress: (p) => {
      const share = Math.floor((10 * p.sessionsDone) / p.sessionsTotal);
      if (share > logged) log.info('boot replay', { runId: p.runId, sessionsDone: p.sessionsDone, sessionsTotal: p.sessionsTotal, through: p.through, signals: p.signals });
      logged = share;
    },
  });
  log.info('boot replay finished', { runId: run.id, status: run.status, signals: run.signals });
  return run.status === 'done';
}
