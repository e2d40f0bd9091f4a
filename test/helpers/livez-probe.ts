/**
 * The stall probe (issue 27): `GET /livez` sent every `everyMs` (50) while
 * some work runs, each probe's round trip timed. /livez does nothing but
 * answer, so a slow probe means the server's event loop was busy elsewhere:
 * the worst probe is the longest the server kept every other client waiting.
 *
 * On a shared machine (load 30 on 2 cores) a process waits for a core for
 * hundreds of milliseconds now and then, whatever its event loop does, and
 * CPU work stretches with the load. Given the server's `pid` (Linux), each
 * probe also reads the CPU time the server's main thread (its tid is the pid:
 * /proc/PID/task/PID/schedstat, proc(5)) spent while the probe
 * waited, and a probe is late only when that thread worked past `lateMs` in
 * the meantime: its loop was held by the server's own work, not by the
 * machine. Without a pid, a probe is late by its round trip alone.
 *
 * @example
 * const { worstMs, late } = await probeWhile(url, () => fetch(`${url}/api/scorecard?source=replay`), { lateMs: 100 });
 */
import { readFile } from 'node:fs/promises';

export interface ProbeReport<T> {
  /** What `work` resolved to. */
  result: T;
  /** Every probe's round trip (ms), in order. */
  probes: number[];
  worstMs: number;
  /**
   * Given a pid: the most CPU time (ms) the server's main thread spent while one probe waited —
   * the longest the server's own work kept its loop from answering, whatever the machine's load (0 without a pid).
   */
  worstCpuMs: number;
  /** The probes slower than `lateMs` (given a pid: while the main thread worked that long), with when they were sent (ms after the work began). */
  late: { atMs: number; ms: number; cpuMs?: number }[];
  /** How long the work took (ms). */
  workMs: number;
}

/**
 * Runs `work` while probing `${url}/livez` every `everyMs` (one probe at a
 * time: the next is sent `everyMs` after the last was sent, or at once when
 * it took longer); probing ends with the work, after at least `minProbes`.
 */
export async function probeWhile<T>(url: string, work: () => Promise<T>, options: { everyMs?: number; lateMs?: number; minProbes?: number; pid?: number } = {}): Promise<ProbeReport<T>> {
  const { everyMs = 50, lateMs = 100, minProbes = 3, pid } = options;
  const began = performance.now();
  let done = false;
  let workMs = 0;
  const running = work().finally(() => {
    done = true;
    workMs = performance.now() - began;
  });
  running.catch(() => undefined); // awaited below; the probes stop either way
  const probes: number[] = [];
  const late: ProbeReport<T>['late'] = [];
  let worstCpuMs = 0;
  while (!done || probes.length < minProbes) {
    const sent = performance.now();
    const cpuBefore = pid === undefined ? 0 : await mainThreadCpuMs(pid);
    await (await fetch(`${url}/livez`)).arrayBuffer();
    const ms = performance.now() - sent;
    const cpuMs = pid === undefined ? undefined : (await mainThreadCpuMs(pid)) - cpuBefore;
    probes.push(ms);
    worstCpuMs = Math.max(worstCpuMs, cpuMs ?? 0);
    if (ms > lateMs && (cpuMs === undefined || cpuMs > lateMs)) late.push({ atMs: Math.round(sent - began), ms: Math.round(ms), ...(cpuMs === undefined ? {} : { cpuMs }) });
    await Bun.sleep(Math.max(0, everyMs - ms));
  }
  const result = await running;
  return { result, probes, worstMs: Math.max(...probes), worstCpuMs, late, workMs };
}

/**
 * The CPU time (ms) the main thread of process `pid` has spent: the first field of its schedstat, nanoseconds on a
 * CPU (the kernel's scheduler statistics, Documentation/scheduler/sched-stats.rst), or where the kernel keeps none,
 * utime + stime, fields 14 and 15 of its stat, in clock ticks of 10 ms (USER_HZ 100, proc(5)).
 */
async function mainThreadCpuMs(pid: number): Promise<number> {
  // Read with node:fs: Bun.file reads a /proc file by its stat size, and schedstat's is 0.
  const schedstat = await readFile(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').catch(() => '');
  if (schedstat) return Number(schedstat.split(' ')[0]) / 1e6;
  const stat = await Bun.file(`/proc/${pid}/task/${pid}/stat`).text();
  // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
