/**
 * The fuzz suite (issue 12): every operation of the served OpenAPI document —
 * whatever routes exist when it runs — gets generated requests, valid ones
 * from its declared schemas and mutated ones (missing, hostile, repeated
 * parameters; bad API-Version headers; malformed, wrong and oversized bodies).
 * Properties, checked on every answer:
 *
 * 1. the status is below 500 (an operation may declare a 5xx as a state report
 *    of its own, e.g. a readiness probe's 503 "starting": then it is validated
 *    like any answer, never an Error body);
 * 2. a 2xx body validates against the operation's declared response schema
 *    (ajv, strict mode), and every error body against the declared error
 *    schema of its status (or `default`): the Error shape;
 * 3. a request that violates a declared parameter schema (or the declared
 *    body limit) is refused 400 (413) in the Error shape — except that an
 *    operation which requires credentials may answer 401/403 first.
 *
 * A fixed seed and `FUZZ_RUNS` (default 200) cases per operation;
 * `FUZZ_RUNS=2000 npm run test:fuzz` for a long run (FUZZ_SEED to vary it). A
 * failure prints the request as a curl command.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { createTestContext, smallSyntheticMarket } from '../helpers/app';
import { servedDocument } from '../helpers/openapi';
import { createFuzzer } from './harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? 1212);

const ctx = await createTestContext({
  provider: smallSyntheticMarket(),
  env: { RATE_LIMIT_QUOTA: '1000000000', RATE_LIMIT_COSTLY_QUOTA: '1000000000' },
});
const fuzzer = createFuzzer(await servedDocument(ctx.request), ctx.request);
// Give the ledger, the history and the breakouts something to show: one persisted daily run.
await (await ctx.request('/api/breakouts')).arrayBuffer();

describe('fuzzing every operation of the served OpenAPI document', () => {
  afterAll(async () => {
    const byStatus = [...fuzzer.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    console.log(`fuzz: ${fuzzer.sent()} requests over ${fuzzer.operations.length} operations (seed ${SEED}, ${RUNS} runs each): ${byStatus}`);
    await ctx.close();
  });

  it('finds the operations in the document', () => {
    expect(fuzzer.operations.length).toBeGreaterThan(20);
  });

  for (const op of fuzzer.operations) {
    it(`${op.method.toUpperCase()} ${op.path}`, async () => {
      await fc.assert(fuzzer.property(op), { seed: SEED, numRuns: RUNS, endOnFailure: false });
      // Both kinds of body were seen and validated: a success and an error.
      const seen = [...(fuzzer.answered.get(op.operationId) ?? [])];
      expect({ op: op.operationId, success: seen.some((s) => s >= 200 && s < 300), error: seen.some((s) => s >= 400 && s < 500) }).toEqual({ op: op.operationId, success: true, error: true });
    }, 600_000);
  }
});
