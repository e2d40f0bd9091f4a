/**
 * @module test/helpers/cluster/rate-limit
 * Exactly-L probes: `count` concurrent requests of one client within one
 * fixed window (RATE_LIMIT_WINDOW_SECONDS; windows start at multiples of it
 * since the epoch, src/ratelimit/interface `windowOf`), counting 200s. A
 * burst that straddled a window boundary proves nothing and is sent again
 * in the next window (never counted).
 */

export interface Admission {
  /** What was probed, e.g. `anonymous via balancer`. */
  client: string;
  sent: number;
  admitted: number;
  refused: number;
  /** Answers other than 200 and 429 (status → count). */
  other: Record<string, number>;
  quota: number;
}

/** Waits until the current window has at least `share` of it left (the start of the next one, else). */
async function earlyInWindow(windowMs: number, share = 0.6): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < windowMs * share) await Bun.sleep(left + 50);
}

/**
 * Sends each burst of `bursts` at once, in one window together (so two
 * deployments can be probed in the same window). `headers(i)` gives request i's headers.
 */
export async function probeAdmissions(windowSeconds: number, bursts: { client: string; url: string; quota: number; count: number; headers: (i: number) => Record<string, string> }[]): Promise<Admission[]> {
  const windowMs = windowSeconds * 1000;
  for (let attempt = 0; attempt < 4; attempt++) {
    await earlyInWindow(windowMs);
    const began = Date.now();
    const answers = await Promise.all(
      bursts.map((b) =>
        Promise.all(
          Array.from({ length: b.count }, (_, i) =>
            fetch(b.url, { headers: b.headers(i), signal: AbortSignal.timeout(windowMs) })
              .then(async (r) => (await r.arrayBuffer(), r.status))
              .catch(() => 0),
          ),
        ),
      ),
    );
    if (Math.floor(began / windowMs) !== Math.floor(Date.now() / windowMs)) continue; // straddled: again
    return bursts.map((b, i) => {
      const statuses = answers[i]!;
      const other: Record<string, number> = {};
      for (const s of statuses.filter((s) => s !== 200 && s !== 429)) other[s] = (other[s] ?? 0) + 1;
      return { client: b.client, sent: b.count, admitted: statuses.filter((s) => s === 200).length, refused: statuses.filter((s) => s === 429).length, other, quota: b.quota };
    });
  }
  throw new Error(`every probe burst straddled a ${windowSeconds} s rate-limit window: the machine is too slow for the window`);
}
