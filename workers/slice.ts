/**
 * @module workers/slice
 * Background tasks in slices (issue 27): a task given a budget works through
 * its items until the budget is spent (one item at least, so every task makes
 * progress) and hands back what it did; the caller sends the rest in the next
 * task. A slice holds its thread for tens of milliseconds whatever the
 * machine's speed, so the lane's work stops, and yields, within one.
 *
 * @example
 * const over = deadline(input.budgetMs);
 * for (const item of items) { if (done.length > 0 && over()) break; done.push(work(item)); }
 */

/** The budget of one background slice (ms). */
export const SLICE_MS = 20;

/** Whether the budget from now has been spent (never, without a budget). */
export function deadline(budgetMs: number | undefined): () => boolean {
  if (budgetMs === undefined) return () => false;
  const end = performance.now() + budgetMs;
  return () => performance.now() >= end;
}
