/**
 * The polygon provider's live feed against the loopback Polygon (Massive)
 * stocks cluster, which speaks the documented protocol (status messages,
 * `AM.`/`T.` channels) and replays the recorded SPY minutes of 2025-04-24.
 */
import { describe, expect, it } from 'bun:test';
import { createPolygonProvider, type PolygonProvider } from '../../src/providers/polygon';
import type { LiveTrade } from '../../src/providers/live/types';
import { expectedBar, replayMinutes, streaming as streamingAt, vendorStreams } from '../helpers/vendors/live';
import { until } from '../helpers/until';
import { startPolygonServer, type PolygonServer } from '../helpers/vendors/polygon-server';
import { alpacaMinutes } from '../helpers/vendors/recordings';

const at = (iso: string) => Date.parse(iso);
const recorded = alpacaMinutes();

const streams = vendorStreams<PolygonServer, PolygonProvider>((now) => startPolygonServer({ now }));

function setup(options: { apiKey?: string } = {}) {
  return streams('2025-04-24T13:29:00Z', (server, clock, live) =>
    createPolygonProvider({ apiKey: options.apiKey ?? server.apiKey, baseUrl: server.restUrl, ratePerMinute: 60_000, clock: clock.now, live: { ...live, streamUrl: server.streamUrl } }),
  );
}

/** Waits until the stream is up and the vendor holds the minute bars of every symbol given. */
const streaming = (ctx: ReturnType<typeof setup>, ...symbols: string[]) =>
  streamingAt(ctx.live, () => [...ctx.server.stream.sockets].some((ws) => ws.data.authenticated && symbols.every((s) => ws.data.channels.has(`AM.${s}`))));
const replay = replayMinutes;

describe('polygon stream', () => {
  it('authenticates with the key as params, subscribes AM. and T. channels, and rolls the minutes into the hour', async () => {
    const ctx = setup();
    const trades: LiveTrade[] = [];
    ctx.live.setUniverse(['SPY']);
    ctx.live.watch('SPY', (trade) => trades.push(trade));
    ctx.live.start();
    await streaming(ctx, 'SPY');
    const [auth, subscribe] = ctx.server.stream.received.map((text) => JSON.parse(text));
    expect(auth).toEqual({ action: 'auth', params: ctx.server.apiKey });
    expect(subscribe).toEqual({ action: 'subscribe', params: 'AM.SPY,T.SPY' });
    await replay(ctx, '2025-04-24T13:30:00Z', '2025-04-24T14:30:00Z');
    ctx.clock.set(at('2025-04-24T14:30:00.300Z'));
    await until('the hour to close', () => ctx.closes.some((c) => c.timeframe === '1h'));
    const final = ctx.bars.find((b) => b.timeframe === '1h' && b.final)!;
    expect(final.bar).toEqual({ t: at('2025-04-24T13:30:00Z'), ...expectedBar(recorded, at('2025-04-24T13:30:00Z'), at('2025-04-24T14:30:00Z')) });
    expect(trades.at(-1)).toMatchObject({ symbol: 'SPY', price: 542.2342 });
  });

  it('fills a dropped connection’s gap with 1-minute aggregates over REST before the hour closes', async () => {
    const ctx = setup();
    ctx.live.setUniverse(['SPY']);
    ctx.live.start();
    await streaming(ctx, 'SPY');
    await replay(ctx, '2025-04-24T13:30:00Z', '2025-04-24T14:10:00Z');
    const before = ctx.server.state.requests.length;
    ctx.server.drop();
    ctx.clock.set(at('2025-04-24T14:45:00.100Z'));
    await until('the hour to close after the backfill', () => ctx.closes.some((c) => c.timeframe === '1h'));
    expect(ctx.server.state.requests.slice(before).some((path) => path.startsWith('/v2/aggs/ticker/SPY/range/1/minute/'))).toBe(true);
    expect(ctx.server.stream.authentications).toBe(2);
    expect(ctx.bars.find((b) => b.timeframe === '1h' && b.final)!.bar).toMatchObject({ o: 536.74, h: 542.33, l: 535.4504, c: 542.2342, v: 9_628_299 });
  });

  it('surfaces auth_failed as down with the vendor’s message', async () => {
    const ctx = setup({ apiKey: 'not-the-key' });
    ctx.live.start();
    await until('the refusal', () => ctx.live.status().state === 'refused');
    expect(ctx.live.status().message).toBe('polygon stream: auth_failed: authentication failed');
    const check = await ctx.provider.selfCheck();
    expect(check).toMatchObject({ status: 'down', message: 'polygon stream: auth_failed: authentication failed' });
    expect(ctx.lines.join('\n')).not.toContain('not-the-key');
  });

  it('reports max_connections when another connection takes the cluster, and waits before taking it back', async () => {
    const first = setup();
    first.live.start();
    await until('the first stream', () => first.live.status().state === 'streaming');
    const second = setup();
    second.live.start();
    await until('the first closed by the vendor', () => first.live.status().state === 'refused');
    expect(first.live.status().message).toBe('polygon stream: max_connections: Maximum number of websocket connections exceeded. You have reached the connection limit for your account.');
    expect(second.live.status().state).toBe('streaming');
    const authentications = first.server.stream.authentications;
    await Bun.sleep(150); // refusedRetryMs is 400 ms here (5 minutes by default): no tug of war meanwhile
    expect(first.server.stream.authentications).toBe(authentications);
    const check = await first.provider.selfCheck();
    expect(check).toMatchObject({ status: 'down', message: first.live.status().message });
  });
});
