/**
 * @module ratelimit/memory
 * The in-process fixed-window store (the default). JavaScript runs `hit` to the
 * end before any other request is served, so the count is exact under any
 * concurrency within one process.
 */
import { decide, windowOf, type HitOptions, type RateLimitDecision, type RateLimitStore } from './interface';

interface Counter {
  windowStart: number;
  /** When the window ends (buckets of different window lengths share the map). */
  windowEnd: number;
  count: number;
}

/** How often past windows are dropped, at most. */
const SWEEP_EVERY_MS = 1000;

export class MemoryRateLimitStore implements RateLimitStore {
  readonly name = 'memory';
  private readonly counters = new Map<string, Counter>();
  private lastSweep = 0;

  hit(key: string, quota: number, windowMs: number, options?: HitOptions): RateLimitDecision {
    const now = options?.now ?? Date.now();
    const { start, resetMs } = windowOf(now, windowMs);
    this.sweep(now);
    let counter = this.counters.get(key);
    if (!counter || counter.windowStart !== start) {
      counter = { windowStart: start, windowEnd: start + windowMs, count: 0 };
      this.counters.set(key, counter);
    }
    counter.count += options?.cost ?? 1;
    return decide(counter.count, quota, resetMs);
  }

  peek(key: string, quota: number, windowMs: number, now = Date.now()): RateLimitDecision {
    const { start, resetMs } = windowOf(now, windowMs);
    const counter = this.counters.get(key);
    return decide(counter?.windowStart === start ? counter.count : 0, quota, resetMs);
  }

  /**
   * Drops counters whose window has ended, at most once a second, so memory
   * stays bounded by active clients. Each counter keeps its own window's end:
   * buckets with longer windows (a posting rate per hour) live beside the
   * per-minute ones and are not dropped with them.
   */
  private sweep(now: number): void {
    if (Math.abs(now - this.lastSweep) < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [key, counter] of this.counters) {
      if (counter.windowEnd <= now) this.counters.delete(key);
    }
  }

  async ping(): Promise<void> {}
  async degradation(): Promise<string | null> {
    return null;
  }
  async close(): Promise<void> {
    this.counters.clear();
  }
}
