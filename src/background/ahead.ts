/**
 * @module background/ahead
 * Work done ahead of the requests that would otherwise pay for it, on the
 * background loop (src/poller): a pass every interval runs the work a
 * higher layer hands over once it exists (`serve`) — the composition root
 * builds the loop with the other workers, the module that knows the work
 * (modules/transparency: the replay's figures) supplies it. Until then a pass
 * does nothing. The work is told when the loop is stopping, to end at its
 * next step rather than hold a shutdown. With a `lease`, a pass runs only on
 * the instance that takes it (once per cluster: the others skip the pass, and
 * find the work's results kept when they are asked), and ends at its next
 * step when the term is lost.
 *
 * @example
 * const ahead = new WorkAhead({ what: "the replay's figures computed ahead", log });
 * ahead.serve((stopping) => computeAhead(services, stopping));
 */
import type { Logger } from '../log';
import type { Lease } from '../db/lease';
import { PolledWorker } from '../poller';

/** How often a pass runs by default: a finished replay's figures are kept within a minute. */
const EVERY_MS = 60_000;

export class WorkAhead extends PolledWorker {
  private work: ((stopping: () => boolean) => Promise<void>) | undefined;

  private readonly lease: Lease | undefined;

  constructor(options: { what: string; log: Logger; everyMs?: number; lease?: Lease }) {
    const { lease, ...poll } = options;
    super({ everyMs: EVERY_MS, ...poll });
    this.lease = lease;
  }

  /** The work of each pass (the last one handed over). */
  serve(work: (stopping: () => boolean) => Promise<void>): void {
    this.work = work;
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.lease?.close();
  }

  protected async pass(): Promise<void> {
    const { work, lease } = this;
    if (!work) return;
    if (!lease) return void (await work(() => this.poller.stopped));
    if (!(await lease.acquire())) return;
    try {
      await work(() => this.poller.stopped || !lease.held);
    } finally {
      await lease.release();
    }
  }
}
