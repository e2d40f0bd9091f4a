/**
 * /api/graphql as a standard client meets it (issue 31): graphql-request
 * (which sends `Accept: application/graphql-response+json, application/json`)
 * against a listening server, and the wire answers of the GraphQL over HTTP
 * spec (graphql/graphql-over-http, spec/GraphQLOverHTTP.md § Status Codes)
 * for both media types: a GraphQL request error is a GraphQL response with
 * `errors` and no `data`, 400 under application/graphql-response+json and
 * 200 under application/json; a request that is not GraphQL over HTTP at all
 * is 400 in the Error shape under either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ClientError, GraphQLClient } from 'graphql-request';
import { listenTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let url: string;
beforeAll(async () => {
  server = await listenTestServer();
  url = `http://127.0.0.1:${server.port}/api/graphql`;
});
afterAll(() => server.close());

/** The ClientError a request rejects with. */
async function clientError(promise: Promise<unknown>): Promise<ClientError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ClientError) return error;
    throw error;
  }
  throw new Error('the request succeeded');
}

describe('graphql-request against the server', () => {
  it('reads data', async () => {
    const client = new GraphQLClient(url);
    const data = await client.request<{ __typename: string; sectorRotation: { __typename: string } }>('{ __typename sectorRotation { __typename } }');
    expect(data.__typename).toBe('Query');
  });

  it('reads the errors of a document that does not validate or parse (400, errors array)', async () => {
    const client = new GraphQLClient(url);
    const invalid = await clientError(client.request('{ nope }'));
    expect(invalid.response.status).toBe(400);
    expect(invalid.response.errors?.[0]?.message).toBe('Cannot query field "nope" on type "Query".');
    const unparsable = await clientError(client.request('{'));
    expect(unparsable.response.status).toBe(400);
    expect(unparsable.response.errors?.[0]?.message).toContain('Syntax Error');
  });

  it('acts with an API key that has the scope, and learns that a revoked key is refused (401 revoked_key)', async () => {
    const { key, info } = await server.ctx.services.auth.keys.create({ userId: 'bot-owner', name: 'bot', tier: 'pro', scopes: ['read', 'write'] });
    const client = new GraphQLClient(url, { headers: { authorization: `Bearer ${key}` } });
    const made = await client.request<{ createWatchlist: { name: string } }>('mutation { createWatchlist(name: "From a bot", symbols: ["AAPL"]) { name } }');
    expect(made.createWatchlist.name).toBe('From a bot');
    await server.ctx.services.auth.keys.revoke(info.id, 'bot-owner');
    const refused = await clientError(client.request('{ __typename }'));
    expect(refused.response.status).toBe(401);
    // Refused before GraphQL runs (the credential is checked for every /api request): the Error shape, which the client hands over as the body.
    expect(JSON.parse(String((refused.response as { body?: unknown }).body))).toMatchObject({ code: 'revoked_key' });
  });
});

describe('a refused credential on the listening server', () => {
  it('is 401 with its code on the hot public reads too (the fast path counts it before answering)', async () => {
    const { key, info } = await server.ctx.services.auth.keys.create({ userId: 'fast-path', name: 'k', tier: 'free' });
    await server.ctx.services.auth.keys.revoke(info.id, 'fast-path');
    for (const path of ['/api/breakouts?limit=1', '/api/bars?symbol=AAPL', '/api/health']) {
      const response = await server.get(path, { headers: { authorization: `Bearer ${key}` } });
      expect({ path, status: response.status }).toEqual({ path, status: 401 });
      expect(await response.json()).toMatchObject({ code: 'revoked_key' });
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
    expect((await server.get('/api/health')).status).not.toBe(401);
  });
});

describe('the wire, per media type', () => {
  const post = (accept: string, body: string) => server.get('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body });
  const requestErrors = [
    ['a document that does not parse', '{"query":"{"}', 'GRAPHQL_PARSE_FAILED'],
    ['a document that does not validate', '{"query":"{ nope }"}', 'GRAPHQL_VALIDATION_FAILED'],
    ['an operation that cannot be determined', '{"query":"query A { __typename } query B { __typename }"}', 'OPERATION_RESOLUTION_FAILURE'],
  ] as const;

  for (const [what, body, code] of requestErrors) {
    it(`answers ${what} 400 under application/graphql-response+json and 200 under application/json, with errors and no data`, async () => {
      const strict = await post('application/graphql-response+json', body);
      expect(strict.status).toBe(400);
      expect(strict.headers.get('content-type')).toStartWith('application/graphql-response+json');
      const strictBody = (await strict.json()) as Record<string, unknown>;
      expect(strictBody).not.toHaveProperty('data');
      expect(strictBody).toMatchObject({ errors: [{ extensions: { code } }] });
      const legacy = await post('application/json', body);
      expect(legacy.status).toBe(200);
      expect(legacy.headers.get('content-type')).toStartWith('application/json');
      expect(await legacy.json()).toMatchObject({ errors: [{ extensions: { code } }] });
    });
  }

  it('answers a request that is not GraphQL over HTTP 400 in the Error shape under either media type', async () => {
    for (const accept of ['application/graphql-response+json', 'application/json']) {
      for (const body of ['NONSENSE', '{"qeury":"{ __typename }"}']) {
        const response = await post(accept, body);
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ code: 'invalid_body', requestId: expect.stringMatching(/^req_/) });
      }
    }
  });
});
