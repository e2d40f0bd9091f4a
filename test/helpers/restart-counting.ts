/**
 * Another instance on the same database as `ctx` with nothing in memory (a
 * restart), counting the pool tasks it runs and the pages of trade-book
 * facts it reads (ledger/book: a book loaded or extended) — what a kept or
 * computed-ahead figure must cost nothing of. Closed with `contexts`.
 */
import { createTestContext, type TestContext } from './app';

export async function restartCounting(ctx: TestContext, contexts: TestContext[]): Promise<{ ctx: TestContext; counts: { tasks: string[]; bookPages: number } }> {
  const next = await createTestContext({ sameDatabaseAs: ctx });
  contexts.push(next);
  const counts = { tasks: [] as string[], bookPages: 0 };
  const { pool, replayLedger } = next.services;
  const run = pool.run.bind(pool);
  pool.run = ((task, input, options) => {
    counts.tasks.push(task);
    return run(task, input, options);
  }) as typeof pool.run;
  const page = replayLedger.facts.page.bind(replayLedger.facts);
  replayLedger.facts.page = ((...args: Parameters<typeof page>) => {
    counts.bookPages++;
    return page(...args);
  }) as typeof page;
  return { ctx: next, counts };
}
