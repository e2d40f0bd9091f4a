/**
 * @module providers/synthetic/draws
 * The synthetic market's paths drawn in worker threads (./daily-worker), so
 * a boot pass over the universe leaves the main thread free for requests: a
 * batch of symbols split over a few threads, each symbol's paths handed back
 * as it is drawn (`onDrawn`), and, per symbol, when its batch is in (a
 * request for it waits for that rather than drawing it twice). A thread that
 * cannot start or dies resolves its part with what it drew; the rest is
 * drawn on demand.
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

export class WorkerDraws {
  /** Symbols whose paths worker threads are drawing: when their batch is in. */
  private readonly drawing = new Map<string, Promise<number>>();

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
    for (const symbol of symbols) this.drawing.set(symbol, done);
    void done.finally(() => {
      for (const symbol of symbols) if (this.drawing.get(symbol) === done) this.drawing.delete(symbol);
    });
    return done;
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
