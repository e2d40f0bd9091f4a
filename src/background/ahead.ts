/**
 * @module background/ahead
 * Work done ahead of the requests that would otherwise pay for it, on the
 * background loop (background/poller): a pass every interval runs the work a
 * higher layer hands over once it exists (`serve`) — the composition root
 * builds the loop with the other workers, the module that knows the work
 * (modules/transparency: the replay's figures) supplies it. Until then a pass
 * does nothing. The work is told when the loop is stopping, to end at its
 * next step rather than hold a shutdown.
 *
 * @example
 * const ahead = new WorkAhead({ what: "the replay's figures computed ahead", log });
 * ahead.serve((stopping) => computeAhead(services, stopping));
 */
import type { Logger } from '../log';
import { PolledWorker } from './poller';

/** How often a pass runs by default: a finished replay's figures are kept within a minute. */
const EVERY_MS = 60_000;

export class WorkAhead extends PolledWorker {
  private work: ((stopping: () => boolean) => Promise<void>) | undefined;

  constructor(options: { what: string; log: Logger; everyMs?: number }) {
    super({ everyMs: EVERY_MS, ...options });
  }

  /** The work of each pass (the last one handed over). */
  serve(work: (stopping: () => boolean) => Promise<void>): void {
    this.work = work;
  }

  protected async pass(): Promise<void> {
    await this.work?.(() => this.poller.stopped);
  }
}
