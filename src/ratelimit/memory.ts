/**
 * @module ratelimit/memory
 * The in-process fixed-window store (the default). JavaScript runs `hit` to the
 * end before any other request is served, so the count is exact under any
 * concurrency within one process.
 */
import { decide, windowOf, type HitOptions, type RateLimitDecision, type RateLimitStore } from './interface';

interface Counter {
  windowStart: number;
  count: number;
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly name = 'memory';
  private readonly counters = new Map<string, Counter>();
  private lastSweep = 0;

  hit(key: string, quota: number, windowMs: number, options?: HitOptions): RateLimitDecision {
    const { start, resetMs } = windowOf(options?.now ?? Date.now(), windowMs);
    this.sweep(start);
    let counter = this.counters.get(key);
    if (!counter || counter.windowStart !== start) {
      counter = { windowStart: start, count: 0 };
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

  /** Drops counters of past windows, at most once per window, so memory stays bounded by active clients. */
  private sweep(currentStart: number): void {
    if (currentStart === this.lastSweep) return;
    this.lastSweep = currentStart;
    for (const [key, counter] of this.counters) {
      if (counter.windowStart < currentStart) this.counters.delete(key);
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
