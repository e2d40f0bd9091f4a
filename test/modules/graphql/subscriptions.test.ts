/**
 * GraphQL subscriptions over SSE on /api/graphql, fed by the event bus of
 * /api/stream: breakoutNew and breakoutStateChange as published, and
 * alertDispatched of the caller's own rules only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Signal } from '../../../src/domain/signal';
import { createTestContext, type TestContext } from '../../helpers/app';
import { sessionCookie } from '../../helpers/account';
import { smallMarket } from '../../helpers/small-market';
import { postGraphql, type Result } from './requests';

let ctx: TestContext;
let pro: string;
beforeAll(async () => {
  ctx = await createTestContext({ provider: await smallMarket(30) });
  await ctx.services.runs.persist('daily');
  pro = await sessionCookie(ctx, 'gq-pro', 'pro');
});
afterAll(async () => {
  await ctx.close();
});

describe('subscriptions over SSE, fed by the event bus of /api/stream', () => {
  /** Opens a subscription as an event stream and returns a reader of its `next` payloads. */
  async function subscribe(query: string, headers: Record<string, string> = {}) {
    const abort = new AbortController();
    const response = await ctx.request('/api/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ query }),
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    return {
      async next(): Promise<Result> {
        for (;;) {
          const frame = /event: next\ndata: (.*)\n\n/.exec(buffer);
          if (frame) {
            buffer = buffer.slice(frame.index + frame[0].length);
            return JSON.parse(frame[1]!) as Result;
          }
          const { value, done } = await reader.read();
          if (done) throw new Error(`stream ended: ${buffer}`);
          buffer += decoder.decode(value, { stream: true });
        }
      },
      close: () => abort.abort(),
    };
  }

  /** Publishes until the subscription (live once yoga has subscribed to the bus) has received a frame. */
  async function publishUntil(received: Promise<Result>, publish: () => void): Promise<Result> {
    let done = false;
    void received.finally(() => (done = true));
    while (!done) {
      publish();
      await Promise.race([received, Bun.sleep(5)]);
    }
    return received;
  }

  it('delivers breakoutNew and breakoutStateChange as published on the bus', async () => {
    const latest = await ctx.json<{ rankedSignals: Signal[] }>('/api/breakouts?limit=1');
    expect(latest.status).toBe(200);
    const [signal] = latest.body.rankedSignals;
    expect(signal).toBeDefined();
    const stream = await subscribe('subscription { breakoutNew { signal { id symbol finalScore } } }');
    // The subscription is live once yoga has called subscribe: publish after the first read has started.
    const received = publishUntil(stream.next(), () => ctx.services.bus.publish('breakouts.new', { signal: signal! }));
    expect((await received).data).toEqual({ breakoutNew: { signal: { id: signal!.id, symbol: signal!.symbol, finalScore: signal!.finalScore } } });
    stream.close();

    const changes = await subscribe('subscription { breakoutStateChange { signalId from to price } }');
    const change = publishUntil(changes.next(), () =>
      ctx.services.bus.publish('breakouts.state_change', { signalId: signal!.id, symbol: signal!.symbol, from: 'triggered', to: 'confirmed', price: 101.5, at: '2026-11-20T21:00:00.000Z' }),
    );
    expect((await change).data).toEqual({ breakoutStateChange: { signalId: signal!.id, from: 'triggered', to: 'confirmed', price: 101.5 } });
    changes.close();
  });

  it("delivers alertDispatched of the caller's own rules only, and refuses it without a credential", async () => {
    const anonymous = await postGraphql(ctx, 'subscription { alertDispatched { alertId } }');
    expect(anonymous.body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const stream = await subscribe('subscription { alertDispatched { alertId symbol ruleId } }', { cookie: pro });
    const base = { signalId: 'AAPL-x', symbol: 'AAPL', at: '2026-11-20T21:00:00.000Z' };
    // Someone else's alert goes first each round: the stream must skip it.
    const received = publishUntil(stream.next(), () => {
      ctx.services.bus.publish('alerts.dispatched', { ...base, alertId: 'alr_other', userId: 'someone-else', ruleId: 'rul_1', rule: { id: 'rul_1', name: 'x' } });
      ctx.services.bus.publish('alerts.dispatched', { ...base, alertId: 'alr_mine', userId: 'gq-pro', ruleId: 'rul_2', rule: { id: 'rul_2', name: 'mine' } });
    });
    expect((await received).data).toEqual({ alertDispatched: { alertId: 'alr_mine', symbol: 'AAPL', ruleId: 'rul_2' } });
    stream.close();
  });
});
