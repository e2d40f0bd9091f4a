/**
 * A worker thread that dies mid-task: that task fails (its request answers 500
 * in the Error shape, never hangs), the pool replaces the thread, and the next
 * tasks and requests succeed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createPool, type KernelPool } from '../../src/pool';
import { createTestContext, smallSyntheticMarket, type ErrorBody, type TestContext } from '../helpers/app';

const CRASHING = new URL('../fixtures/workers/crashing.ts', import.meta.url).href;

describe('a worker thread that crashes', () => {
  let crashing: KernelPool;
  let ctx: TestContext;
  beforeAll(async () => {
    crashing = createPool({ threads: 1, warm: true, worker: CRASHING });
    ctx = await createTestContext({ provider: smallSyntheticMarket() });
  });
  afterAll(async () => {
    await crashing.destroy();
    await ctx.close();
  });

  it('fails its task and is replaced: the pool answers the next task', async () => {
    await crashing.ping();
    await expect(crashing.run('crash' as never, {} as never)).rejects.toThrow('worker exited');
    await crashing.ping(); // a new thread
    await expect(crashing.run('crash' as never, {} as never)).rejects.toThrow('worker exited');
    await crashing.ping();
  });

  it("answers that task's request 500 in the Error shape, and serves the next one", async () => {
    const replay = '/api/breakouts?asOf=2026-06-30&symbols=AAPL,MSFT';
    const { pool } = ctx.services;
    const run = pool.run;
    // The app's own pool, with its next task sent to a thread that dies.
    pool.run = ((_task: unknown, input: unknown) => {
      pool.run = run;
      return crashing.run('crash' as never, input as never);
    }) as typeof pool.run;
    const failed = await ctx.request(replay);
    expect(failed.status).toBe(500);
    const body = (await failed.json()) as ErrorBody;
    expect(body).toEqual({ error: 'The scan failed; the cause is in the server log', requestId: failed.headers.get('x-request-id')!, code: 'scan_failed' });
    expect(pool.run).toBe(run);
    const next = await ctx.request(replay);
    expect(next.status).toBe(200);
    await crashing.ping();
  });
});
