/**
 * /api/graphql: every query against the REST answer for the same inputs,
 * the signals connection paging and filters, the N+1 bound, mutations by
 * tier, errors with extensions.code, limits, persisted queries, GraphiQL
 * offline, rate limiting, answers kept per run. One context for the file
 * (and one with small limits); subscriptions are in subscriptions.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createHash } from 'node:crypto';
import type { Signal } from '../../../src/domain/signal';
import { createTestContext, type TestContext } from '../../helpers/app';
import { expectError, sessionCookie } from '../../helpers/account';
import { smallMarket } from '../../helpers/small-market';
import { postGraphql, type Result, selectionOf, typeOf, withNulls } from './requests';

let ctx: TestContext;
/** Small limits: depth 5, 5 aliases, cost 500 for free and anonymous callers, batches of 3, no introspection, 2 requests per window for a free user. */
let limits: TestContext;
let free: string;
let pro: string;
beforeAll(async () => {
  ctx = await createTestContext({ provider: await smallMarket(30), env: { GRAPHQL_MAX_COST_PER_TIER: '20000,20000,50000', RATE_LIMIT_QUOTA: '100000', RATE_LIMIT_QUOTA_FREE: '100000', RATE_LIMIT_QUOTA_PRO: '100000', RATE_LIMIT_QUOTA_ENTERPRISE: '100000', RATE_LIMIT_COSTLY_QUOTA: '100000' } });
  await ctx.services.runs.persist('daily');
  free = await sessionCookie(ctx, 'gq-free', 'free');
  pro = await sessionCookie(ctx, 'gq-pro', 'pro');
  limits = await createTestContext({ provider: await smallMarket(30), env: { GRAPHQL_MAX_DEPTH: '5', GRAPHQL_MAX_ALIASES: '5', GRAPHQL_MAX_COST_PER_TIER: '500,20000,50000', GRAPHQL_BATCH_LIMIT: '3', GRAPHQL_INTROSPECTION: 'false', RATE_LIMIT_QUOTA_FREE: '2' } });
  await limits.services.runs.persist('daily');
});
afterAll(async () => {
  await ctx.close();
  await limits.close();
});

const gql = <T = Record<string, any>>(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}, on: TestContext = ctx) => postGraphql<T>(on, query, variables, headers);

async function rest<T = any>(path: string, headers: Record<string, string> = {}): Promise<T> {
  const reply = await ctx.json<T>(path, { headers });
  expect(reply.status).toBe(200);
  return reply.body;
}

describe('/api/graphql reads: the REST answer for the same inputs', () => {
  const cases: [string, string, string, string?][] = [
    // [field, GraphQL arguments, REST path, a top-level key that is the time of answering]
    ['breakouts', '(limit: 5)', '/api/breakouts?limit=5'],
    ['bars', '(symbol: "aapl", range: "1mo")', '/api/bars?symbol=aapl&range=1mo'],
    ['snapshot', '(symbol: "aapl")', '/api/snapshot?symbol=aapl'],
    ['sectorRotation', '', '/api/sector-rotation'],
    ['confluence', '(symbol: "AAPL")', '/api/confluence?symbol=AAPL'],
    ['ledger', '(limit: 7)', '/api/transparency/ledger?limit=7'],
    ['monthly', '(month: "2026-11")', '/api/transparency/monthly?month=2026-11'],
    ['scorecard', '', '/api/scorecard'],
    ['earnings', '(symbol: "AAPL")', '/api/earnings?symbol=AAPL'],
    ['float', '(symbol: "AAPL")', '/api/float?symbol=AAPL'],
    ['insider', '(symbol: "AAPL")', '/api/altdata/insider?symbol=AAPL'],
    ['optionsFlow', '(symbol: "AAPL")', '/api/altdata/options-flow?symbol=AAPL'],
    ['shortInterest', '(symbol: "AAPL")', '/api/altdata/short-interest?symbol=AAPL'],
    ['optionsAnalysis', '(symbol: "AAPL", trigger: 200, target: 220, stop: 190)', '/api/options/analyze?symbol=AAPL&trigger=200&target=220&stop=190'],
    ['signalHistory', '(limit: 5)', '/api/breakouts/history?limit=5'],
    ['communityFeed', '', '/api/community/feed'],
    ['forecast', '(symbol: "AAPL", horizon: 5)', '/api/forecast?symbol=AAPL&horizon=5'],
    ['universeScan', '(source: "nasdaq100")', '/api/universe/scan?source=nasdaq100'],
    ['macroCalendar', '', '/api/macro/calendar', 'asOf'],
    ['ledgerCheckpoints', '', '/api/transparency/checkpoints'],
  ];
  expect(cases.length).toBeGreaterThan(10);
  for (const [field, args, path, clock] of cases) {
    it(`${field}${args} equals GET ${path}`, async () => {
      const typeName = await typeOf(ctx, field);
      expect(typeName).toBeTruthy();
      const selection = typeName === 'JSON' ? '' : ` { ${await selectionOf(ctx, typeName!)} }`;
      const { status, body } = await gql(`{ ${field}${args}${selection} }`);
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      const expected = await rest(path);
      const answer = body.data![field];
      if (clock) {
        expect(Math.abs(Date.parse(answer[clock]) - Date.parse(expected[clock]))).toBeLessThan(60_000);
        delete answer[clock];
        delete expected[clock];
      }
      expect(answer).toEqual(withNulls(expected, answer));
    });
  }
});

describe('signals: a Relay connection over the /api/breakouts ranking', () => {
  it('pages through every signal of GET /api/breakouts in its order, with cursors', async () => {
    const all = (await rest<{ rankedSignals: Signal[]; pagination: { total: number } }>('/api/breakouts?limit=100')).rankedSignals;
    expect(all.length).toBeGreaterThan(3);
    const seen: { id: string; finalScore: number }[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const reply: { body: Result } = await gql(`query($after: String) { signals(first: 3, after: $after) { totalCount edges { cursor node { id finalScore } } pageInfo { hasNextPage endCursor hasPreviousPage } } }`, { after });
      expect(reply.body.errors).toBeUndefined();
      const connection: { totalCount: number; edges: { node: { id: string; finalScore: number } }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null; hasPreviousPage: boolean } } = reply.body.data!.signals;
      expect(connection.totalCount).toBe(all.length);
      expect(connection.pageInfo.hasPreviousPage).toBe(pages > 0);
      seen.push(...connection.edges.map((e: { node: { id: string; finalScore: number } }) => e.node));
      pages++;
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(pages).toBe(Math.ceil(all.length / 3));
    expect(seen).toEqual(all.map((s) => ({ id: s.id, finalScore: s.finalScore })));
  });

  it('filters by pattern, band and state as the REST list would be filtered, and by symbols as REST does', async () => {
    const all = (await rest<{ rankedSignals: Signal[] }>('/api/breakouts?limit=100')).rankedSignals;
    const { patternType, scoreBand, breakoutState, symbol } = all[0]!;
    const { body } = await gql(`query($p: String, $b: String, $s: String) { signals(first: 100, pattern: $p, band: $b, state: $s) { edges { node { id } } } }`, { p: patternType, b: scoreBand, s: breakoutState });
    const wanted = all.filter((s) => s.patternType === patternType && s.scoreBand === scoreBand && s.breakoutState === breakoutState).map((s) => s.id);
    expect(wanted.length).toBeGreaterThan(0);
    expect(body.data!.signals.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(wanted);
    const bySymbol = await gql(`{ signals(first: 100, symbols: ["${symbol.toLowerCase()}"]) { edges { node { id } } } }`);
    const restBySymbol = (await rest<{ rankedSignals: Signal[] }>(`/api/breakouts?limit=100&symbols=${symbol}`)).rankedSignals.map((s) => s.id);
    expect(bySymbol.body.data!.signals.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(restBySymbol);
  });

  it('answers signal(id) as the stored signal, null for an unknown id', async () => {
    const [first] = (await rest<{ rankedSignals: Signal[] }>('/api/breakouts?limit=1')).rankedSignals;
    const { body } = await gql(`query($id: String!) { signal(id: $id) { id symbol patternType triggerPrice finalScore } none: signal(id: "NOPE") { id } }`, { id: first!.id });
    expect(body.data!.signal).toEqual({ id: first!.id, symbol: first!.symbol, patternType: first!.patternType, triggerPrice: first!.triggerPrice, finalScore: first!.finalScore });
    expect(body.data!.none).toBeNull();
  });

  it('asks each symbol once for 50 signals with their snapshots and earnings (DataLoader), and the values are the REST ones', async () => {
    const { marketData } = ctx.services;
    const calls = { snapshot: 0, earnings: 0 };
    const snapshotOf = marketData.snapshot.bind(marketData);
    const capability = marketData.capability.bind(marketData);
    marketData.snapshot = ((symbol: string) => (calls.snapshot++, snapshotOf(symbol))) as typeof marketData.snapshot;
    marketData.capability = ((name: Parameters<typeof capability>[0]) => {
      const fn = capability(name) as (...a: unknown[]) => unknown;
      return ((...a: unknown[]) => (name === 'earnings' && calls.earnings++, fn(...a))) as ReturnType<typeof capability>;
    }) as typeof marketData.capability;
    try {
      const { body } = await gql(`{ signals(first: 50) { edges { node { symbol snapshot { symbol price } earnings { symbol } } } } }`);
      expect(body.errors).toBeUndefined();
      const nodes = body.data!.signals.edges.map((e: { node: { symbol: string; snapshot: { symbol: string; price: number } } }) => e.node);
      expect(nodes.length).toBeGreaterThan(5);
      const symbols = new Set(nodes.map((n: { symbol: string }) => n.symbol));
      // Several signals share a symbol: one call per symbol, not per signal.
      expect(nodes.length).toBeGreaterThan(symbols.size);
      // The snapshot loader asks each symbol once, and so does the earnings one (whose service reads the quote too: GET /api/earnings does the same).
      expect(calls.snapshot).toBe(2 * symbols.size);
      expect(calls.earnings).toBe(symbols.size);
      const sample = nodes[0];
      const direct = await rest(`/api/snapshot?symbol=${sample.symbol}`);
      expect(sample.snapshot).toEqual({ symbol: direct.symbol, price: direct.price });
    } finally {
      marketData.snapshot = snapshotOf;
      marketData.capability = capability;
    }
  });
});

describe('errors, credentials and tiers', () => {
  it('answers bad input as BAD_USER_INPUT in errors of a 200, with the REST message', async () => {
    const { status, body } = await gql(`{ snapshot(symbol: "not a symbol!") { symbol } }`);
    expect(status).toBe(200);
    expect(body.data?.snapshot ?? null).toBeNull();
    expect(body.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    const restError = await ctx.json<{ error: string }>('/api/snapshot?symbol=not%20a%20symbol!');
    expect(restError.status).toBe(400);
    expect(body.errors![0]!.message).toBe(restError.body.error.replace(/^Query parameter/, 'Argument'));
    const unknown = await gql(`{ snapshot(symbol: "ZZZZ") { symbol } }`);
    expect(unknown.body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
  });

  it('refuses account fields and mutations without a credential (UNAUTHENTICATED)', async () => {
    const read = await gql(`{ watchlists { items { id } } }`);
    expect(read.status).toBe(200);
    expect(read.body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const write = await gql(`mutation { createWatchlist(name: "x", symbols: ["AAPL"]) { id } }`);
    expect(write.body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    // A credential presented and refused is a 401 before GraphQL runs, with its code (issue 31).
    const badKey = await ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer bk_nope' }, body: JSON.stringify({ query: 'mutation { createWatchlist(name: "x") { id } }' }) });
    await expectError(badKey, 401, 'invalid_key');
  });

  it('applies the REST route\'s row of the authorisation table: a free session mutates as it writes over REST, a read key is FORBIDDEN; pro mutates through the REST service', async () => {
    const freeMade = await gql(`mutation { createWatchlist(name: "Free", symbols: ["AAPL"]) { id } }`, {}, { cookie: free });
    expect(freeMade.body.errors).toBeUndefined();
    expect((await rest<{ items: { name: string }[] }>('/api/watchlists', { cookie: free })).items.map((w) => w.name)).toEqual(['Free']);
    const { key } = await ctx.services.auth.keys.create({ userId: 'gql-reader', name: 'reader', tier: 'pro' });
    const denied = await gql(`mutation { createWatchlist(name: "Nope") { id } }`, {}, { authorization: `Bearer ${key}` });
    expect(denied.body.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'insufficient_scope', status: 403 });

    const made = await gql(`mutation { createWatchlist(name: "Leaders", symbols: ["aapl", "MSFT"]) { id name symbols { symbol } } }`, {}, { cookie: pro });
    expect(made.body.errors).toBeUndefined();
    const id = made.body.data!.createWatchlist.id as string;
    expect(made.body.data!.createWatchlist.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['AAPL', 'MSFT']);
    const viaRest = await rest(`/api/watchlists/${id}`, { cookie: pro });
    expect(viaRest.name).toBe('Leaders');
    const listed = await gql(`{ watchlists { items { id name } } }`, {}, { cookie: pro });
    expect(listed.body.data!.watchlists.items).toEqual([{ id, name: 'Leaders' }]);
    const renamed = await gql(`mutation($id: String!) { renameWatchlist(id: $id, name: "Renamed") { name } }`, { id }, { cookie: pro });
    expect(renamed.body.data!.renameWatchlist.name).toBe('Renamed');
    const invalid = await gql(`mutation { createWatchlist(name: "") { id } }`, {}, { cookie: pro });
    expect(invalid.body.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    const deleted = await gql(`mutation($id: String!) { deleteWatchlist(id: $id) { id } }`, { id }, { cookie: pro });
    expect(deleted.body.data!.deleteWatchlist.id).toBe(id);
    expect((await ctx.request(`/api/watchlists/${id}`, { headers: { cookie: pro } })).status).toBe(404);
  });

  it('creates and revokes an API key with a pro session; the key then reads but cannot mint keys (no admin:keys)', async () => {
    const made = await gql(`mutation { createApiKey(name: "bot") { id key } }`, {}, { cookie: pro });
    expect(made.body.errors).toBeUndefined();
    const { id, key } = made.body.data!.createApiKey as { id: string; key: string };
    const withKey = await gql(`{ watchlists { items { id } } }`, {}, { authorization: `Bearer ${key}` });
    expect(withKey.body.errors).toBeUndefined();
    const minted = await gql(`mutation { createApiKey(name: "more") { id } }`, {}, { authorization: `Bearer ${key}` });
    expect(minted.body.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'insufficient_scope' });
    const revoked = await gql(`mutation($id: String!) { revokeApiKey(id: $id) { id } }`, { id }, { cookie: pro });
    expect(revoked.body.data!.revokeApiKey.id).toBe(id);
  });
});

describe('protection', () => {
  it('refuses a query deeper than GRAPHQL_MAX_DEPTH and one with more aliases than GRAPHQL_MAX_ALIASES', async () => {
    const fine = await gql(`{ signals(first: 1) { edges { node { earnings { symbol } } } } }`, {}, {}, limits);
    expect(fine.body.errors).toBeUndefined();
    const tooDeep = await gql(`{ signals(first: 1) { edges { node { earnings { calendar { date } } } } } }`, {}, {}, limits);
    expect(tooDeep.body.data ?? null).toBeNull();
    expect(tooDeep.body.errors![0]!.message).toMatch(/depth/i);
    const aliases = await gql(`{ a: scorecard { __typename } b: scorecard { __typename } c: scorecard { __typename } d: scorecard { __typename } e: scorecard { __typename } f: scorecard { __typename } }`, {}, {}, limits);
    expect(aliases.body.errors![0]!.message).toMatch(/aliases/i);
    expect(aliases.body.data ?? null).toBeNull();
  });

  it('answers a batch up to GRAPHQL_BATCH_LIMIT operations and refuses a larger one; refuses introspection when GRAPHQL_INTROSPECTION=false', async () => {
    const batch = (n: number) =>
      limits.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(Array.from({ length: n }, () => ({ query: '{ scorecard { ledgerHead { seq } } }' }))) });
    const three = await batch(3);
    expect(three.status).toBe(200);
    const answers = (await three.json()) as Result[];
    expect(answers).toHaveLength(3);
    expect(answers.map((a) => a.errors ?? typeof a.data?.scorecard)).toEqual(["object", "object", "object"]);
    const refused = await expectError(await batch(4), 400, 'invalid_body');
    expect(refused.error).toMatch(/batch/i);
    const introspection = await gql('{ __schema { queryType { name } } }', {}, {}, limits);
    expect(introspection.body.data ?? null).toBeNull();
    expect(introspection.body.errors![0]!.message).toMatch(/introspection/i);
    expect((await gql('{ __schema { queryType { name } } }')).body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });

  it('refuses a query above the cost limit of the caller’s tier and admits it at a higher tier', async () => {
    const costly = `{ signals(first: 100) { edges { node { id symbol finalScore snapshot { symbol price } earnings { symbol } } } } }`;
    const anonymous = await gql(costly, {}, {}, limits);
    expect(anonymous.body.data ?? null).toBeNull();
    expect(anonymous.body.errors![0]!.extensions!.code).toBe('QUERY_TOO_COSTLY');
    expect(anonymous.body.errors![0]!.message).toMatch(/limit of 500 for anonymous callers/);
    const byPro = await gql(costly, {}, { cookie: await sessionCookie(limits, 'gq-pro', 'pro') }, limits);
    expect(byPro.body.errors).toBeUndefined();
  });

  it('executes the operation a request names in a document of several, each time (graphql-jit compiles one operation per document)', async () => {
    const document = 'query Count { signals(first: 1) { totalCount } } query Typename { __typename }';
    const send = (operationName: string) => ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: document, operationName }) }).then((r) => r.json() as Promise<Result>);
    expect((await send('Count')).data).toEqual({ signals: { totalCount: expect.any(Number) } });
    expect((await send('Typename')).data).toEqual({ __typename: 'Query' });
    expect((await send('Count')).data).toEqual({ signals: { totalCount: expect.any(Number) } });
  });

  it('serves a persisted query by its hash alone once it was sent with it', async () => {
    const query = '{ scorecard { __typename } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const send = (body: unknown) => ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Result>);
    const unknown = await send({ extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(unknown.errors![0]!.extensions!.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await send({ query, extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(registered.data).toEqual({ scorecard: { __typename: 'ScorecardResponse' } });
    const byHash = await send({ extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(byHash.data).toEqual({ scorecard: { __typename: 'ScorecardResponse' } });
    const wrong = await ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash } } }) });
    const refused = await expectError(wrong, 400, 'invalid_body');
    expect(refused.error).toContain('not the sha256 of the query');
  });

  it('answers a request that is not GraphQL over HTTP with 400 in the Error shape', async () => {
    await expectError(await ctx.request('/api/graphql', { headers: { accept: 'application/json' } }), 400, 'invalid_parameter');
    await expectError(await ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' }), 400, 'invalid_body');
    await expectError(await ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"variables": {}}' }), 400, 'invalid_body');
  });

  it('is documented under the GraphQL tag with optional credentials (public fields need none; the cookie or an API key make it the caller’s)', async () => {
    const doc = (await (await ctx.request('/openapi/json')).json()) as { paths: Record<string, Record<string, { tags: string[]; security: unknown[]; responses: Record<string, unknown> }>> };
    const ops = doc.paths['/api/graphql']!;
    expect(Object.keys(ops).sort()).toEqual(['get', 'post']);
    for (const op of Object.values(ops)) {
      expect(op.tags).toEqual(['GraphQL']);
      expect(op.security).toEqual([{}, { SessionCookie: [] }, { ApiKey: [] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '429']));
    }
  });

  it('executes GET queries too, and serves GraphiQL to a browser with every asset inlined (offline)', async () => {
    const get = await ctx.request(`/api/graphql?query=${encodeURIComponent('{ scorecard { __typename } }')}`, { headers: { accept: 'application/json' } });
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ data: { scorecard: { __typename: 'ScorecardResponse' } } });
    const page = await ctx.request('/api/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('GraphiQL');
    expect(html.length).toBeGreaterThan(100_000);
    expect(html.match(/(?:src|href)=["']?https?:/g)).toBeNull();
    expect(html).not.toContain('unpkg.com');
  });

  it('is rate-limited with REST’s quota and headers (429 in the Error shape)', async () => {
    const cookie = await sessionCookie(limits, 'gq-limited', 'free');
    const post = () => limits.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: '{"query":"{ __typename }"}' });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await post()).status).toBe(200);
    const refused = await expectError(await post(), 429, 'rate_limited');
    expect(refused.error).toContain('Rate limit of 2');
  });
});

describe('answers kept per persisted run (services.graphql.answers)', () => {
  const page = '{ breakouts(limit: 3) { latestPersistedRun rankedSignals { id symbol finalScore } } signals(first: 2, timeframe: "daily") { totalCount edges { node { id } } } }';
  const getPage = (on: TestContext, headers: Record<string, string> = {}) => on.request(`/api/graphql?query=${encodeURIComponent(page)}`, { headers: { accept: 'application/json', ...headers } });

  it('serves a query drawn from the latest run alone as it was sent, until a new run is persisted', async () => {
    const { answers } = ctx.services.graphql;
    answers.clear();
    const first = await getPage(ctx);
    const firstText = await first.text();
    expect(first.status).toBe(200);
    expect(answers.size).toBe(1);
    const second = await getPage(ctx);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await second.text()).toBe(firstText);
    const before = (JSON.parse(firstText) as Result).data!.breakouts.latestPersistedRun.id as string;
    expect(before).toMatch(/^run_/);
    // The same document by POST is another request (its own entry), with the same answer.
    const posted = await gql(page);
    expect(posted.body).toEqual(JSON.parse(firstText));
    expect(answers.size).toBe(2);

    const runId = await ctx.services.runs.persist('daily');
    expect(runId).not.toBe(before);
    const after = (await (await getPage(ctx)).json()) as Result;
    expect(after.data!.breakouts.latestPersistedRun.id).toBe(runId);
    expect((await gql(page)).body.data!.breakouts.latestPersistedRun.id).toBe(runId);
  });

  it('keeps nothing that is read per request, per caller or with errors', async () => {
    const { answers } = ctx.services.graphql;
    answers.clear();
    const kept = async (query: string, headers: Record<string, string> = {}) => {
      const reply = await gql(query, {}, headers);
      expect(reply.status).toBe(200);
      return answers.size;
    };
    expect(await kept('{ signals(first: 2) { edges { node { id snapshot { price } } } } }')).toBe(0);
    expect(await kept('{ signals(first: 2) { edges { node { ...S } } } } fragment S on Signal { earnings { symbol } }')).toBe(0);
    expect(await kept('{ breakouts(limit: 2, asOf: "2026-01-02") { asOf } }')).toBe(0);
    expect(await kept('{ signals(first: 2, symbols: ["AAPL"]) { totalCount } }')).toBe(0);
    expect(await kept('{ signals(first: 2) { totalCount } scorecard { generatedAt } }')).toBe(0);
    expect(await kept('{ watchlists { items { id } } }', { cookie: pro })).toBe(0);
    expect(await kept('{ breakouts(view: "nope") { asOf } }')).toBe(0);
    const batch = await ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ query: '{ signals(first: 1) { totalCount } }' }, { query: '{ signals(first: 2) { totalCount } }' }]) });
    expect(batch.status).toBe(200);
    expect(answers.size).toBe(0);
    // With a variable the timeframe is read from it: kept under that timeframe's run.
    expect(await kept('query($tf: String) { signals(first: 1, timeframe: $tf) { totalCount } }')).toBe(1);
  });

  it('serves a kept answer only to a caller whose tier allows its cost, and a hash alone only while it is held', async () => {
    const costly = '{ signals(first: 100) { edges { node { id symbol finalScore scoreBand patternType breakoutState } } } }';
    limits.services.graphql.answers.clear();
    const byPro = await gql(costly, {}, { cookie: await sessionCookie(limits, 'gq-pro-kept', 'pro') }, limits);
    expect(byPro.body.errors).toBeUndefined();
    expect(limits.services.graphql.answers.size).toBe(1);
    const anonymous = await gql(costly, {}, {}, limits);
    expect(anonymous.body.errors![0]!.extensions!.code).toBe('QUERY_TOO_COSTLY');

    const query = '{ signals(first: 1) { totalCount } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };
    expect((await ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, extensions }) })).status).toBe(200);
    const byHash = () => ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ extensions }) }).then((r) => r.json() as Promise<Result>);
    expect((await byHash()).data).toEqual({ signals: { totalCount: expect.any(Number) } });
    expect((await byHash()).data).toEqual({ signals: { totalCount: expect.any(Number) } });
    ctx.services.graphql.persistedQueries.delete(extensions.persistedQuery.sha256Hash);
    expect((await byHash()).errors![0]!.extensions!.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });
});
