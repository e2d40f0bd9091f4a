/**
 * Open GraphQL event streams are capped with /api/stream's, one budget
 * (SSE_MAX_CONNECTIONS per instance: 503; SSE_MAX_CONNECTIONS_PER_CLIENT per
 * client: 429; both with Retry-After, before the stream opens): a
 * subscription on /api/graphql, an operation's own stream and a reserved
 * stream opened on /api/graphql/stream. A place is given back once when the
 * stream ends, is cancelled, or its client goes away; requests answered
 * otherwise count nothing. The built GraphQL service closes with the
 * services (its reservation timer stops). Served over loopback; the count is
 * read from services.streamCaps, waited for by its own releases (no
 * sleeps).
 */
import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test';
import { StreamReservations } from '../../../src/modules/graphql/reservations';
import { expectError } from '../../helpers/account';
import { smallSyntheticMarket } from '../../helpers/app';
import { listenTestServer, type TestServer } from '../../helpers/server';

const SUBSCRIPTION = 'subscription { breakoutNew { signal { id } } }';

describe('GraphQL event streams under the stream caps, served', () => {
  let server: TestServer;
  /** Streams counted in and not yet out (services.streamCaps). */
  let open = 0;
  let admitted = 0;
  const waiters = new Set<() => void>();
  /** Resolves once `open` is `count` (checked at each release). */
  const openIs = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => open === count && (waiters.delete(check), resolve());
      waiters.add(check);
      check();
    });

  beforeAll(async () => {
    server = await listenTestServer({
      provider: smallSyntheticMarket(),
      env: { RATE_LIMIT_QUOTA: '100000', SSE_MAX_CONNECTIONS: '2', SSE_MAX_CONNECTIONS_PER_CLIENT: '1', SSE_RETRY_MS: '4000', TRUST_PROXY: '1' },
    });
    const caps = server.ctx.services.streamCaps;
    const admit = caps.admit.bind(caps);
    const release = caps.release.bind(caps);
    caps.admit = async (key) => {
      await admit(key);
      admitted++;
      open++;
    };
    caps.release = (key) => {
      release(key);
      open--;
      for (const check of [...waiters]) check();
    };
  });
  let closed = false;
  afterAll(() => (closed ? undefined : server.close()));

  const from = (ip: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': ip, ...headers });
  /** An operation's own stream (distinct connections mode), by GET. */
  const ownStream = (ip: string, query = SUBSCRIPTION, signal?: AbortSignal) =>
    server.get(`/api/graphql/stream?query=${encodeURIComponent(query)}`, { headers: from(ip, { accept: 'text/event-stream' }), signal });
  /** A subscription answered as an event stream on /api/graphql. */
  const subscription = (ip: string, signal?: AbortSignal) =>
    server.get('/api/graphql', { method: 'POST', headers: from(ip, { accept: 'text/event-stream', 'content-type': 'application/json' }), body: JSON.stringify({ query: SUBSCRIPTION }), signal });
  const reserve = async (ip: string) => {
    const response = await server.get('/api/graphql/stream', { method: 'PUT', headers: from(ip) });
    expect(response.status).toBe(201);
    return response.text();
  };
  const openReserved = (ip: string, token: string, signal?: AbortSignal) => server.get(`/api/graphql/stream?token=${token}`, { headers: from(ip, { accept: 'text/event-stream' }), signal });
  /**
   * Every stream opened, held until the file ends: a Response nobody references is collected, and Bun's fetch
   * then cancels its unread body — the server rightly sees the client go away and frees its place, mid-test
   * (CI, on a busy process's heap: a stream still wanted counted out).
   */
  const opened: Response[] = [];
  const streaming = (response: Response) => {
    expect([response.status, response.headers.get('content-type')?.startsWith('text/event-stream')]).toEqual([200, true]);
    opened.push(response);
    return response;
  };
  const refused = async (response: Response, status: 429 | 503) => {
    expect(response.headers.get('retry-after')).toBe('4');
    await expectError(response, status, status === 429 ? 'rate_limited' : 'unavailable');
  };

  it('counts each kind of stream, refuses past the per-client (429) and instance (503) caps with Retry-After, and frees the place when the client goes away', async () => {
    const a = new AbortController();
    streaming(await ownStream('10.0.0.1', SUBSCRIPTION, a.signal));
    expect(open).toBe(1);
    await refused(await ownStream('10.0.0.1'), 429);
    await refused(await subscription('10.0.0.1'), 429);
    const b = new AbortController();
    streaming(await subscription('10.0.0.2', b.signal));
    expect(open).toBe(2);
    await refused(await ownStream('10.0.0.3'), 503);
    await refused(await subscription('10.0.0.3'), 503);
    // A reserved stream is refused before it opens: its reservation stays, and opens once a place is free.
    const token = await reserve('10.0.0.3');
    await refused(await openReserved('10.0.0.3', token), 503);
    expect(open).toBe(2);
    a.abort();
    await openIs(1);
    const c = new AbortController();
    const reserved = streaming(await openReserved('10.0.0.3', token, c.signal));
    await reserved.body!.getReader().read();
    expect(open).toBe(2);
    b.abort();
    c.abort();
    await openIs(0);
  });

  it('shares one budget with /api/stream: an open /api/stream takes the client\'s place and the instance\'s', async () => {
    const events = new AbortController();
    const stream = await server.get('/api/stream', { headers: from('10.0.3.1', { accept: 'text/event-stream' }), signal: events.signal });
    expect([stream.status, open]).toEqual([200, 1]);
    await refused(await ownStream('10.0.3.1'), 429);
    const other = new AbortController();
    streaming(await subscription('10.0.3.2', other.signal));
    await refused(await server.get('/api/stream', { headers: from('10.0.3.3', { accept: 'text/event-stream' }) }), 503);
    await refused(await ownStream('10.0.3.3'), 503);
    events.abort();
    other.abort();
    await openIs(0);
  });

  it('does not count a request answered otherwise: a query as JSON, a reservation, an operation added to a reserved stream', async () => {
    const held = new AbortController();
    streaming(await ownStream('10.0.1.1', SUBSCRIPTION, held.signal));
    const before = admitted;
    const query = await server.get('/api/graphql', { method: 'POST', headers: from('10.0.1.1', { 'content-type': 'application/json' }), body: JSON.stringify({ query: '{ __typename }' }) });
    expect(await query.json()).toEqual({ data: { __typename: 'Query' } });
    const token = await reserve('10.0.1.1');
    const added = await server.get('/api/graphql/stream', {
      method: 'POST',
      headers: from('10.0.1.1', { 'content-type': 'application/json', 'x-graphql-event-stream-token': token }),
      body: JSON.stringify({ query: SUBSCRIPTION, extensions: { operationId: 'op1' } }),
    });
    expect(added.status).toBe(202);
    expect([admitted, open]).toEqual([before, 1]);
    held.abort();
    await openIs(0);
  });

  it('returns the count to zero after many open/close cycles: streams that end, are cancelled, or whose client disconnects mid-stream', async () => {
    for (let i = 0; i < 6; i++) {
      // A query's own stream ends by itself (next, complete).
      const ended = streaming(await ownStream('10.0.2.1', '{ __typename }'));
      expect(await ended.text()).toContain('event: complete');
      await openIs(0);
      // A subscription read from, then dropped mid-stream by its client.
      const abort = new AbortController();
      const dropped = streaming(await subscription('10.0.2.1', abort.signal));
      expect(open).toBe(1);
      const reader = dropped.body!.getReader();
      const first = reader.read();
      abort.abort();
      await first.catch(() => undefined);
      await openIs(0);
      // A reserved stream opened, then its reader cancelled.
      const token = await reserve('10.0.2.1');
      const reserved = streaming(await openReserved('10.0.2.1', token));
      await reserved.body!.cancel();
      await openIs(0);
    }
    expect(admitted).toBeGreaterThanOrEqual(18);
  });

  it('stops the reservation timer of the built service when the server closes (services.close)', async () => {
    const closes = spyOn(StreamReservations.prototype, 'close');
    try {
      await server.close();
      closed = true;
      expect(closes).toHaveBeenCalledTimes(1);
    } finally {
      closes.mockRestore();
    }
  });
});
