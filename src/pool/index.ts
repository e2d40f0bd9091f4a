/**
 * @module pool
 * The piscina worker pool that runs scan kernels off the event loop, and the
 * typed `run` entry for each worker task (workers/index.ts). Tasks receive the
 * shared bar store's handle, so bars cross threads without copying; only the
 * small per-symbol results come back.
 *
 * @example
 * const pool = createPool({ threads: 2 });
 * const stats = await pool.run('prepare', { handle: store.handle(), symbols, timeframe: 'daily', asOfTs });
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
  recordCuts: typeof Worker.recordCuts;
  recordMatch: typeof Worker.recordMatch;
  recordSection: typeof Worker.recordSection;
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

export interface KernelPool {
  readonly threads: number;
  run<K extends TaskName>(task: K, input: TaskInput<K>): Promise<TaskOutput<K>>;
  /** Tasks waiting, completed so far, and the share of thread time spent on tasks since start (0–1) (for health, metrics and benches). */
  stats(): { queued: number; completed: number; utilization: number };
  /** A task through a worker thread: resolves when one answers, rejects naming why not (the health check). */
  ping(): Promise<void>;
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
  /** Start every thread now (the server) rather than on first use (tests, CLI). */
  warm?: boolean;
  /** A task still unanswered after this long fails (a stuck or dead worker never hangs a request). Default 30 s. */
  taskTimeoutMs?: number;
  onError?: (error: unknown) => void;
  /** The worker module's URL (tests: a module whose task crashes its thread). Default: workers/index.ts. */
  worker?: string;
}

export function createPool({ threads, warm = false, taskTimeoutMs = 30_000, onError, worker = WORKER }: PoolOptions): KernelPool {
  // A thread that dies mid-task fails that task ("worker exited with code …"; a 500 to its request) and
  // piscina starts another in its place: the pool stays up.
  const piscina = new Piscina({ filename: worker, minThreads: warm ? threads : 0, maxThreads: threads, idleTimeout: 60_000 });
  // A worker that cannot start must not take the server down: the error is
  // reported, and later tasks fail at once instead of waiting on a dead pool.
  let broken: Error | undefined;
  piscina.on('error', (error) => {
    broken = error instanceof Error ? error : new Error(String(error));
    onError?.(error);
  });
  return {
    threads,
    run: (task, input) =>
      broken
        ? Promise.reject(new Error(`worker pool unavailable: ${broken.message}`))
        : piscina.run(input, { name: task, signal: AbortSignal.timeout(taskTimeoutMs) }),
    stats: () => ({ queued: piscina.queueSize, completed: piscina.completed, utilization: piscina.utilization }),
    async ping() {
      if (broken) throw new Error(`worker pool unavailable: ${broken.message}`);
      const answer = await piscina.run({}, { name: 'ping', signal: AbortSignal.timeout(taskTimeoutMs) });
      if (answer !== 'pong') throw new Error(`worker answered ${String(answer)}`);
    },
    destroy: () => piscina.destroy(),
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
