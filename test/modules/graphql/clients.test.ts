/**
 * What a GraphQL client developer does, against a listening server:
 *
 * - /api/graphql/stream: the GraphQL over Server-Sent Events Protocol, spoken
 *   by the `graphql-sse` package's own client in both modes — distinct
 *   connections (a stream per operation) and single connection (a stream
 *   reserved by PUT, operations added by POST with its token) — fed by the
 *   event bus of /api/stream: `breakoutNew` for anyone, `alertDispatched` of
 *   the caller's own rules only, refused without a credential. The protocol's
 *   refusals come in the Error shape.
 * - the committed SDL (schema.graphql) is the served schema, the committed
 *   generated types (generated/types.ts, generated/operations.ts) are what graphql-codegen makes of it
 *   and of client.graphql now, and a small client written against them
 *   type-checks under strict tsc and runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { generate, loadCodegenConfig } from '@graphql-codegen/cli';
import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { createClient, type Client, type ExecutionResult } from 'graphql-sse';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Signal } from '../../../src/domain/signal';
import { expectError, sessionCookie } from '../../helpers/account';
import { smallSyntheticMarket } from '../../helpers/app';
import { listenTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let url: string;
let pro: string;
let signal: Signal;
beforeAll(async () => {
  server = await listenTestServer({ provider: smallSyntheticMarket(), env: { RATE_LIMIT_QUOTA: '100000' } });
  url = `http://127.0.0.1:${server.port}/api/graphql/stream`;
  pro = await sessionCookie(server.ctx, 'sse-pro', 'pro');
  const page = (await (await server.get('/api/breakouts?limit=1')).json()) as { rankedSignals: Signal[] };
  expect(page.rankedSignals.length).toBe(1);
  signal = page.rankedSignals[0]!;
});
afterAll(() => server.close());

type Result = ExecutionResult<Record<string, any>>;

/** The first result of a subscription, publishing on the bus until it comes (the operation is live once the server has subscribed). */
async function firstResult(client: Client, query: string, publish: () => void): Promise<Result> {
  const results = client.iterate<Record<string, any>>({ query });
  const first = results.next();
  let done = false;
  void first.finally(() => (done = true));
  while (!done) {
    publish();
    await Promise.race([first, Bun.sleep(5)]);
  }
  const { value } = await first;
  await results.return?.();
  return value as Result;
}

const breakoutNew = 'subscription { breakoutNew { signal { id symbol finalScore } } }';
const publishBreakout = () => server.ctx.services.bus.publish('breakouts.new', { signal });
const alerts = 'subscription { alertDispatched { alertId symbol ruleId } }';
const base = { signalId: 'AAPL-x', symbol: 'AAPL', at: '2026-11-20T21:00:00.000Z' };
/** Someone else's alert, then the pro user's: a stream of the pro user's must skip the first. */
const publishAlerts = () => {
  server.ctx.services.bus.publish('alerts.dispatched', { ...base, alertId: 'alr_other', userId: 'someone-else', ruleId: 'rul_1', rule: { id: 'rul_1', name: 'x' } });
  server.ctx.services.bus.publish('alerts.dispatched', { ...base, alertId: 'alr_mine', userId: 'sse-pro', ruleId: 'rul_2', rule: { id: 'rul_2', name: 'mine' } });
};

describe.each([
  ['distinct connections', false],
  ['single connection', true],
])('the graphql-sse client in %s mode', (_mode, singleConnection) => {
  it('receives breakoutNew as published on the bus, without a credential', async () => {
    // The requests the client makes: single connection mode reserves its stream by PUT first.
    const methods: string[] = [];
    const fetchFn = (input: RequestInfo | URL, init?: RequestInit) => {
      methods.push(init?.method ?? 'GET');
      return fetch(input, init);
    };
    const client = createClient({ url, singleConnection, retryAttempts: 0, fetchFn });
    const result = await firstResult(client, breakoutNew, publishBreakout);
    expect(result).toEqual({ data: { breakoutNew: { signal: { id: signal.id, symbol: signal.symbol, finalScore: signal.finalScore } } } });
    client.dispose();
    expect(methods.slice(0, 3)).toEqual(singleConnection ? ['PUT', 'GET', 'POST'] : ['POST']);
  });

  it("receives alertDispatched of the signed-in user's own rules only", async () => {
    const client = createClient({ url, singleConnection, retryAttempts: 0, headers: { cookie: pro } });
    const result = await firstResult(client, alerts, publishAlerts);
    expect(result).toEqual({ data: { alertDispatched: { alertId: 'alr_mine', symbol: 'AAPL', ruleId: 'rul_2' } } });
    client.dispose();
  });

  it('refuses alertDispatched without a credential (UNAUTHENTICATED in the result)', async () => {
    const client = createClient({ url, singleConnection, retryAttempts: 0 });
    const result = await firstResult(client, alerts, publishAlerts);
    expect(result.data ?? null).toBeNull();
    expect(result.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    client.dispose();
  });
});

describe('the protocol by hand', () => {
  it('opens a distinct stream for a client that sends no Accept (or a list naming text/event-stream)', async () => {
    for (const accept of [undefined, 'text/event-stream, */*']) {
      // A query's stream ends after its one result.
      const response = await server.get(`/api/graphql/stream?query=${encodeURIComponent('{ __typename }')}`, { headers: accept ? { accept } : {} });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      expect(await response.text()).toContain('event: next\ndata: {"data":{"__typename":"Query"}}');
    }
  });

  it('reserves a stream by PUT (a server token), adds an operation by POST with it, and stops it by DELETE', async () => {
    const put = await server.get('/api/graphql/stream', { method: 'PUT' });
    expect(put.status).toBe(201);
    const token = await put.text();
    expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The token is always the server's: one the client names on PUT is not taken.
    const named = await server.get('/api/graphql/stream', { method: 'PUT', headers: { 'x-graphql-event-stream-token': token } });
    expect(named.status).toBe(201);
    expect(await named.text()).not.toBe(token);

    const added = await server.get('/api/graphql/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': token },
      body: JSON.stringify({ query: breakoutNew, extensions: { operationId: 'op1' } }),
    });
    expect(added.status).toBe(202);
    expect(added.headers.get('content-type')).toContain('text/plain');
    const again = await server.get('/api/graphql/stream', { method: 'POST', headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': token }, body: JSON.stringify({ query: breakoutNew, extensions: { operationId: 'op1' } }) });
    await expectError(again, 409, 'conflict');
    const stopped = await server.get(`/api/graphql/stream?operationId=op1&token=${token}`, { method: 'DELETE' });
    expect(stopped.status).toBe(200);
  });

  it('answers the protocol refusals in the Error shape', async () => {
    // Without a token only a stream can be meant: no Accept is taken as text/event-stream, and a stream needs a document.
    await expectError(await server.get('/api/graphql/stream'), 400, 'invalid_parameter');
    await expectError(await server.get('/api/graphql/stream', { method: 'DELETE' }), 404, 'not_found');
    await expectError(await server.get('/api/graphql/stream', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' }), 400, 'invalid_body');
    await expectError(await server.get('/api/graphql/stream', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": "{ __typename }", "variables": 5}' }), 400, 'invalid_body');
    await expectError(await server.get('/api/graphql/stream?token=00000000-0000-4000-8000-000000000000', { method: 'DELETE' }), 404, 'not_found');
    await expectError(await server.get('/api/graphql/stream', { method: 'POST', headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': 'unknown' }, body: '{"query":"{ __typename }"}' }), 404, 'not_found');
    const put = await server.get('/api/graphql/stream', { method: 'PUT' });
    const token = await put.text();
    await expectError(await server.get(`/api/graphql/stream?token=${token}`, { method: 'DELETE' }), 400, 'invalid_parameter');
    // graphql-sse keeps streams and operations in plain objects: names of Object.prototype members never reach them.
    await expectError(await server.get('/api/graphql/stream?token=valueOf&operationId=x', { method: 'DELETE' }), 404, 'not_found');
    await expectError(await server.get(`/api/graphql/stream?token=${token}&operationId=constructor`, { method: 'DELETE' }), 400, 'invalid_parameter');
    const reserved = await server.get('/api/graphql/stream', { method: 'POST', headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': token }, body: JSON.stringify({ query: breakoutNew, extensions: { operationId: '__proto__' } }) });
    expect((await expectError(reserved, 400, 'invalid_body')).error).toContain('reserved');
    await expectError(await server.get('/api/graphql/stream', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '\uFEFF{"query": "{ __typename }"}' }), 400, 'invalid_body');
    const unparsable = await server.get('/api/graphql/stream', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: '{"query":"subscription {"}' });
    expect((await expectError(unparsable, 400, 'invalid_body')).error).toContain('Syntax Error');
  });
});

const GRAPHQL_DIR = join(import.meta.dir, '../../../src/modules/graphql');

/** A small client as a developer would write it from the generated types (./types) and the operations they type (./documents). */
const CLIENT = `
import type { SignalWithSnapshotQuery, SignalWithSnapshotQueryVariables, TopSignalsQuery, TopSignalsQueryVariables } from './operations';
import { documents } from './documents';

async function request<Data, Variables>(base: string, operationName: string, variables: Variables): Promise<Data> {
  const response = await fetch(base + '/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: documents, operationName, variables }) });
  const body = (await response.json()) as { data?: Data | null; errors?: { message: string }[] };
  if (!body.data || body.errors) throw new Error(operationName + ': ' + (body.errors?.[0]?.message ?? 'no data'));
  return body.data;
}

export async function run(base: string): Promise<string[]> {
  const top = await request<TopSignalsQuery, TopSignalsQueryVariables>(base, 'TopSignals', { first: 2, timeframe: 'daily' });
  const total: number = top.signals.totalCount;
  const more: boolean = top.signals.pageInfo.hasNextPage;
  // @ts-expect-error totalCount is a number, never a string
  const notAString: string = top.signals.totalCount;
  const first = top.signals.edges[0];
  if (!first || !first.node.id) throw new Error('no signal');
  const scores: (number | null)[] = top.signals.edges.map((edge) => edge.node.finalScore);
  // @ts-expect-error a variable of the wrong type
  const wrong: TopSignalsQueryVariables = { first: 'two' };
  const one = await request<SignalWithSnapshotQuery, SignalWithSnapshotQueryVariables>(base, 'SignalWithSnapshot', { id: first.node.id });
  const price: number | null | undefined = one.signal?.snapshot?.price;
  return ['total ' + total + ' ' + more + ' ' + typeof notAString + ' ' + typeof wrong.first, 'scores ' + scores.length, 'signal ' + (one.signal?.id === first.node.id) + ' ' + typeof price];
}
`;

describe('the schema and the types a client generates', () => {
  it('commits the served schema as schema.graphql (npm run graphql:generate prints it)', async () => {
    const response = await server.get('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: getIntrospectionQuery() }) });
    const { data } = (await response.json()) as { data: IntrospectionQuery };
    const committed = await readFile(join(GRAPHQL_DIR, 'schema.graphql'), 'utf8');
    expect(committed).toContain('type Subscription {');
    expect(committed).toBe(`${printSchema(buildClientSchema(data))}\n`);
  });

  it('commits what graphql-codegen generates from it and client.graphql now', async () => {
    const root = join(GRAPHQL_DIR, '../../..');
    const { config } = (await loadCodegenConfig({ configFilePath: join(GRAPHQL_DIR, 'codegen.yml') }))!;
    const outputs = await generate({ ...config, cwd: root, silent: true }, false);
    expect(outputs.map((o: { filename: string }) => o.filename)).toEqual(['src/modules/graphql/generated/types.ts', 'src/modules/graphql/generated/operations.ts']);
    expect(outputs[0]!.content).toBe(await readFile(join(GRAPHQL_DIR, 'generated/types.ts'), 'utf8'));
    expect(outputs[1]!.content).toBe(await readFile(join(GRAPHQL_DIR, 'generated/operations.ts'), 'utf8'));
  });

  it('type-checks a small client against the generated types under strict tsc, and runs it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'breakline-graphql-client-'));
    try {
      await writeFile(join(dir, 'types.ts'), await readFile(join(GRAPHQL_DIR, 'generated/types.ts'), 'utf8'));
      await writeFile(join(dir, 'operations.ts'), await readFile(join(GRAPHQL_DIR, 'generated/operations.ts'), 'utf8'));
      await writeFile(join(dir, 'documents.ts'), `export const documents = ${JSON.stringify(await readFile(join(GRAPHQL_DIR, 'client.graphql'), 'utf8'))};\n`);
      await writeFile(join(dir, 'client.ts'), CLIENT);
      // In the temporary folder: a developer's project, not ours (no tsconfig, no @types).
      const tsc = Bun.spawnSync(
        [join(import.meta.dir, '../../../node_modules/.bin/tsc'), '--noEmit', '--strict', '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'bundler', '--lib', 'ES2022,DOM', '--types', '', 'client.ts'],
        { cwd: dir },
      );
      expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe('');
      expect(tsc.exitCode).toBe(0);
      const { run } = (await import(join(dir, 'client.ts'))) as { run: (base: string) => Promise<string[]> };
      const lines = await run(`http://127.0.0.1:${server.port}`);
      expect(lines[0]).toMatch(/^total [1-9]\d* (true|false) number string$/);
      expect(lines.slice(1)).toEqual(['scores 2', 'signal true number']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
