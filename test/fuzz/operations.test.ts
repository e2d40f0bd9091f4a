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
 *    operation which requires credentials may answer 403 first;
 * 4. an operation that declares `security` is fuzzed signed in (session
 *    cookie and API key, enterprise tier) and, in a seventh of the mutated
 *    requests, with no credential: that is refused 401 before the input is
 *    looked at.
 *
 * A fixed seed and `FUZZ_RUNS` (default 200) cases per operation;
 * `FUZZ_RUNS=2000 npm run test:fuzz` for a long run (FUZZ_SEED to vary it). A
 * failure prints the request as a curl command.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { createTestContext, smallSyntheticMarket } from '../helpers/app';
import { fakeAnthropic } from '../helpers/fake-models';
import { servedDocument } from '../helpers/openapi';
import { createFuzzer } from './harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? 1212);

// A language model that answers (a local server speaking Anthropic's wire format), so explain's success path is fuzzed too.
const model = fakeAnthropic();
const unlimited = '1000000000';
const ctx = await createTestContext({
  provider: smallSyntheticMarket(),
  env: {
    RATE_LIMIT_QUOTA: unlimited,
    RATE_LIMIT_COSTLY_QUOTA: unlimited,
    ...Object.fromEntries(['RATE_LIMIT_QUOTA', 'EXPLAIN_RATE_LIMIT_QUOTA'].flatMap((name) => ['', '_FREE', '_PRO', '_ENTERPRISE'].map((tier) => [`${name}${tier}`, unlimited]))),
    ANTHROPIC_API_KEY: 'sk-ant-fuzz',
    ANTHROPIC_BASE_URL: model.url,
  },
});
// Secured operations are fuzzed signed in, as an enterprise user (every tier gate open), by cookie and by key.
const credentials = {
  SessionCookie: { cookie: await ctx.sessionCookie('fuzz-user', 'enterprise', 3600) },
  ApiKey: { authorization: `Bearer ${await ctx.apiKey('fuzz-user', 'enterprise')}` },
};
const fuzzer = createFuzzer(await servedDocument(ctx.request), ctx.request, { credentials });
// Give the ledger, the history and the breakouts something to show: one persisted daily run.
await (await ctx.request('/api/breakouts')).arrayBuffer();

describe('fuzzing every operation of the served OpenAPI document', () => {
  afterAll(async () => {
    const byStatus = [...fuzzer.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    console.log(`fuzz: ${fuzzer.sent()} requests over ${fuzzer.operations.length} operations (seed ${SEED}, ${RUNS} runs each): ${byStatus}`);
    await ctx.close();
    model.stop();
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
