/**
 * @module providers/synthetic/draws
 * The synthetic market's paths drawn in worker threads (./daily-worker), so
 * a boot pass over the universe leaves the main thread free for requests: a
 * batch of symbols split over a few threads, each symbol's paths handed back
 * as it is drawn (`onDrawn`), and, per symbol, when its batch is in (a
 * request for it waits for that rather than drawing it twice). A thread that
 * cannot start or dies resolves its part with what it drew; the rest is
 * drawn on demand.
 *
 * A symbol asked for later that nobody holds (a sector fund after a
 * restart: the boot pass draws only the scan's universe) is drawn by one
 * worker thread kept for such draws (`drawOnDemand`), so the caller's thread
 * spends none of the 5–20 ms a path takes (issue 27); the thread builds the
 * day's world once and ends after `KEPT_IDLE_MS` without a request.
 */
import type { DrawnSymbol, DrawRequest } from './daily-worker';

/**
 * The daily-path worker module. From source it sits beside this file; in the
 * executable built by `npm run build` it is an extra entrypoint embedded at
 * `$bunfs/root/src/providers/synthetic/daily-worker.ts` (see scripts/build.ts).
 */
const DAILY_WORKER = import.meta.url.includes('/$bunfs/')
  ? new URL('./src/providers/synthetic/daily-worker.ts', import.meta.url).href
  : new URL('./daily-worker.ts', import.meta.url).href;

/** How long the thread kept for draws on demand waits for the next request before it ends. */
const KEPT_IDLE_MS = 30_000;

/** A request to the kept thread, answered in the order sent (the thread handles its messages one at a time). */
interface Pending {
  request: DrawRequest;
  drawn: number;
  resolve: (drawn: number) => void;
}

export class WorkerDraws {
  /** Symbols whose paths worker threads are drawing: when their batch is in. */
  private readonly drawing = new Map<string, Promise<number>>();
  /** The thread kept for draws on demand, its requests in the order sent, and its idle timer. */
  private kept?: { worker: Worker; pending: Pending[]; idle?: ReturnType<typeof setTimeout> };

  constructor(
    private readonly seed: number,
    private readonly onDrawn: (request: DrawRequest, data: DrawnSymbol) => void,
  ) {}

  /** Whether a worker thread is drawing this symbol's paths. */
  has(symbol: string): boolean {
    return this.drawing.has(symbol);
  }

  /** Splits `symbols` over worker threads (at least 32 symbols a thread); resolves with how many they drew. */
  draw(day: string, symbols: string[], threads = 2, window?: DrawRequest['window']): Promise<number> {
    const count = Math.max(1, Math.min(threads, Math.ceil(symbols.length / 32)));
    const parts = Array.from({ length: count }, (_, k) => symbols.filter((_, i) => i % count === k));
    const done = Promise.all(parts.map((part) => this.inWorker({ seed: this.seed, day, symbols: part, window }))).then((counts) => counts.reduce((x, y) => x + y, 0));
    return this.track(symbols, done);
  }

  /**
   * Draws the daily paths of `symbols` in the thread kept for draws on
   * demand (started on first use); resolves with how many it drew (0 when it
   * cannot start or died: the rest is drawn on demand).
   */
  drawOnDemand(day: string, symbols: string[]): Promise<number> {
    if (symbols.length === 0) return Promise.resolve(0);
    const request: DrawRequest = { seed: this.seed, day, symbols };
    const done = new Promise<number>((resolve) => {
      const kept = this.keptThread();
      if (!kept) return resolve(0);
      clearTimeout(kept.idle);
      kept.pending.push({ request, drawn: 0, resolve });
      kept.worker.postMessage(request);
    });
    return this.track(symbols, done);
  }

  /** Ends the thread kept for draws on demand (its requests in flight resolve with what it drew). */
  close(): void {
    this.endKept();
  }

  /** Marks `symbols` as being drawn until `done`. */
  private track(symbols: string[], done: Promise<number>): Promise<number> {
    for (const symbol of symbols) this.drawing.set(symbol, done);
    void done.finally(() => {
      for (const symbol of symbols) if (this.drawing.get(symbol) === done) this.drawing.delete(symbol);
    });
    return done;
  }

  /** The kept thread, started if none runs; undefined when a thread cannot start. */
  private keptThread(): WorkerDraws['kept'] {
    if (this.kept) return this.kept;
    let worker: Worker;
    try {
      worker = new Worker(DAILY_WORKER);
    } catch {
      return undefined;
    }
    (worker as Worker & { unref(): void }).unref(); // an idle kept thread never holds the process open (Bun's Worker has unref; the DOM type does not)
    const kept: NonNullable<WorkerDraws['kept']> = { worker, pending: [] };
    worker.onmessage = ({ data }: MessageEvent<{ done: true } | DrawnSymbol>) => {
      const head = kept.pending[0];
      if (!head) return;
      if (!('done' in data)) {
        head.drawn++;
        return this.onDrawn(head.request, data);
      }
      kept.pending.shift();
      head.resolve(head.drawn);
      if (kept.pending.length === 0) kept.idle = setTimeout(() => this.kept === kept && this.endKept(), KEPT_IDLE_MS).unref();
    };
    // A thread that dies (its module failed, it ran out of memory) resolves what it was asked with what it drew.
    worker.addEventListener('close', () => this.kept === kept && this.endKept());
    worker.onerror = () => this.kept === kept && this.endKept();
    this.kept = kept;
    return kept;
  }

  private endKept(): void {
    const kept = this.kept;
    if (!kept) return;
    this.kept = undefined;
    clearTimeout(kept.idle);
    kept.worker.terminate();
    for (const p of kept.pending.splice(0)) p.resolve(p.drawn);
  }

  /**
   * Runs one worker over a request; resolves with how many symbols it drew
   * when it is done or has failed (what it did not draw is drawn on demand).
   */
  private inWorker(request: DrawRequest): Promise<number> {
    if (request.symbols.length === 0) return Promise.resolve(0);
    return new Promise<number>((resolve) => {
      let worker: Worker;
      try {
        worker = new Worker(DAILY_WORKER);
      } catch {
        resolve(0);
        return;
      }
      let drawn = 0;
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        worker.terminate();
        resolve(drawn);
      };
      // A thread that dies without a word (its module failed, it ran out of memory) ends the batch too: nothing waits forever.
      worker.addEventListener('close', end);
      worker.onmessage = ({ data }: MessageEvent<{ done: true } | DrawnSymbol>) => {
        if ('done' in data) return end();
        drawn++;
        this.onDrawn(request, data);
      };
      worker.onerror = end;
      worker.postMessage(request);
    });
  }

  /** Waits for a symbol's paths when worker threads are drawing them. */
  async prepared(symbol: string): Promise<void> {
    const pending = this.drawing.get(symbol);
    if (pending) await pending;
  }
}
