/**
 * The alpaca provider's live feed against the loopback Alpaca server, which
 * speaks the documented stock-stream protocol and replays the recorded SPY
 * minutes of 2025-04-24 (EDT: 09:30 is 13:30 UTC). The clock is the test's:
 * it stands where the replay is, and windows close when it passes their end.
 */
import { describe, expect, it } from 'bun:test';
import { createAlpacaProvider, type AlpacaProvider } from '../../src/providers/alpaca';
import type { LiveTrade } from '../../src/providers/live/types';
import { startAlpacaServer, type AlpacaServer } from '../helpers/vendors/alpaca-server';
import { expectedBar, replayMinutes, streaming as streamingAt, vendorStreams } from '../helpers/vendors/live';
import { until } from '../helpers/until';
import { alpacaMinutes } from '../helpers/vendors/recordings';

const at = (iso: string) => Date.parse(iso);
const recorded = alpacaMinutes();

let symbolLimit: number | null | undefined; // the next server's (set by `setup`)
const streams = vendorStreams<AlpacaServer, AlpacaProvider>((now) => startAlpacaServer({ now, symbolLimit }));

function setup(options: { start?: string; symbolLimit?: number | null; secret?: string; tradeLimit?: number | null; silentMs?: number } = {}) {
  symbolLimit = options.symbolLimit;
  return streams(options.start ?? '2025-04-24T13:29:00Z', (server, clock, live) =>
    createAlpacaProvider({
      ...server.credentials,
      secretKey: options.secret ?? server.credentials.secretKey,
      dataUrl: server.restUrl,
      feed: 'sip',
      adjustment: 'split',
      ratePerMinute: 60_000,
      clock: clock.now,
      live: { ...live, streamUrl: server.streamUrl, authTimeoutMs: 2_000, tradeLimit: options.tradeLimit, silentMs: options.silentMs ?? live.silentMs },
    }),
  );
}

/** Waits until the stream is up and the vendor holds the minute bars of every symbol given. */
const streaming = (ctx: ReturnType<typeof setup>, ...symbols: string[]) =>
  streamingAt(ctx.live, () => [...ctx.server.stream.sockets].some((ws) => ws.data.authenticated && symbols.every((s) => ws.data.bars.has(s))));
const replay = replayMinutes;

describe('alpaca stream: handshake and control messages', () => {
  it('authenticates when told it is connected, then subscribes bars, updated bars and the watched trades', async () => {
    const ctx = setup();
    ctx.live.setUniverse(['SPY', 'QQQ']);
    ctx.live.watch('SPY', () => {});
    ctx.live.start();
    await until('streaming', () => ctx.live.status().state === 'streaming');
    await until('the subscription', () => ctx.server.stream.received.length >= 2);
    const [auth, subscribe] = ctx.server.stream.received.map((text) => JSON.parse(text));
    expect(auth).toEqual({ action: 'auth', key: ctx.server.credentials.keyId, secret: ctx.server.credentials.secretKey });
    expect(subscribe.action).toBe('subscribe');
    expect(subscribe.bars.sort()).toEqual(['QQQ', 'SPY']);
    expect(subscribe.updatedBars.sort()).toEqual(['QQQ', 'SPY']);
    expect(subscribe.trades).toEqual(['SPY']);
    const session = [...ctx.server.stream.sockets][0]!.data;
    expect([...session.trades]).toEqual(['SPY']);
    expect(ctx.live.status()).toMatchObject({ vendor: 'alpaca', state: 'streaming', barSymbols: 2, tradeSymbols: 1, tradeLimit: null });
    // The keys went in the auth message and nowhere else: not in a URL, not in a log line.
    for (const line of ctx.lines) expect(line).not.toContain(ctx.server.credentials.secretKey);
  });

  it('changes its subscriptions as symbols are watched and forgotten', async () => {
    const ctx = setup();
    ctx.live.setUniverse(['SPY']);
    ctx.live.start();
    await until('streaming', () => ctx.live.status().state === 'streaming');
    const forget = ctx.live.watch('AAPL', () => {});
    const session = () => [...ctx.server.stream.sockets][0]!.data;
    await until('AAPL subscribed', () => session().trades.has('AAPL') && session().bars.has('AAPL'));
    forget();
    await until('AAPL unsubscribed', () => !session().trades.has('AAPL') && !session().bars.has('AAPL'));
    expect(session().bars.has('SPY')).toBe(true);
  });
});

describe('alpaca stream: minutes rolled up on the session', () => {
  it('forms the 09:30 hour minute by minute, closes it only after 10:30, equal to the recorded minutes rolled up', async () => {
    const ctx = setup();
    const trades: LiveTrade[] = [];
    ctx.live.setUniverse(['SPY']);
    ctx.live.watch('SPY', (trade) => trades.push(trade));
    ctx.live.start();
    await streaming(ctx, 'SPY');
    await replay(ctx, '2025-04-24T13:30:00Z', '2025-04-24T14:30:00Z');
    expect(ctx.closes.filter((c) => c.timeframe === '1h')).toEqual([]); // 10:30:00.050: the grace is not over
    const forming = ctx.bars.filter((b) => b.timeframe === '1h' && !b.final);
    expect(forming.length).toBe(60);
    ctx.clock.set(at('2025-04-24T14:30:00.250Z'));
    await until('the hour to close', () => ctx.closes.some((c) => c.timeframe === '1h'));
    expect(ctx.closes[0]).toEqual({ timeframe: '1h', start: at('2025-04-24T13:30:00Z'), end: at('2025-04-24T14:30:00Z') });
    const final = ctx.bars.find((b) => b.timeframe === '1h' && b.final)!;
    expect(final.bar).toEqual({ t: at('2025-04-24T13:30:00Z'), ...expectedBar(recorded, at('2025-04-24T13:30:00Z'), at('2025-04-24T14:30:00Z')) });
    expect(final.bar).toMatchObject({ o: 536.74, h: 542.33, l: 535.4504, c: 542.2342, v: 9_628_299 });
    expect(forming.at(-1)!.bar).toEqual(final.bar); // the forming bar was updated in place up to the last minute
    // Trades reached the watcher with the session's volume so far.
    expect(trades.length).toBe(60);
    expect(trades.at(-1)!.price).toBe(542.2342);
    expect(trades.at(-1)!.dayVolume!).toBeGreaterThan(9_000_000);
  });

  it('sends a closed bar again, revised, when an updated bar corrects one of its minutes', async () => {
    const ctx = setup();
    ctx.live.setUniverse(['SPY']);
    ctx.live.start();
    await streaming(ctx, 'SPY');
    await replay(ctx, '2025-04-24T13:30:00Z', '2025-04-24T14:30:00Z');
    ctx.clock.set(at('2025-04-24T14:30:30Z'));
    await until('the hour to close', () => ctx.closes.length > 0);
    ctx.server.minute(at('2025-04-24T14:29:00Z'), 'u'); // 30 s after the minute, as Alpaca sends updated bars
    await until('the revision', () => ctx.bars.some((b) => b.revised));
    expect(ctx.bars.find((b) => b.revised)).toMatchObject({ timeframe: '1h', final: true, bar: { t: at('2025-04-24T13:30:00Z') } });
  });
});

describe('alpaca stream: faults', () => {
  it('after a dropped socket reconnects, re-authenticates, re-subscribes and fills the gap over REST before the hour closes', async () => {
    const ctx = setup();
    ctx.live.setUniverse(['SPY']);
    ctx.live.start();
    await streaming(ctx, 'SPY');
    await replay(ctx, '2025-04-24T13:30:00Z', '2025-04-24T14:20:00Z');
    const restBefore = ctx.server.state.requests.length;
    ctx.server.drop();
    // The network is down from 10:20 to 10:40: the 10:30 hour end passes inside the gap.
    ctx.clock.set(at('2025-04-24T14:40:00.100Z'));
    await until('a re-authenticated stream with the gap filled', () => ctx.server.stream.authentications === 2 && ctx.live.status().state === 'streaming');
    const asked = ctx.server.state.requests.slice(restBefore);
    expect(asked.some((path) => path.startsWith('/v2/stocks/bars?') && path.includes('timeframe=1Min') && path.includes('symbols=SPY'))).toBe(true);
    const resubscribed = ctx.server.stream.received.map((text) => JSON.parse(text)).filter((m) => m.action === 'subscribe');
    expect(resubscribed.length).toBe(2);
    await until('the hour to close after the backfill', () => ctx.closes.some((c) => c.timeframe === '1h'));
    const final = ctx.bars.find((b) => b.timeframe === '1h' && b.final)!;
    expect(final.bar).toMatchObject({ o: 536.74, h: 542.33, l: 535.4504, c: 542.2342, v: 9_628_299 }); // every minute, the backfilled ones too
    expect(ctx.live.status().lastBackfillAt).not.toBeNull();
  });

  it('logs a fault in what a bar sets off and keeps streaming', async () => {
    const ctx = setup();
    ctx.live.setUniverse(['SPY']);
    ctx.live.onBar(() => {
      throw new Error('a listener fails');
    });
    ctx.live.start();
    await streaming(ctx, 'SPY');
    await replay(ctx, '2025-04-24T13:30:00Z', '2025-04-24T13:32:00Z');
    expect(ctx.lines.some((line) => line.includes('handling a message failed') && line.includes('a listener fails'))).toBe(true);
    expect(ctx.live.status().state).toBe('streaming');
    expect(ctx.server.stream.authentications).toBe(1);
  });

  it('takes a silent socket during the session for dead and reconnects', async () => {
    const ctx = setup({ start: '2025-04-24T14:00:00Z', silentMs: 3_000 });
    ctx.live.setUniverse(['SPY']);
    ctx.live.start();
    await until('streaming', () => ctx.live.status().state === 'streaming');
    const first = ctx.server.stream.authentications;
    ctx.clock.set(ctx.clock.t + 3_500); // nothing arrives for longer than silentMs (3 s)
    await until('a reconnection', () => ctx.server.stream.authentications > first);
    expect(ctx.lines.some((line) => line.includes('silent socket'))).toBe(true);
  });

  it('closes no window on a socket that went quiet before its end: the silence is noticed, the gap filled, then the hour closes whole', async () => {
    const ctx = setup();
    ctx.live.setUniverse(['SPY']);
    ctx.live.start();
    await streaming(ctx, 'SPY');
    await replay(ctx, '2025-04-24T13:30:00Z', '2025-04-24T14:20:00Z');
    ctx.clock.set(at('2025-04-24T14:30:01Z')); // nothing came after 10:20: the connection is open but says nothing
    await until('the hour to close after the silence was noticed', () => ctx.closes.some((c) => c.timeframe === '1h'));
    expect(ctx.server.stream.authentications).toBe(2);
    expect(ctx.bars.filter((b) => b.timeframe === '1h' && b.final)[0]!.bar).toMatchObject({ o: 536.74, h: 542.33, l: 535.4504, c: 542.2342, v: 9_628_299 });
  });

  it('surfaces an auth failure as down with the vendor’s message, retrying slowly, never crashing', async () => {
    const ctx = setup({ secret: 'a-wrong-secret' });
    ctx.live.setUniverse(['SPY']);
    ctx.live.start();
    await until('the refusal', () => ctx.live.status().state === 'refused');
    expect(ctx.live.status().message).toBe('alpaca stream: 402 auth failed');
    const check = await ctx.provider.selfCheck();
    expect(check.status).toBe('down');
    expect(check.message).toBe('alpaca stream: 402 auth failed');
    const attempts = () => ctx.server.stream.received.filter((text) => text.includes('"auth"')).length;
    const before = attempts();
    await Bun.sleep(1_000); // refusedRetryMs is 400 ms: about two more tries, not a storm
    expect(attempts() - before).toBeLessThanOrEqual(3);
    expect(ctx.lines.filter((line) => line.includes('vendor stream refused')).length).toBe(1);
    expect(ctx.lines.join('\n')).not.toContain('a-wrong-secret');
  });

  it('refuses a second connection with 406 connection limit exceeded while the first keeps streaming', async () => {
    const first = setup();
    first.live.start();
    await until('the first stream', () => first.live.status().state === 'streaming');
    const second = setup();
    second.live.start();
    await until('the second refused', () => second.live.status().state === 'refused');
    expect(second.live.status().message).toBe('alpaca stream: 406 connection limit exceeded');
    expect(first.live.status().state).toBe('streaming');
  });

  it('keeps trades within the plan’s symbol limit after a 405, quoting the rest from minute bars', async () => {
    const ctx = setup({ symbolLimit: 2, start: '2025-04-24T13:30:30Z' });
    ctx.live.setUniverse(['SPY']);
    ctx.live.start();
    await streaming(ctx, 'SPY');
    const session = () => [...ctx.server.stream.sockets][0]!.data;
    ctx.live.watch('QQQ', () => {});
    ctx.live.watch('IWM', () => {});
    await until('two trade subscriptions', () => session().trades.size === 2);
    const spyQuotes: LiveTrade[] = [];
    ctx.live.watch('SPY', (trade) => spyQuotes.push(trade)); // the third: past the plan's limit
    await until('the limit learnt', () => ctx.live.status().tradeLimit === 2);
    expect(ctx.lines.some((line) => line.includes('405 symbol limit exceeded'))).toBe(true);
    expect(session().trades.size).toBe(2);
    ctx.clock.set(at('2025-04-24T13:31:00.050Z'));
    ctx.server.minute(at('2025-04-24T13:30:00Z'));
    await until('a quote from the minute bar', () => spyQuotes.length > 0);
    expect(spyQuotes[0]).toMatchObject({ symbol: 'SPY', price: 536.31, size: 0 });
  });
});
