/**
 * @module poller
 * The one polling loop every background worker runs on (exports, webhook
 * deliveries, the scheduler, the boot replay, the event bus's log reads and
 * Redis reads): a pass now and then every `everyMs`, never two
 * passes at once, and a failed pass (the database away, most often) tried
 * again soon with backoff (src/backoff) rather than a whole interval
 * later. `run()` joins the pass in progress (a tick of the interval, a test
 * waiting for the work); `kick()` asks for one more pass after it (new work
 * arrived mid-pass: an export queued, an alert fired). `stop()` ends the loop
 * and waits for the pass in progress, whose own safe point the worker keeps.
 *
 * @example
 * const poller = new Poller({ what: 'export pass', log, everyMs: 30_000, pass: () => this.pass() });
 * poller.start();        // a pass now, then every 30 s
 * void poller.kick();    // new work: a pass after the one running
 * await poller.stop();   // no pass begins; the one running finishes
 */
import type { Logger } from './log';
import { Backoff } from './backoff';

export interface PollerOptions {
  /** What a pass is, for the log (`export pass`, `scheduled scan`, …). */
  what: string;
  log: Logger;
  /** The interval between passes once started; a function is asked again before each wait (the event bus reads its log more often while Redis is away). */
  everyMs: number | (() => number);
  /** The first pass comes after one interval rather than at `start` (default: at once). */
  firstAfterInterval?: boolean;
  /** The loop's timers keep no process alive by themselves (a bus a script opened and never closed). */
  unref?: boolean;
  /** One pass; a throw is a failure: another pass follows with backoff. */
  pass: () => Promise<void>;
  /** Backoff bounds after failures in a row (src/backoff's defaults: 1 s, 30 s). */
  baseMs?: number;
  maxMs?: number;
  /** Retries after a failure run only once the loop is started (a scheduler ticked by hand in tests retries nothing). */
  retryWhenStarted?: boolean;
}

export class Poller {
  private running: Promise<void> | undefined;
  private again = false;
  private interval: ReturnType<typeof setTimeout> | undefined;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private halted = false;
  private readonly backoff: Backoff;

  constructor(private readonly options: PollerOptions) {
    this.backoff = new Backoff({ what: options.what, log: options.log, baseMs: options.baseMs, maxMs: options.maxMs });
  }

  /** Whether `stop` was called: no pass begins any more. */
  get stopped(): boolean {
    return this.halted;
  }

  /** A pass now, then one every `everyMs` (a pass still running when the interval comes is joined, not doubled). */
  start(): void {
    if (this.interval || this.halted) return;
    this.tickAfterInterval();
    if (!this.options.firstAfterInterval) void this.run();
  }

  /** No pass begins from now; resolves when the one in progress has finished. */
  async stop(): Promise<void> {
    this.halted = true;
    clearTimeout(this.interval);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.running;
  }

  /** The pass in progress, or a new one; resolves when it is done (never rejects). */
  run(): Promise<void> {
    if (this.halted) return Promise.resolve();
    this.running ??= this.passes().finally(() => (this.running = undefined));
    return this.running;
  }

  /** One more pass after the one in progress (or one now); resolves when they are done. */
  kick(): Promise<void> {
    if (this.running) this.again = true;
    return this.run();
  }

  /** Asks for a pass in `ms` (a retry that falls due; the interval finds the work otherwise). */
  retryIn(ms: number): void {
    if (this.halted || (this.options.retryWhenStarted && !this.interval)) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.kick();
    }, ms);
    if (this.options.unref) timer.unref?.();
    this.timers.add(timer);
  }

  /** Forgets a run of failures without a word (the work is no longer this instance's: another holds its lease). */
  reset(): void {
    this.backoff.reset();
  }

  /** The interval's next tick: a pass (joined when one runs), then the tick after it. */
  private tickAfterInterval(): void {
    const { everyMs } = this.options;
    this.interval = setTimeout(() => {
      if (this.halted) return;
      this.tickAfterInterval();
      void this.run();
    }, typeof everyMs === 'function' ? everyMs() : everyMs);
    if (this.options.unref) this.interval.unref?.();
  }

  private async passes(): Promise<void> {
    await undefined; // the pass begins once `running` is set, so a kick from its first synchronous steps is seen
    do {
      this.again = false;
      try {
        await this.options.pass();
        this.backoff.succeeded();
      } catch (error) {
        this.retryIn(this.backoff.failed(error));
        return;
      }
    } while (this.again && !this.halted);
  }
}

/** A worker whose loop is one `Poller`: `start`, `stop` and `kick` are the poller's; `pass` is the work. */
export abstract class PolledWorker {
  protected readonly poller: Poller;

  constructor(options: Omit<PollerOptions, 'pass'>) {
    this.poller = new Poller({ ...options, pass: () => this.pass() });
  }

  /** A pass now, then one every interval (the server; tests kick by hand). */
  start(): void {
    this.poller.start();
  }

  /** No pass begins from now; resolves when the one in progress has finished. */
  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** One more pass after the one in progress (new work arrived); resolves when none is left. */
  kick(): Promise<void> {
    return this.poller.kick();
  }

  /** One pass; a throw is a failure, tried again with backoff. */
  protected abstract pass(): Promise<void>;
}
