/**
 * A preload for the servers bench/replay-gc spawns (never loaded by the
 * server itself): each stretch the main thread worked more than 10 ms between
 * two turns of its event loop (its CPU time, process.threadCpuUsage, read by
 * a 1 ms timer as bench/loop-stretches does), and every second its heap
 * (bun:jsc heapStats: the JavaScript heap and, within it, the memory outside
 * it that the collector is told about — ArrayBuffers, the bar store) and the
 * main thread's CPU time so far, appended
 * to $REPLAY_GC_DIR/probe-PID.jsonl.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { heapStats } from 'bun:jsc';

const dir = process.env.REPLAY_GC_DIR;
if (dir) {
  const file = join(dir, `probe-${process.pid}.jsonl`);
  const cpuMs = () => {
    const { user, system } = process.threadCpuUsage();
    return (user + system) / 1000;
  };
  let last = { at: Date.now(), cpu: cpuMs() };
  setInterval(() => {
    const now = { at: Date.now(), cpu: cpuMs() };
    const worked = now.cpu - last.cpu;
    if (worked > 10) appendFileSync(file, `${JSON.stringify({ t: 'stretch', at: last.at, cpuMs: Math.round(worked * 10) / 10 })}\n`);
    last = now;
  }, 1).unref();
  setInterval(() => {
    const h = heapStats();
    appendFileSync(file, `${JSON.stringify({ t: 'heap', at: Date.now(), heapSize: h.heapSize, extra: h.extraMemorySize, objects: h.objectCount, cpuMs: cpuMs() })}\n`);
  }, 1000).unref();
}
