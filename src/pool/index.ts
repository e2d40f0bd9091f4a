/**
 * @module pool
 * The piscina worker pools that run kernels off the event loop, and the typed
 * `run` entry for each worker task (workers/index.ts). Tasks receive the
 * shared bar store's handle, so bars cross threads without copying; only the
 * small per-symbol results come back.
 *
 * Two lanes (issue 27). `live` — scans, health probes, request-path tasks —
 * runs on `threads` threads. `background` — the boot replay, replays, universe
 * backtests, the scorecard's record (jobs/record) — runs on a bounded share of its own
 * (`backgroundThreads`, half the live ones, at least one), started only when
 * needed, at a lower CPU priority: piscina's `niceIncrement` (a niceness of
 * 10 on those threads, @napi-rs/nice), so when the machine is busy the
 * operating system gives the event loop and the live threads the CPU first.
 * A live task therefore never queues behind background work; background
 * tasks are cut in slices of tens of milliseconds (workers/slice) so they
 * also stop within one when asked (`stopBackground`, for shutdown).
 *
 * @example
 * const pool = createPool({ threads: 2 });
 * const stats = await pool.run('prepare', { handle: store.handle(), symbols, timeframe: 'daily', asOfTs });
 * const part = await pool.run('replayScan', input, { lane: 'background', signal });
 */
import Piscina from 'piscina';
import type * as Worker from '../../workers';

type Tasks = {
  prepare: typeof Worker.prepare;
  scan: typeof Worker.scan;
  regime: typeof Worker.regime;
  track: typeof Worker.track;
  confluence: typeof Worker.confluence;
  outcomes: typeof Worker.outcomes;
  replayStats: typeof Worker.replayStats;
  replayRanks: typeof Worker.replayRanks;
  replayRegimes: typeof Worker.replayRegimes;
  replayScan: typeof Worker.replayScan;
  optionGrid: typeof Worker.optionGrid;
  forecastModel: typeof Worker.forecastModel;
  recordCuts: typeof Worker.recordCuts;
  recordMatch: typeof Worker.recordMatch;
  recordSection: typeof Worker.recordSection;
  recordConfidence: typeof Worker.recordConfidence;
  walkForward: typeof Worker.walkForward;
  backtestCrossSection: typeof Worker.backtestCrossSection;
  backtestRegimes: typeof Worker.backtestRegimes;
  backtestCandidates: typeof Worker.backtestCandidates;
  backtestEvaluate: typeof Worker.backtestEvaluate;
  ping: typeof Worker.ping;
};
export type TaskName = keyof Tasks;
export type TaskInput<K extends TaskName> = Parameters<Tasks[K]>[0];
export type TaskOutput<K extends TaskName> = ReturnType<Tasks[K]>;

/** `live`: what a request or a probe waits on; `background`: work nobody waits on at once (see the module comment). */
export type Lane = 'live' | 'background';

export interface RunOptions {
  /** Default `live`. */
  lane?: Lane;
  /** Aborts the task (a queued one is dropped; a running one's answer is discarded). */
  signal?: AbortSignal;
  /** This task's timeout, from when it is sent (default the pool's `taskTimeoutMs`). */
  timeoutMs?: number;
}

export interface LaneStats {
  threads: number;
  queued: number;
  completed: number;
  utilization: number;
}

export interface KernelPool {
  /** The live lane's threads. */
  readonly threads: number;
  /** The background lane's threads (at most; started on demand). */
  readonly backgroundThreads: number;
  run<K extends TaskName>(task: K, input: TaskInput<K>, options?: RunOptions): Promise<TaskOutput<K>>;
  /** The live lane's tasks waiting, completed so far, and the share of thread time spent on tasks since start (0–1), and the background lane's (for health, metrics and benches). */
  stats(): { queued: number; completed: number; utilization: number; background: LaneStats };
  /** A task through a live worker thread: resolves when one answers, rejects naming why not (the health check). */
  ping(): Promise<void>;
  /**
   * Refuses background tasks from now on and drops the queued ones (their
   * callers get an AbortError); resolves once the running ones — a slice
   * each — have ended. For shutdown.
   */
  stopBackground(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * The worker module. From source it sits at workers/index.ts; in the executable
 * built by `npm run build` it is an extra entrypoint embedded beside the main
 * module (Bun's standalone-executable workers), at `$bunfs/root/workers/index.ts`.
 */
const WORKER = import.meta.url.includes('/$bunfs/')
  ? new URL('./workers/index.ts', import.meta.url).href
  : new URL('../../workers/index.ts', import.meta.url).href;

export interface PoolOptions {
  threads: number;
  /** The background lane's threads; default half the live ones, at least one. */
  backgroundThreads?: number;
  /** Start every thread now (the server) rather than on first use (tests, CLI). */
  warm?: boolean;
  /** A task still unanswered after this long fails (a stuck or dead worker never hangs a request). Default 30 s. */
  taskTimeoutMs?: number;
  onError?: (error: unknown) => void;
  /** The worker module's URL (tests: a module whose task crashes its thread). Default: workers/index.ts. */
  worker?: string;
  /** The background lane's niceness (default 10). In-process tests take 0: their replays must not wait for every other process on a busy machine. */
  backgroundNice?: number;
}

/** The background lane's niceness (Linux: 0–19; higher yields the CPU to the rest of the process). */
const BACKGROUND_NICE = 10;

export function createPool({ threads, backgroundThreads = Math.max(1, Math.floor(threads / 2)), warm = false, taskTimeoutMs = 30_000, onError, worker = WORKER, backgroundNice = BACKGROUND_NICE }: PoolOptions): KernelPool {
  // A thread that dies mid-task fails that task ("worker exited with code …"; a 500 to its request) and
  // piscina starts another in its place: the pool stays up.
  const live = new Piscina({ filename: worker, minThreads: warm ? threads : 0, maxThreads: threads, idleTimeout: 60_000 });
  const background = new Piscina({ filename: worker, minThreads: 0, maxThreads: backgroundThreads, idleTimeout: 30_000, niceIncrement: backgroundNice });
  // A worker that cannot start must not take the server down: the error is
  // reported, and later tasks fail at once instead of waiting on a dead pool.
  let broken: Error | undefined;
  for (const piscina of [live, background]) {
    piscina.on('error', (error) => {
      broken = error instanceof Error ? error : new Error(String(error));
      onError?.(error);
    });
  }
  let backgroundStopped = false;
  const running = new Set<Promise<unknown>>();
  const stopping = new AbortController();
  const laneStats = (piscina: Piscina, n: number): LaneStats => ({ threads: n, queued: piscina.queueSize, completed: piscina.completed, utilization: piscina.utilization });
  return {
    threads,
    backgroundThreads,
    run(task, input, options = {}) {
      if (broken) return Promise.reject(new Error(`worker pool unavailable: ${broken.message}`));
      const timeout = AbortSignal.timeout(options.timeoutMs ?? taskTimeoutMs);
      if (options.lane !== 'background') return live.run(input, { name: task, signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout });
      if (backgroundStopped) return Promise.reject(new DOMException('the background lane is stopped (shutting down)', 'AbortError'));
      const signals = [timeout, stopping.signal, ...(options.signal ? [options.signal] : [])];
      const answer = background.run(input, { name: task, signal: AbortSignal.any(signals) });
      running.add(answer);
      void answer.then(
        () => running.delete(answer),
        () => running.delete(answer),
      );
      return answer;
    },
    stats: () => ({ ...laneStats(live, threads), background: laneStats(background, backgroundThreads) }),
    async ping() {
      if (broken) throw new Error(`worker pool unavailable: ${broken.message}`);
      const answer = await live.run({}, { name: 'ping', signal: AbortSignal.timeout(taskTimeoutMs) });
      if (answer !== 'pong') throw new Error(`worker answered ${String(answer)}`);
    },
    async stopBackground() {
      backgroundStopped = true;
      // Queued tasks are dropped at once; a running one's thread ends its slice, then takes no other.
      stopping.abort(new DOMException('the background lane is stopped (shutting down)', 'AbortError'));
      await Promise.allSettled([...running]);
    },
    async destroy() {
      await Promise.all([live.destroy(), background.destroy()]);
    },
  };
}

/** Splits `items` into `parts` nearly equal consecutive batches (no empty ones). */
export function batches<T>(items: readonly T[], parts: number): T[][] {
  const n = Math.max(1, Math.min(parts, items.length));
  const size = Math.ceil(items.length / n);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `work` over `items` with at most `concurrency` under way at once; the results in the items' order. */
export async function inTurn<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return out;
}
