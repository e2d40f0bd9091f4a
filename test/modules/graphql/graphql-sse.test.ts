/**
 * /api/graphql/stream: the GraphQL over Server-Sent Events Protocol, spoken by
 * the `graphql-sse` package's own client against a listening server, in both
 * modes — distinct connections (a stream per operation) and single connection
 * (a stream reserved by PUT, operations added by POST with its token) — fed by
 * the event bus of /api/stream: `breakoutNew` for anyone, `alertDispatched` of
 * the caller's own rules only, refused without a credential. The protocol's
 * refusals come in the Error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createClient, type Client, type ExecutionResult } from 'graphql-sse';
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
    await expectError(await server.get('/api/graphql/stream'), 404, 'not_found');
    await expectError(await server.get('/api/graphql/stream?token=00000000-0000-4000-8000-000000000000', { method: 'DELETE' }), 404, 'not_found');
    await expectError(await server.get('/api/graphql/stream', { method: 'POST', headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': 'unknown' }, body: '{"query":"{ __typename }"}' }), 404, 'not_found');
    const put = await server.get('/api/graphql/stream', { method: 'PUT' });
    const token = await put.text();
    await expectError(await server.get(`/api/graphql/stream?token=${token}`, { method: 'DELETE' }), 400, 'invalid_parameter');
    const unparsable = await server.get('/api/graphql/stream', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: '{"query":"subscription {"}' });
    expect((await expectError(unparsable, 400, 'invalid_body')).error).toContain('Syntax Error');
  });
});
