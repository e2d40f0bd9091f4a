/**
 * A preload for a server bench/stall spawns with `--cpu-prof DIR` (never
 * loaded by the server itself): a 1 ms timer reads the main thread's CPU time
 * (process.threadCpuUsage) at every turn of the event loop, and each stretch
 * in which the thread worked more than `MIN_MS` between two turns is appended
 * to DIR/stretches-PID.jsonl as { from, to } (epoch ms) and its CPU ms — to
 * find in the CPU profile what ran in each (the sampler cannot see where the
 * loop was yielded to; this can). A turn that came more than `MIN_WAIT_MS`
 * late with little CPU spent is written too: the thread waited (for a core
 * on a busy machine, or in a blocking call) rather than worked.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const MIN_MS = 10;
const MIN_WAIT_MS = 100;
const dir = process.env.BENCH_STALL_STRETCHES_DIR;
if (dir) {
  const file = join(dir, `stretches-${process.pid}.jsonl`);
  const cpuMs = () => {
    const { user, system } = process.threadCpuUsage();
    return (user + system) / 1000;
  };
  let last = { at: Date.now(), cpu: cpuMs() };
  const timer = setInterval(() => {
    const now = { at: Date.now(), cpu: cpuMs() };
    const worked = now.cpu - last.cpu;
    if (worked > MIN_MS || now.at - last.at > MIN_WAIT_MS) appendFileSync(file, `${JSON.stringify({ from: last.at, to: now.at, cpuMs: Math.round(worked * 10) / 10 })}\n`);
    last = now;
  }, 1);
  timer.unref();
}
