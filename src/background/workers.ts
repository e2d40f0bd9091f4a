/**
 * @module background/workers
 * Every background loop as one `{ start, stop }` worker, and the one ordered
 * list of them the composition root builds (services `background`): the
 * server starts them from it, phase by phase as its warm-up goes, and a stop
 * (SIGTERM, or the services closing in tests) ends them from it, the last
 * started first. So start order and stop order are one list, read in both
 * directions.
 *
 * Phases, in the order the server reaches them (cli/serve):
 * - `warm-up`: before readiness; readiness waits for each start (the first
 *   health round, the vendor stream's connection).
 * - `ready`: with readiness (the pollers of queued work: webhook deliveries,
 *   exports).
 * - `after ready`: one after the other once the server is ready, each start
 *   resolving when its first round is done (the boot scans, then the boot
 *   replay), so their peaks of memory and CPU do not stack.
 *
 * @example
 * const background = new BackgroundWorkers([{ name: 'exports', phase: 'ready', start: () => jobs.start(), stop: () => jobs.stop() }]);
 * await background.start('ready');
 * await background.stop(); // the last started first; each stop begun at once, all awaited
 */

export type WorkerPhase = 'warm-up' | 'ready' | 'after ready';

export interface BackgroundWorker {
  /** What it is, for the log (`the scheduler`, `webhook deliveries`, …). */
  readonly name: string;
  readonly phase: WorkerPhase;
  /** What its start does, for the log when it is not just starting it (`the boot scans of every timeframe`). */
  readonly starting?: string;
  /** Starts the loop; resolves when its first round is done where the phase waits for it. */
  start(): void | Promise<void>;
  /** Ends the loop at its safe point; resolves when it has stopped. Called once, possibly while its start is still under way (a boot scan, the boot replay): it ends that too. */
  stop(): void | Promise<void>;
}

/** How each step is run: the server logs and times it (cli/serve `timed`, cli/shutdown `step`). */
export type WorkerStep = (name: string, work: () => void | Promise<void>) => Promise<unknown>;

const plain: WorkerStep = async (_name, work) => {
  await work();
};

export class BackgroundWorkers {
  /** Each worker's start (once begun) and stop (once begun). */
  private readonly runs = new Map<BackgroundWorker, { starting?: Promise<unknown>; stopping?: Promise<unknown> }>();
  private halted = false;

  constructor(readonly list: readonly BackgroundWorker[]) {
    for (const worker of list) this.runs.set(worker, {});
  }

  /** Whether a stop has been asked for: no worker starts any more. */
  get stopped(): boolean {
    return this.halted;
  }

  /** The workers of a phase in list order. */
  of(phase: WorkerPhase): BackgroundWorker[] {
    return this.list.filter((worker) => worker.phase === phase);
  }

  /** Starts the workers of `phase` one after the other, in list order; none once a stop was asked for. */
  async start(phase: WorkerPhase, step: WorkerStep = plain): Promise<void> {
    for (const worker of this.of(phase)) {
      const run = this.runs.get(worker)!;
      if (this.halted || run.starting) continue;
      const starting = step(worker.starting ?? worker.name, () => worker.start());
      run.starting = starting.catch(() => {});
      await starting;
    }
  }

  /**
   * Stops the workers (those of `phase` only, when given: the server stops its
   * `after ready` work first, the rest when the services close) in the reverse
   * of the list's order, which is the reverse of their start: each stop is
   * begun at once in that order (so each hears of it without waiting for the
   * others' safe points), then all are awaited. A worker never started is
   * stopped too (a loop a test drove by hand leaves no retry behind). No worker
   * starts after it; each is stopped once.
   */
  stop(options: { phase?: WorkerPhase; step?: WorkerStep } = {}): Promise<void> {
    this.halted = true;
    const step = options.step ?? plain;
    const stops = [...this.list]
      .reverse()
      .filter((worker) => options.phase === undefined || worker.phase === options.phase)
      .map((worker) => {
        const run = this.runs.get(worker)!;
        return (run.stopping ??= step(worker.name, () => stopAfter(worker, run.starting)));
      });
    return Promise.all(stops).then(() => {});
  }
}

/** The stop, then whatever of the start was still running (it ends by the stop). */
async function stopAfter(worker: BackgroundWorker, starting: Promise<unknown> | undefined): Promise<void> {
  await worker.stop();
  await starting;
}
