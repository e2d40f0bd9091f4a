/**
 * The polygon provider's live feed against the loopback Polygon (Massive)
 * stocks cluster, which speaks the documented protocol (status messages,
 * `AM.`/`T.` channels) and replays the recorded SPY minutes of 2025-04-24.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { createPolygonProvider, type PolygonProvider } from '../../src/providers/polygon';
import type { LiveTrade } from '../../src/providers/live/types';
import { expectedBar, keptLog, recordFeed, replayMinutes, streaming as streamingAt, TestClock, until } from '../helpers/vendors/live';
import { startPolygonServer, type PolygonServer } from '../helpers/vendors/polygon-server';
import { alpacaMinutes } from '../helpers/vendors/recordings';

const at = (iso: string) => Date.parse(iso);
const recorded = alpacaMinutes();

let server: PolygonServer | undefined;
const providers: PolygonProvider[] = [];
afterEach(async () => {
  for (const provider of providers.splice(0)) await provider.live!.stop();
  server?.stop();
  server = undefined;
});

function setup(options: { apiKey?: string } = {}) {
  const clock = new TestClock(at('2025-04-24T13:29:00Z'));
  server ??= startPolygonServer({ now: clock.now });
  const { log, lines } = keptLog();
  const provider = createPolygonProvider({
    apiKey: options.apiKey ?? server.apiKey,
    baseUrl: server.restUrl,
    ratePerMinute: 60_000,
    clock: clock.now,
    // Over a minute: the replay moves the clock a minute at a time (see alpaca-stream.test.ts, REPLAY_SILENT_MS).
    live: { streamUrl: server.streamUrl, log, silentMs: 90_000, graceMs: 200, backoff: { baseMs: 20, maxMs: 100 }, refusedRetryMs: 400, backfillRetryMs: 100, random: () => 0.5 },
  });
  providers.push(provider);
  const live = provider.live!;
  const vendor = server;
  return { clock, provider, live, ...recordFeed(live), lines, server: vendor, minute: (t: number) => vendor.minute(t) };
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
    await until(() => ctx.closes.some((c) => c.timeframe === '1h'), 'the hour to close');
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
    await until(() => ctx.closes.some((c) => c.timeframe === '1h'), 'the hour to close after the backfill');
    expect(ctx.server.state.requests.slice(before).some((path) => path.startsWith('/v2/aggs/ticker/SPY/range/1/minute/'))).toBe(true);
    expect(ctx.server.stream.authentications).toBe(2);
    expect(ctx.bars.find((b) => b.timeframe === '1h' && b.final)!.bar).toMatchObject({ o: 536.74, h: 542.33, l: 535.4504, c: 542.2342, v: 9_628_299 });
  });

  it('surfaces auth_failed as down with the vendor’s message', async () => {
    const ctx = setup({ apiKey: 'not-the-key' });
    ctx.live.start();
    await until(() => ctx.live.status().state === 'refused', 'the refusal');
    expect(ctx.live.status().message).toBe('polygon stream: auth_failed: authentication failed');
    const check = await ctx.provider.selfCheck();
    expect(check).toMatchObject({ status: 'down', message: 'polygon stream: auth_failed: authentication failed' });
    expect(ctx.lines.join('\n')).not.toContain('not-the-key');
  });

  it('reports max_connections when another connection takes the cluster, and waits before taking it back', async () => {
    const first = setup();
    first.live.start();
    await until(() => first.live.status().state === 'streaming', 'the first stream');
    const second = setup();
    second.live.start();
    await until(() => first.live.status().state === 'refused', 'the first closed by the vendor');
    expect(first.live.status().message).toBe('polygon stream: max_connections: Maximum number of websocket connections exceeded. You have reached the connection limit for your account.');
    expect(second.live.status().state).toBe('streaming');
    const authentications = first.server.stream.authentications;
    await Bun.sleep(150); // refusedRetryMs is 400 ms here (5 minutes by default): no tug of war meanwhile
    expect(first.server.stream.authentications).toBe(authentications);
    const check = await first.provider.selfCheck();
    expect(check).toMatchObject({ status: 'down', message: first.live.status().message });
  });
});
