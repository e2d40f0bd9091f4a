/**
 * The GraphQL schema driven by a standard client (issue 31): @urql/core over
 * fetch against a listening server. It reads typed answers (an enum value, a
 * non-null list, the bars' pagination), and reads a validation error and an
 * execution error as GraphQL errors (GraphQL-over-HTTP), not as a REST body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { Client, fetchExchange, gql } from '@urql/core';
import { smallSyntheticMarket } from '../../helpers/app';
import { listenTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await listenTestServer({ provider: smallSyntheticMarket(), env: { RATE_LIMIT_QUOTA: '100000' } });
  client = new Client({ url: `http://127.0.0.1:${server.port}/api/graphql`, exchanges: [fetchExchange], requestPolicy: 'network-only' });
});
afterAll(() => server.close());

const BARS = gql`
  query Bars($symbol: String!, $cursor: String) {
    bars(symbol: $symbol, range: "max", limit: 40, cursor: $cursor) {
      symbol
      bars { date close }
      pagination { nextCursor hasMore total offset order }
    }
  }
`;

interface BarsData {
  bars: { symbol: string; bars: { date: string; close: number }[]; pagination: { nextCursor: string | null; hasMore: boolean; total: number; offset: number; order: 'asc' | 'desc' } };
}

describe('GraphQL through @urql/core', () => {
  it('pages the bars with the cursor, the order an enum value', async () => {
    const first = await client.query<BarsData>(BARS, { symbol: 'AAPL' }).toPromise();
    expect(first.error).toBeUndefined();
    const page = first.data!.bars;
    expect(page.bars).toHaveLength(40);
    expect(page.pagination).toMatchObject({ hasMore: true, offset: 0, order: 'asc' });
    const second = await client.query<BarsData>(BARS, { symbol: 'AAPL', cursor: page.pagination.nextCursor }).toPromise();
    expect(second.data!.bars.pagination.offset).toBe(40);
    expect(second.data!.bars.bars[0]!.date > page.bars.at(-1)!.date).toBe(true);
  });

  it('reads a validation error as GraphQL errors', async () => {
    const result = await client.query(gql`{ bars(symbol: "AAPL", range: "1mo") { nope } }`, {}).toPromise();
    expect(result.data).toBeUndefined();
    expect(result.error?.graphQLErrors.map((e) => e.message).join(' ')).toContain('nope');
  });

  it('reads an argument the REST schema refuses as an error of its field', async () => {
    const result = await client.query(gql`{ bars(symbol: "AAPL", range: "1y") { symbol } }`, {}).toPromise();
    expect(result.error?.graphQLErrors[0]?.path).toEqual(['bars']);
    expect(result.error?.graphQLErrors[0]?.message).toContain("'range'");
  });
});
