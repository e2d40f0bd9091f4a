/**
 * The stall probe (issue 27): `GET /livez` sent every `everyMs` (50) while
 * some work runs, each probe's round trip timed. /livez does nothing but
 * answer, so a slow probe means the server's event loop was busy elsewhere:
 * the worst probe is the longest the server kept every other client waiting.
 *
 * @example
 * const { worstMs, late } = await probeWhile(url, () => fetch(`${url}/api/scorecard?source=replay`), { lateMs: 100 });
 */

export interface ProbeReport<T> {
  /** What `work` resolved to. */
  result: T;
  /** Every probe's round trip (ms), in order. */
  probes: number[];
  worstMs: number;
  /** The probes slower than `lateMs`, with when they were sent (ms after the work began). */
  late: { atMs: number; ms: number }[];
  /** How long the work took (ms). */
  workMs: number;
}

/**
 * Runs `work` while probing `${url}/livez` every `everyMs` (one probe at a
 * time: the next is sent `everyMs` after the last was sent, or at once when
 * it took longer); probing ends with the work, after at least `minProbes`.
 */
export async function probeWhile<T>(url: string, work: () => Promise<T>, options: { everyMs?: number; lateMs?: number; minProbes?: number } = {}): Promise<ProbeReport<T>> {
  const { everyMs = 50, lateMs = 100, minProbes = 3 } = options;
  const began = performance.now();
  let done = false;
  let workMs = 0;
  const running = work().finally(() => {
    done = true;
    workMs = performance.now() - began;
  });
  running.catch(() => undefined); // awaited below; the probes stop either way
  const probes: number[] = [];
  const late: { atMs: number; ms: number }[] = [];
  while (!done || probes.length < minProbes) {
    const sent = performance.now();
    const response = await fetch(`${url}/livez`);
    await response.arrayBuffer();
    const ms = performance.now() - sent;
    probes.push(ms);
    if (ms > lateMs) late.push({ atMs: Math.round(sent - began), ms: Math.round(ms) });
    await Bun.sleep(Math.max(0, everyMs - ms));
  }
  const result = await running;
  return { result, probes, worstMs: Math.max(...probes), late, workMs };
}
