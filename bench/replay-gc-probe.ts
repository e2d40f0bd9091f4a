/**
 * A preload for the servers bench/replay-gc spawns (never loaded by the
 * server itself), beside bench/loop-stretches (the main thread's stretches):
 * every second the heap (bun:jsc heapStats: the JavaScript heap and, within
 * it, the memory outside it that the collector is told about — ArrayBuffers,
 * the shared bar store) and the main thread's CPU time so far
 * (process.threadCpuUsage), appended to $REPLAY_GC_DIR/heap-PID.jsonl.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { heapStats } from 'bun:jsc';

const dir = process.env.REPLAY_GC_DIR;
if (dir) {
  const file = join(dir, `heap-${process.pid}.jsonl`);
  setInterval(() => {
    const h = heapStats();
    const { user, system } = process.threadCpuUsage();
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), heapSize: h.heapSize, extra: h.extraMemorySize, objects: h.objectCount, cpuMs: (user + system) / 1000 })}\n`);
  }, 1000).unref();
}
