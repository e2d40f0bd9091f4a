/**
 * GraphQL automatic persisted queries across instances (redis/query-store):
 * a query registered on one instance is answered by its hash on another of
 * the same deployment (same REDIS_KEY_PREFIX), not on another deployment's;
 * while Redis is down each instance answers from its own cache and an unknown
 * hash is PERSISTED_QUERY_NOT_FOUND (the client sends the query again), not
 * an error. On a private Redis (test/helpers/redis-server); skipped, with the
 * reason, without redis-server.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createTestContext, type TestContext } from '../helpers/app';
import { redisServerMissing, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { until } from '../helpers/until';

type Result = { data?: unknown; errors?: { extensions?: { code?: string } }[] };

const sha = (query: string) => createHash('sha256').update(query).digest('hex');
const post = (ctx: TestContext, body: unknown) =>
  ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Result }));
const byHash = (ctx: TestContext, query: string) => post(ctx, { extensions: { persistedQuery: { version: 1, sha256Hash: sha(query) } } });
const register = (ctx: TestContext, query: string) => post(ctx, { query, extensions: { persistedQuery: { version: 1, sha256Hash: sha(query) } } });

describe.skipIf(redisServerMissing !== null)(`persisted queries across instances${redisServerMissing ? ` (${redisServerMissing})` : ''}`, () => {
  let redis: RedisServer;
  const contexts: TestContext[] = [];
  let a: TestContext;
  let b: TestContext;
  let other: TestContext;
  beforeAll(async () => {
    redis = await startRedisServer();
    const keyPrefix = `breakline:apq:${crypto.randomUUID()}:`;
    const env = { RATE_LIMIT_QUOTA: '100000' };
    contexts.push((a = await createTestContext({ env, redisBus: { url: redis.url, keyPrefix } })));
    contexts.push((b = await createTestContext({ env, redisBus: { url: redis.url, keyPrefix }, sameDatabaseAs: a })));
    contexts.push((other = await createTestContext({ env, redisBus: { url: redis.url, keyPrefix: `breakline:apq:${crypto.randomUUID()}:` } })));
  }, 120_000);
  afterAll(async () => {
    for (const ctx of contexts.reverse()) await ctx.close();
    await redis?.close();
  }, 60_000);

  it('answers by hash on another instance a query registered on one, and not in another deployment', async () => {
    const query = '{ scorecard { __typename } }';
    expect((await byHash(b, query)).body.errors![0]!.extensions!.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await register(a, query)).body.data).toEqual({ scorecard: { __typename: 'ScorecardResponse' } });
    const onB = await byHash(b, query);
    expect(onB).toEqual({ status: 200, body: { data: { scorecard: { __typename: 'ScorecardResponse' } } } });
    expect((await byHash(other, query)).body.errors![0]!.extensions!.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('answers from each instance’s own cache while Redis is down, and an unknown hash as not found', async () => {
    const known = '{ scorecard { __typename } }';
    const unknown = '{ __typename }';
    await redis.stop();
    await until('the instance to know Redis is down', () => b.services.redis!.down !== null);
    expect((await byHash(b, known)).body.data).toEqual({ scorecard: { __typename: 'ScorecardResponse' } });
    const missing = await byHash(b, unknown);
    expect(missing.status).toBe(200);
    expect(missing.body.errors![0]!.extensions!.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await register(b, unknown)).body.data).toEqual({ __typename: 'Query' }); // registered on b alone meanwhile
    expect((await byHash(b, unknown)).body.data).toEqual({ __typename: 'Query' });
    await redis.start();
  });
});
