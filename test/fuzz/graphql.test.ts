/**
 * The GraphQL fuzz suite (issue 28 item 3): every root field of the schema,
 * queries and mutations, called with generated arguments (test/fuzz/graphql-harness:
 * absent, inline, or as variables of their own type or of JSON; values from
 * the REST parameter's schema, hostile strings, edge numbers, any JSON). No
 * answer may be a 5xx or an INTERNAL_SERVER_ERROR: whatever passes the
 * schema and still fails is BAD_USER_INPUT (or another code of the closed
 * set). Fields that act for a user are called signed in (a session of a user
 * of their own, enterprise tier), now and then by API key.
 *
 * A fixed seed; `FUZZ_RUNS` cases per field (25 in the default suite;
 * `npm run test:fuzz` runs 2000), FUZZ_SEED to vary it.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { Type } from '@sinclair/typebox';
import { createTestContext, smallSyntheticMarket } from '../helpers/app';
import { MUTATIONS, QUERIES } from '../../src/modules/graphql/operations';
import { buildSchema } from '../../src/modules/graphql/schema';
import { BreakoutsQuery } from '../../src/modules/signals/model';
import { createGraphqlFuzzer } from './graphql-harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 2828);

const unlimited = '1000000000';
const ctx = await createTestContext({
  provider: smallSyntheticMarket(),
  env: {
    ...Object.fromEntries(['RATE_LIMIT_QUOTA', 'EXPLAIN_RATE_LIMIT_QUOTA'].flatMap((name) => ['', '_FREE', '_PRO', '_ENTERPRISE'].map((tier) => [`${name}${tier}`, unlimited]))),
    RATE_LIMIT_COSTLY_QUOTA: unlimited,
    COMMUNITY_POST_QUOTA: unlimited,
  },
});
await ctx.services.warm();
await (await ctx.request('/api/breakouts')).arrayBuffer();

/** The REST schemas of the two fields that are not REST operations. */
const OWN: Record<string, Record<string, unknown>> = {
  signals: { ...BreakoutsQuery.properties, first: Type.Integer({ minimum: 0, maximum: 100 }), pattern: Type.String(), band: Type.String(), state: Type.String(), after: Type.String() },
  signal: { id: Type.String({ examples: ['AAPL-flat_base-2026-11-18T21:00:00.000Z'] }) },
};

/** Each field's user and credentials: a session mostly, an API key for a fifth of the requests to fields that take one. */
const credentials = new Map<string, { cookie: string; key: string }>();
const fuzzer = createGraphqlFuzzer(buildSchema(), ctx.request, {
  argSchema: (field, arg) => (QUERIES[field] ?? MUTATIONS[field])?.args.properties[arg] ?? OWN[field]?.[arg],
  credentials: (field) => {
    const held = credentials.get(field);
    if (!held) return undefined;
    return Math.random() < 0.2 ? { authorization: `Bearer ${held.key}` } : ({ cookie: held.cookie } as Record<string, string>);
  },
});

describe('fuzzing every field of the GraphQL schema', () => {
  afterAll(async () => {
    const byCode = [...fuzzer.codes.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([c, n]) => `${c}×${n}`).join(' ');
    console.log(`graphql fuzz: ${fuzzer.sent()} requests (seed ${SEED}, ${RUNS} runs a field): ${byCode}`);
    await ctx.close();
  });

  it('finds the fields', () => {
    expect(fuzzer.fields('query').length).toBeGreaterThan(30);
    expect(fuzzer.fields('mutation').length).toBeGreaterThan(10);
  });

  for (const kind of ['query', 'mutation'] as const) {
    for (const field of fuzzer.fields(kind)) {
      it(`${kind} ${field}`, async () => {
        const user = `usr_gqlfuzz_${field}`;
        credentials.set(field, { cookie: await ctx.sessionCookie(user, 'enterprise', 3600), key: await ctx.apiKey(user, 'enterprise') });
        await fc.assert(fuzzer.property(field, kind), { seed: SEED, numRuns: RUNS, endOnFailure: true });
      }, 600_000);
    }
  }
});
