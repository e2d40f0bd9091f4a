/**
 * The one authorisation table (auth/route-access) as a matrix (issue 31):
 * every row × credential kind × tier × scope, first through the decision
 * itself, then over HTTP through REST and through every GraphQL field that
 * stands for a protected route, which must agree with the table and so with
 * each other. Expected answers come from the rule as the issue states it: a
 * session holds every scope; a key holds the scopes it was given that its
 * tier allows (free: read; pro: + write, backtest; enterprise: + admin:keys);
 * both need the row's tier.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { getNamedType, isEnumType, isListType, isNonNullType, isObjectType, type GraphQLArgument, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { authorize } from '../../src/auth/access';
import type { Principal } from '../../src/auth/principal';
import { accessOf, ROUTE_ACCESS, type RouteAccess } from '../../src/auth/route-access';
import { SCOPES, type Scope } from '../../src/domain/scopes';
import { TIERS, type Tier } from '../../src/domain/tiers';
import { AppError } from '../../src/errors';
import { MUTATIONS, QUERIES } from '../../src/modules/graphql/operations';
import { buildSchema } from '../../src/modules/graphql/schema';
import { createTestContext, type TestContext } from '../helpers/app';

const ORDER: Record<Tier, number> = { free: 0, pro: 1, enterprise: 2 };
/** The statement of what a key of each tier may hold. */
const KEY_MAY_HOLD: Record<Tier, Scope[]> = { free: ['read'], pro: ['read', 'write', 'backtest'], enterprise: ['read', 'write', 'backtest', 'admin:keys'] };

/** Every non-empty set of scopes. */
const SCOPE_SETS: Scope[][] = Array.from({ length: 2 ** SCOPES.length - 1 }, (_, i) => SCOPES.filter((_, bit) => ((i + 1) >> bit) & 1));

function expected(kind: 'session' | 'key', tier: Tier, given: readonly Scope[], access: RouteAccess): 'allowed' | 'insufficient_scope' | 'forbidden' {
  if (kind === 'key' && !(given.includes(access.scope) && KEY_MAY_HOLD[tier].includes(access.scope))) return 'insufficient_scope';
  if (access.tier && ORDER[tier] < ORDER[access.tier]) return 'forbidden';
  return 'allowed';
}

function decide(principal: Principal, access: RouteAccess): string {
  try {
    authorize({ state: 'authenticated', principal }, access, new Request('http://localhost/'), []);
    return 'allowed';
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
}

describe('the decision, every row × kind × tier × scope set', () => {
  it('admits a session at the row’s tier whatever the scope, and a key only with the scope its tier allows', async () => {
    const { keyPrincipal } = await import('../../src/auth/api-keys');
    let cases = 0;
    for (const [route, access] of Object.entries(ROUTE_ACCESS) as [string, RouteAccess][]) {
      for (const tier of TIERS) {
        const session: Principal = { userId: 'u', tier, kind: 'session', scopes: SCOPES };
        expect({ route, tier, got: decide(session, access) }).toEqual({ route, tier, got: expected('session', tier, SCOPES, access) });
        cases++;
        for (const given of SCOPE_SETS) {
          // The key's own tier is `tier`; its owner's was never stated.
          const key = keyPrincipal({ id: 'key_x', userId: 'u', tier, scopes: given }, undefined);
          expect({ route, tier, given, got: decide(key, access) }).toEqual({ route, tier, given, got: expected('key', tier, given, access) });
          // A downgrade of the owner narrows the key at once: a pro key of a now-free owner acts as free.
          const downgraded = keyPrincipal({ id: 'key_x', userId: 'u', tier, scopes: given }, 'free');
          expect({ route, tier, given, got: decide(downgraded, access) }).toEqual({ route, tier, given, got: expected('key', 'free', given, access) });
          cases += 2;
        }
      }
    }
    expect(cases).toBe(Object.keys(ROUTE_ACCESS).length * TIERS.length * (1 + 2 * SCOPE_SETS.length));
  });

  it('answers no credential 401 unauthorized and a refused one 401 with its code', () => {
    const access = ROUTE_ACCESS['GET /api/watchlists'];
    const codeOf = (identity: Parameters<typeof authorize>[0]) => {
      try {
        authorize(identity, access, new Request('http://localhost/'), []);
        return 'allowed';
      } catch (error) {
        return (error as AppError).code;
      }
    };
    expect(codeOf({ state: 'anonymous' })).toBe('unauthorized');
    for (const code of ['invalid_key', 'revoked_key', 'expired_session', 'invalid_session', 'invalid_authorization'] as const) {
      expect(codeOf({ state: 'refused', kind: code.endsWith('session') ? 'session' : 'key', reason: 'x', code })).toBe(code);
    }
  });
});

describe('one table for REST and GraphQL', () => {
  let ctx: TestContext;
  let schema: GraphQLSchema;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { RATE_LIMIT_QUOTA_FREE: '100000', RATE_LIMIT_QUOTA_PRO: '100000', RATE_LIMIT_QUOTA_ENTERPRISE: '100000', RATE_LIMIT_QUOTA: '100000' } });
    schema = buildSchema();
  });
  afterAll(() => ctx.close());

  it('has a row for every protected route and only for routes that exist, published in the OpenAPI detail', () => {
    const routes = new Map(ctx.app.routes.map((r) => [`${r.method} ${r.path}`, (r.hooks as { detail?: Record<string, unknown> }).detail ?? {}]));
    for (const [route, access] of Object.entries(ROUTE_ACCESS) as [string, RouteAccess][]) {
      const detail = routes.get(route);
      expect({ route, exists: detail !== undefined }).toEqual({ route, exists: true });
      expect({ route, scope: detail!['x-required-scope'], tier: detail!['x-required-tier'] }).toEqual({ route, scope: access.scope, tier: access.tier });
    }
    const declared = [...routes].filter(([, detail]) => detail['x-required-scope'] !== undefined).map(([route]) => route);
    expect(declared.sort()).toEqual(Object.keys(ROUTE_ACCESS).sort());
  });

  it('links every GraphQL field to an existing REST route (the link its cost uses too)', () => {
    const routes = new Set(ctx.app.routes.map((r) => `${r.method} ${r.path}`));
    for (const [field, op] of Object.entries({ ...QUERIES, ...MUTATIONS })) expect({ field, route: op.route, exists: routes.has(op.route) }).toEqual({ field, route: op.route, exists: true });
  });

  /** One credential of each kind, tier and (for keys) single scope, each its own user (a user's session states the tier their keys act at). */
  async function credentials(): Promise<{ name: string; kind: 'session' | 'key'; tier: Tier; scopes: Scope[]; headers: Record<string, string> }[]> {
    const all = [];
    for (const tier of TIERS) {
      all.push({ name: `${tier} session`, kind: 'session' as const, tier, scopes: [...SCOPES], headers: { cookie: await ctx.sessionCookie(`matrix-s-${tier}`, tier, 3600) } });
      for (const scope of KEY_MAY_HOLD[tier]) {
        const { key } = await ctx.services.auth.keys.create({ userId: `matrix-k-${tier}-${scope}`, name: scope, tier, scopes: [scope] });
        all.push({ name: `${tier} key ${scope}`, kind: 'key' as const, tier, scopes: [scope], headers: { authorization: `Bearer ${key}` } });
      }
    }
    return all;
  }

  /** A request for a route with placeholder ids, answered past the access check by 400/404 (or 200) when admitted. */
  const pathOf = (route: string) => route.split(' ')[1]!.replace(':symbol', 'AAPL').replace(/:id/, 'x_8k2qd0xw5n3c7v1b9m4f');

  /** A placeholder of an argument's type that the REST schema refuses (an empty string): the field answers past the access check by BAD_USER_INPUT when admitted, never by a refusal of the service's own. */
  const placeholder = (type: GraphQLInputType): string => {
    const inner = isNonNullType(type) ? type.ofType : type;
    if (isListType(inner)) return `[${placeholder(inner.ofType)}]`;
    const named = getNamedType(inner);
    if (isEnumType(named)) return named.getValues()[0]!.name;
    return ({ Int: '1', Float: '1', Boolean: 'true', JSON: '{}' } as Record<string, string>)[named.name] ?? '""';
  };
  /** The field's required (non-null) arguments, each given a placeholder: a document that passes validation. */
  const requiredArgs = (args: readonly GraphQLArgument[]) => {
    const given = args.filter((a) => isNonNullType(a.type)).map((a) => `${a.name}: ${placeholder(a.type)}`);
    return given.length > 0 ? `(${given.join(', ')})` : '';
  };

  it('REST and GraphQL answer every protected field alike for every credential, as the table says', async () => {
    const creds = await credentials();
    const fields = Object.entries({ ...QUERIES, ...MUTATIONS }).filter(([, op]) => accessOf(op.route));
    expect(fields.length).toBeGreaterThanOrEqual(30);
    const rows: string[] = [];
    for (const [field, op] of fields) {
      const access = accessOf(op.route)!;
      const mutation = field in MUTATIONS;
      const definition = (mutation ? schema.getMutationType() : schema.getQueryType())!.getFields()[field]!;
      const type = getNamedType(definition.type);
      const document = `${mutation ? 'mutation' : 'query'} { ${field}${requiredArgs(definition.args)}${isObjectType(type) ? ' { __typename }' : ''} }`;
      for (const cred of creds) {
        const want = expected(cred.kind, cred.tier, cred.scopes, access);
        const gql = await ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...cred.headers }, body: JSON.stringify({ query: document }) });
        const answer = (await gql.json()) as { errors?: { extensions?: { code?: string; reason?: string } }[] };
        const refusal = answer.errors?.find((e) => e.extensions?.code === 'FORBIDDEN' || e.extensions?.code === 'UNAUTHENTICATED')?.extensions;
        const gqlGot = refusal ? (refusal.reason ?? refusal.code) : 'allowed';
        let restGot = '(not sent)';
        // A REST write's body is read before the credential (plugins/auth): reads and deletes say the access alone.
        if (op.route.startsWith('GET ') || op.route.startsWith('DELETE ')) {
          const rest = await ctx.request(pathOf(op.route), { method: op.route.split(' ')[0], headers: cred.headers });
          restGot = rest.status === 401 || rest.status === 403 ? ((await rest.json()) as { code: string }).code : 'allowed';
        }
        rows.push(`${field} ${cred.name}: graphql ${gqlGot}, rest ${restGot}, table ${want}`);
        expect({ field, cred: cred.name, got: gqlGot }).toEqual({ field, cred: cred.name, got: want });
        if (restGot !== '(not sent)') expect({ route: op.route, cred: cred.name, got: restGot }).toEqual({ route: op.route, cred: cred.name, got: want });
      }
    }
    expect(rows.length).toBe(fields.length * creds.length);
  });

  it('admits a REST write with a key of the write scope and refuses it without, as GraphQL does', async () => {
    const { key: writer } = await ctx.services.auth.keys.create({ userId: 'matrix-writer', name: 'w', tier: 'pro', scopes: ['read', 'write'] });
    const { key: reader } = await ctx.services.auth.keys.create({ userId: 'matrix-reader', name: 'r', tier: 'pro', scopes: ['read'] });
    const body = JSON.stringify({ name: 'Bot list', symbols: ['AAPL'] });
    const post = (key: string) => ctx.request('/api/watchlists', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body });
    expect((await post(writer)).status).toBe(201);
    expect((await post(reader)).status).toBe(403);
  });
});
