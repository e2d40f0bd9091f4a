/**
 * @module runs-of
 * Consecutive runs of at most `size` items: a pool task's share of a replay's
 * symbols or sessions (jobs/replay/engine), a statement's rows of a scan run's
 * save (db/repositories/scan-save). A leaf: anyone may import it.
 *
 * @example
 * runsOf([1, 2, 3, 4, 5], 2); // [[1, 2], [3, 4], [5]]
 */
export function runsOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
