/**
 * @module jobs/replay/boot
 * The replay a fresh install runs in the background on first start, so a new
 * user sees a scorecard at once (`/api/scorecard?source=replay`) instead of an
 * empty one for weeks: the last two years of the configured data source, the
 * live scan's universe, daily bars. It runs once per data source: a finished
 * boot replay is kept, an interrupted one (the server stopped mid-way) is
 * resumed with its own parameters at the next start. `REPLAY_ON_BOOT` turns it
 * on or off (default on for the synthetic market only). Instances sharing a
 * PostgreSQL database run it once between them (`bootReplayOnce`): the holder
 * of its lease runs or resumes it, the others take over only if the holder
 * stops before it is done.
 */
import { Backoff, pause } from '../../background/backoff';
import { Lease } from '../../background/lease';
import { LOCK_KEYS, type ClusterLocks } from '../../db/cluster-locks';
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

/** Runs (or resumes) the boot replay; answers whether it is done (false: stopped by `signal`). */
async function runBootReplay(deps: ReplayJobDeps, signal?: AbortSignal): Promise<boolean> {
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

/** How often an instance that does not hold the boot replay's lease looks whether it is done or needs taking over. */
const TAKE_OVER_MS = 30_000;

/**
 * The boot replay once per cluster: only the instance holding its lease runs
 * or resumes it (one resumer, not one per instance: resumed on three at once,
 * its records were written three times). The others look in every
 * `takeOverMs` and take the run over if the holder stopped before it was done;
 * a holder that loses the lease (the database restarted) stops and asks again.
 * A failure is tried again with backoff. Resolves when the replay is done
 * (by anyone) or `signal` aborts; throws nothing.
 */
export async function bootReplayOnce(deps: ReplayJobDeps & { locks: ClusterLocks }, signal: AbortSignal, options: { takeOverMs?: number } = {}): Promise<void> {
  const { log, replays, marketData } = deps;
  const lease = new Lease({ name: 'boot replay', key: LOCK_KEYS.bootReplay, locks: deps.locks, log, announce: true });
  const backoff = new Backoff({ what: 'boot replay', log, baseMs: 2_000, maxMs: 60_000 });
  try {
    while (!signal.aborted) {
      let waitMs = options.takeOverMs ?? TAKE_OVER_MS;
      try {
        if (await lease.acquire()) {
          if (await runBootReplay(deps, AbortSignal.any([signal, lease.signal]))) return;
          waitMs = 0; // stopped: by `signal` (the loop ends) or by the lease lost (asked for again)
        } else if (lease.unreachable) {
          throw new Error('the boot replay lease cannot be asked for: the database is unreachable');
        } else if ((await replays.of(marketData.provider.name, 'boot'))[0]?.status === 'done') {
          return;
        }
        backoff.succeeded();
      } catch (error) {
        waitMs = backoff.failed(error);
      }
      await pause(waitMs, signal);
      // A lease lost mid-run leaves the run resumable; a fresh term resumes it from its last committed chunk.
    }
  } finally {
    await lease.close();
  }
}
