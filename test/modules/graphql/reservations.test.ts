/**
 * Streams reserved by PUT /api/graphql/stream (graphql-sse single connection
 * mode) are bounded: one not opened within GRAPHQL_SSE_RESERVATION_SECONDS is
 * released (its token then names nothing, and the operations added to it
 * stop), one opened is never released while it is open, and the reservations
 * not yet opened are capped per instance (503) and per client (429), with
 * Retry-After. Time is moved (an injected clock, `setSystemTime` for the
 * server), never slept.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, setSystemTime } from 'bun:test';
import { StreamReservations } from '../../../src/modules/graphql/reservations';
import { AppError } from '../../../src/errors';
import { expectError, sessionCookie } from '../../helpers/account';
import { smallSyntheticMarket } from '../../helpers/app';
import { listenTestServer, type TestServer } from '../../helpers/server';

const LIMITS = { reservationSeconds: 30, maxReservations: 3, maxReservationsPerClient: 2 };

describe('StreamReservations (an injected clock)', () => {
  const made = (now: () => number) => {
    const released: string[] = [];
    const reservations = new StreamReservations(LIMITS, async (token) => void released.push(token), now);
    return { reservations, released };
  };
  const refusal = (fn: () => unknown): AppError => {
    try {
      fn();
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('not refused');
  };

  it('releases a reservation not opened in time, and only then', () => {
    let now = 1_000_000;
    const { reservations, released } = made(() => now);
    const first = reservations.reserve('ip:a');
    now += 10_000;
    const second = reservations.reserve('ip:b');
    now += 19_999;
    expect([reservations.has(first), reservations.has(second)]).toEqual([true, true]);
    expect(released).toEqual([]);
    now += 1;
    expect([reservations.has(first), reservations.has(second)]).toEqual([false, true]);
    expect(released).toEqual([first]);
    now += 10_000;
    reservations.expire();
    expect(released).toEqual([first, second]);
    expect(reservations.has(second)).toBe(false);
    reservations.close();
  });

  it('never releases an opened stream; its token names nothing once it is closed', () => {
    let now = 0;
    const { reservations, released } = made(() => now);
    const token = reservations.reserve('ip:a');
    reservations.opened(token);
    now += 3_600_000;
    reservations.expire();
    expect(reservations.has(token)).toBe(true);
    expect(released).toEqual([]);
    reservations.closed(token);
    expect(reservations.has(token)).toBe(false);
    reservations.close();
  });

  it('caps reservations not yet opened per client (429) and per instance (503), with Retry-After; opening or expiry frees a place', () => {
    let now = 0;
    const { reservations } = made(() => now);
    const a1 = reservations.reserve('ip:a');
    reservations.reserve('ip:a');
    const perClient = refusal(() => reservations.reserve('ip:a'));
    expect([perClient.code, perClient.status, perClient.headers['retry-after']]).toEqual(['rate_limited', 429, '30']);
    reservations.reserve('ip:b');
    const instance = refusal(() => reservations.reserve('ip:c'));
    expect([instance.code, instance.status, instance.headers['retry-after']]).toEqual(['unavailable', 503, '30']);
    reservations.opened(a1);
    reservations.reserve('ip:a');
    now += 30_000;
    for (const key of ['ip:c', 'ip:c', 'ip:d']) reservations.reserve(key);
    expect(reservations.has(a1)).toBe(true);
    reservations.close();
  });
});

describe('PUT /api/graphql/stream reservations, served', () => {
  let server: TestServer;
  let pro: string;
  /** Bus subscriptions not yet ended (the live operations of graphql subscriptions). */
  let live = 0;
  beforeAll(async () => {
    server = await listenTestServer({
      provider: smallSyntheticMarket(),
      env: { RATE_LIMIT_QUOTA: '100000', GRAPHQL_SSE_RESERVATION_SECONDS: '30', GRAPHQL_SSE_MAX_RESERVATIONS: '3', GRAPHQL_SSE_MAX_RESERVATIONS_PER_CLIENT: '2' },
    });
    pro = await sessionCookie(server.ctx, 'reservations-pro', 'pro');
    const { bus } = server.ctx.services;
    const subscribe = bus.subscribe.bind(bus);
    bus.subscribe = ((channel, listener) => {
      live++;
      const unsubscribe = subscribe(channel, listener);
      return () => {
        live--;
        unsubscribe();
      };
    }) as typeof bus.subscribe;
  });
  afterAll(() => server.close());
  afterEach(() => setSystemTime());

  const put = async (headers: Record<string, string> = {}) => {
    const response = await server.get('/api/graphql/stream', { method: 'PUT', headers });
    const text = await response.text();
    expect([response.status, text]).toEqual([201, text]);
    return text;
  };
  const add = (token: string, operationId: string) =>
    server.get('/api/graphql/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': token },
      body: JSON.stringify({ query: 'subscription { breakoutNew { signal { id } } }', extensions: { operationId } }),
    });
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 200 && !done(); i++) await Bun.sleep(1);
    expect(done()).toBe(true);
  };

  it('refuses an expired token as an unknown stream (GET, POST, DELETE) and stops the operations added to it', async () => {
    const token = await put();
    const before = live;
    expect((await add(token, 'op1')).status).toBe(202);
    await until(() => live === before + 1);
    setSystemTime(Date.now() + 30_001);
    const stream = await server.get(`/api/graphql/stream?token=${token}`, { headers: { accept: 'text/event-stream' } });
    expect((await expectError(stream, 404, 'not_found')).error).toContain('No such stream');
    await expectError(await add(token, 'op2'), 404, 'not_found');
    await expectError(await server.get(`/api/graphql/stream?operationId=op1&token=${token}`, { method: 'DELETE' }), 404, 'not_found');
    // graphql-sse disposed the stream: the subscription it ran has ended.
    await until(() => live === before);
  });

  it('never releases an opened stream while it is open; its token names nothing after it closes', async () => {
    const token = await put();
    const aborter = new AbortController();
    const stream = await server.get(`/api/graphql/stream?token=${token}`, { headers: { accept: 'text/event-stream' }, signal: aborter.signal });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read();
    setSystemTime(Date.now() + 3_600_000);
    expect((await add(token, 'op1')).status).toBe(202);
    aborter.abort();
    await reader.cancel().catch(() => undefined);
    // The server sees the close shortly after.
    let status = 0;
    for (let i = 0; i < 200 && status !== 404; i++) {
      status = (await add(token, `op${i + 2}`)).status;
      if (status !== 404) await Bun.sleep(1);
    }
    expect(status).toBe(404);
  });

  it('answers 429 past the per-client cap and 503 past the instance cap, in the Error shape with Retry-After; a refused PUT holds no place', async () => {
    setSystemTime(Date.now() + 31_000); // every earlier reservation has expired (a session lives longer)
    for (let i = 0; i < 3; i++) {
      await expectError(await server.get('/api/graphql/stream', { method: 'PUT', headers: { accept: 'application/json' } }), 400, 'invalid_parameter');
      await expectError(await server.get('/api/graphql/stream', { method: 'PUT', headers: { accept: 'text/event-stream' } }), 400, 'invalid_parameter');
    }
    await put();
    await put();
    const perClient = await server.get('/api/graphql/stream', { method: 'PUT' });
    expect(perClient.headers.get('retry-after')).toBe('30');
    await expectError(perClient, 429, 'rate_limited');
    await put({ cookie: pro });
    const instance = await server.get('/api/graphql/stream', { method: 'PUT', headers: { cookie: pro } });
    expect(instance.headers.get('retry-after')).toBe('30');
    await expectError(instance, 503, 'unavailable');
  });
});
