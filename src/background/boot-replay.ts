/**
 * @module background/boot-replay
 * The boot replay (jobs/replay/boot) once per cluster, as a background
 * worker on the one poller (src/poller): only the instance holding
 * its lease runs or resumes it (one resumer, not one per instance: resumed on
 * three at once, its records were written three times). The others look in
 * every `takeOverMs` and take the run over if the holder stopped before it
 * was done; a holder that loses the lease (the database restarted) stops and
 * asks again at once. A failure is tried again with backoff. `start` resolves
 * when the replay is done (by anyone) or the worker is stopped; nothing
 * throws.
 *
 * @example
 * const replay = new BootReplayOnce({ ...deps, locks: database.locks });
 * await replay.start(); // done, by this instance or another
 * await replay.stop();  // or: the chunk in progress is committed, the run resumes at the next start
 */
import { LOCK_KEYS, type ClusterLocks } from '../db/cluster-locks';
import { runBootReplay } from '../jobs/replay/boot';
import type { ReplayJobDeps } from '../jobs/replay/run';
import { Lease } from '../db/lease';
import { PolledWorker } from '../poller';

/** How often an instance that does not hold the boot replay's lease looks whether it is done or needs taking over. */
const TAKE_OVER_MS = 30_000;

export class BootReplayOnce extends PolledWorker {
  private readonly lease: Lease;
  private readonly stopping = new AbortController();
  private readonly finished: Promise<void>;
  private finish: () => void = () => {};

  constructor(
    private readonly deps: ReplayJobDeps & { locks: ClusterLocks },
    options: { takeOverMs?: number } = {},
  ) {
    super({ what: 'boot replay', log: deps.log, everyMs: options.takeOverMs ?? TAKE_OVER_MS, baseMs: 2_000, maxMs: 60_000 });
    this.lease = new Lease({ name: 'boot replay', key: LOCK_KEYS.bootReplay, locks: deps.locks, log: deps.log, announce: true });
    this.finished = new Promise((resolve) => (this.finish = resolve));
  }

  /** Runs, resumes or watches the boot replay; resolves when it is done (by anyone) or the worker stopped. */
  override start(): Promise<void> {
    super.start();
    return this.finished;
  }

  /** The run in progress commits its chunk and stops (it resumes at the next start); the lease is given back. */
  override async stop(): Promise<void> {
    this.stopping.abort();
    await super.stop();
    await this.done();
  }

  protected async pass(): Promise<void> {
    const { replays, marketData } = this.deps;
    if (await this.lease.acquire()) {
      if (await runBootReplay(this.deps, AbortSignal.any([this.stopping.signal, this.lease.signal]))) return void this.done();
      // Stopped: by `stop` (no pass follows) or by the lease lost (asked for again at once; the run resumes from its last committed chunk).
      void this.kick();
    } else if (this.lease.unreachable) {
      throw new Error('the boot replay lease cannot be asked for: the database is unreachable');
    } else if ((await replays.of(marketData.provider.name, 'boot'))[0]?.status === 'done') {
      void this.done();
    }
  }

  /** No pass follows; the lease is given back and `start` resolves. */
  private async done(): Promise<void> {
    void this.poller.stop(); // from inside a pass: it ends when this pass returns
    await this.lease.close();
    this.finish();
  }
}
