/**
 * GraphQL field costs (issue 28 item 1): each root field takes the
 * rate-limit class of its REST route, read from the route table; an
 * operation's price (against GRAPHQL_MAX_COST_PER_TIER) and its charge
 * against the rate limits (a unit of the ordinary quota per root field, a
 * unit of the class's per field of a class, aliases and fragments included)
 * are checked before execution. The numbers come from graphql/costs' rule:
 * each field 1 times the lists around it, a root field 10, one of a class 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { parse } from 'graphql';
import { classFromDetail, quotaClassOf } from '../../../src/plugins/rate-limit';
import { CLASS_FIELD_COST, FieldCosts, ROOT_FIELD_COST } from '../../../src/modules/graphql/costs';
import { MUTATIONS, QUERIES } from '../../../src/modules/graphql/operations';
import { buildSchema, fieldRoute } from '../../../src/modules/graphql/schema';
import { createTestContext, smallSyntheticMarket, type TestContext } from '../../helpers/app';
import { sessionCookie } from '../../helpers/account';
import { postGraphql } from './requests';

const costly = new Set(['ledgerVerification', 'universeScan']);
const costs = new FieldCosts((field, args) => (costly.has(field) || (field === 'breakouts' && args.asOf != null) ? 'costly' : undefined));

describe('an operation’s price and charge', () => {
  it('prices a plain root field 10 plus its answer, a field of a class 500 plus its answer', () => {
    const [plain] = costs.of(parse('{ scorecard { generatedAt } }'));
    expect(plain!.price).toBe(ROOT_FIELD_COST + 1);
    const [classed] = costs.of(parse('{ ledgerVerification { ok count } }'));
    expect(classed!.price).toBe(CLASS_FIELD_COST + 2);
  });

  it('charges every alias and every field a fragment brings, once each', () => {
    const [op] = costs.of(parse('query { a: ledgerVerification { ok } b: ledgerVerification { ok } ...More } fragment More on Query { c: ledgerVerification { ok } snapshot(symbol: "AAPL") { symbol } }'));
    expect(op!.charge).toEqual({ general: 4, costly: 3, explain: 0 });
    expect(op!.price).toBe(3 * (CLASS_FIELD_COST + 1) + ROOT_FIELD_COST + 1);
  });

  it('takes a field’s class from its arguments’ values, variables included (breakouts is costly with asOf)', () => {
    const document = parse('query($asOf: String) { breakouts(asOf: $asOf) { generatedAt } }');
    expect(costs.of(document, { asOf: '2026-06-01' })[0]!.charge.costly).toBe(1);
    expect(costs.of(document, {})[0]!.charge.costly).toBe(0);
    expect(costs.of(parse('{ breakouts(asOf: "2026-06-01") { generatedAt } }'))[0]!.charge.costly).toBe(1);
    // Without the variables (the cost a kept answer is served under), a variable counts as given.
    expect(costs.of(document)[0]!.charge.costly).toBe(1);
  });

  it('multiplies a field by the sizes of the lists around it', () => {
    expect(costs.of(parse('{ signals(first: 50) { edges { node { id } } } }'))[0]!.price).toBe(ROOT_FIELD_COST + 50 * (1 + 1 + 1));
  });
});

describe('each field’s class is its REST route’s', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ provider: smallSyntheticMarket() });
  });
  afterAll(() => ctx.close());

  it('names a route of the route table for every root field but signal(id), with the class that route publishes', () => {
    const table = new Map(ctx.app.routes.map((r) => [`${r.method} ${r.path}`, r]));
    const fields = [...Object.keys(buildSchema().getQueryType()!.getFields()), ...Object.keys(buildSchema().getMutationType()!.getFields())];
    const classes: Record<string, unknown> = {};
    for (const field of fields) {
      if (field === 'signal') continue;
      const route = fieldRoute(field);
      expect({ field, route: route && table.has(route) }).toEqual({ field, route: true });
      const when = classFromDetail(table.get(route!)!.hooks?.detail as Record<string, unknown>);
      if (when !== false) classes[field] = when;
    }
    // The REST routes of the costly class (plugins/rate-limit's `costly` option), as GraphQL fields.
    expect(classes).toMatchObject({ ledgerVerification: { class: 'costly' }, universeScan: { class: 'costly' }, breakouts: { class: 'costly', query: 'asOf' }, signals: { class: 'costly', query: 'asOf' } });
    expect(quotaClassOf(classes.breakouts as never, {})).toBeUndefined();
    // The scorecard and months are costly over a replay's chain only.
    expect(classes).toMatchObject({ scorecard: { class: 'costly', query: 'source', equals: 'replay' }, monthly: { class: 'costly', query: 'source', equals: 'replay' } });
    expect([{}, { source: 'live' }, { source: 'replay' }].map((args) => quotaClassOf(classes.scorecard as never, args))).toEqual([undefined, undefined, 'costly']);
    expect(Object.keys(QUERIES).length + Object.keys(MUTATIONS).length + 2).toBe(fields.length);
  });
});

describe('GraphQL against the rate limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ provider: smallSyntheticMarket(), env: { RATE_LIMIT_QUOTA: '100', RATE_LIMIT_QUOTA_FREE: '12', RATE_LIMIT_COSTLY_QUOTA: '5', RATE_LIMIT_WINDOW_SECONDS: '86400', GRAPHQL_MAX_COST_PER_TIER: '2000,10000,50000' } });
    await ctx.services.runs.persist('daily');
  });
  afterAll(() => ctx.close());

  const verify = (aliases: number) => `{ ${Array.from({ length: aliases }, (_, i) => `v${i}: ledgerVerification { ok }`).join(' ')} }`;

  it('counts each costly alias against the costly quota, as many REST requests would, and refuses past it 429 with Retry-After', async () => {
    const cookie = await sessionCookie(ctx, 'costs-costly', 'free');
    const first = await postGraphql(ctx, verify(3), {}, { cookie });
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    expect(first.headers.get('x-ratelimit-limit')).toBe('5');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    const second = await postGraphql(ctx, verify(3), {}, { cookie });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ code: 'rate_limited', error: expect.stringMatching(/costly requests/) });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The REST route shares the same quota: spent.
    expect((await ctx.request('/api/transparency/verify', { headers: { cookie } })).status).toBe(429);
  });

  it('counts every root field against the ordinary quota (the request’s own unit standing for the first)', async () => {
    const cookie = await sessionCookie(ctx, 'costs-general', 'free');
    const five = `{ ${Array.from({ length: 5 }, (_, i) => `s${i}: snapshot(symbol: "AAPL") { symbol }`).join(' ')} }`;
    const first = await postGraphql(ctx, five, {}, { cookie });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('7');
    expect((await postGraphql(ctx, five, {}, { cookie })).headers.get('x-ratelimit-remaining')).toBe('2');
    const third = await postGraphql(ctx, five, {}, { cookie });
    expect(third.status).toBe(429);
  });

  it('answers a price over the tier’s ceiling QUERY_TOO_COSTLY before execution, charging nothing', async () => {
    const cookie = await sessionCookie(ctx, 'costs-ceiling', 'free');
    // Five costly fields: 5 × 501 > 2000 for the free tier.
    const over = await postGraphql(ctx, verify(5), {}, { cookie });
    expect(over.status).toBe(200);
    expect(over.body.data ?? null).toBeNull();
    expect(over.body.errors![0]!.extensions!.code).toBe('QUERY_TOO_COSTLY');
    const after = await postGraphql(ctx, verify(1), {}, { cookie });
    expect(after.body.errors).toBeUndefined();
    expect(after.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('charges an answer kept from the latest run (graphql/answers) as its execution: a unit per root field', async () => {
    const cookie = await sessionCookie(ctx, 'costs-kept', 'pro');
    const document = '{ a: signals(first: 1) { totalCount } b: breakouts(limit: 1) { generatedAt } }';
    const remaining = async () => Number((await postGraphql(ctx, document, {}, { cookie })).headers.get('x-ratelimit-remaining'));
    const first = await remaining();
    expect([await remaining(), await remaining()]).toEqual([first - 2, first - 4]);
    expect(ctx.services.graphql.answers.size).toBeGreaterThan(0);
  });

  it('answers a refused operation of a batch in its own result, the others executed', async () => {
    const cookie = await sessionCookie(ctx, 'costs-batch', 'pro');
    const response = await ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify([{ query: verify(4) }, { query: verify(2) }, { query: '{ scorecard { generatedAt } }' }]) });
    expect(response.status).toBe(200);
    const results = (await response.json()) as { errors?: { extensions: { code: string } }[] }[];
    expect(results.map((r) => r.errors?.[0]?.extensions.code ?? 'ok')).toEqual(['ok', 'RATE_LIMITED', 'ok']);
  });
});
