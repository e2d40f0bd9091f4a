/**
 * The service on a vendor's live stream, end to end: the app with the alpaca
 * provider pointed at the loopback Alpaca server (REST and stream, replaying
 * the recorded SPY minutes of 2025-04-24), its universe cut to SPY so a scan
 * is quick. A trade on the stream reaches an SSE client as a `quote` with no
 * polling; the 09:30 hour's close scans the 1h timeframe (no timer runs); a
 * refused stream is `dataAdapter: down` in /api/health with the vendor's words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ScanScheduler } from '../../src/background/scheduler';
import { createLogger } from '../../src/log';
import { createAlpacaProvider } from '../../src/providers/alpaca';
import type { WindowClose } from '../../src/providers/live/types';
import type { Instrument, MarketDataProvider } from '../../src/providers/types';
import { createTestContext, type TestContext } from '../helpers/app';
import { RecordingSource, serve } from '../helpers/sse';
import { startAlpacaServer, type AlpacaServer } from '../helpers/vendors/alpaca-server';
import { TestClock } from '../helpers/vendors/live';
import { until } from '../helpers/until';

const MINUTE = 60_000;
const at = (iso: string) => Date.parse(iso);

/** The alpaca provider on the loopback server, its universe SPY alone. */
function alpacaOn(server: AlpacaServer, clock: TestClock, secretKey = server.credentials.secretKey): MarketDataProvider {
  const real = createAlpacaProvider({
    ...server.credentials,
    secretKey,
    dataUrl: server.restUrl,
    feed: 'sip',
    adjustment: 'split',
    ratePerMinute: 60_000,
    clock: clock.now,
    live: { streamUrl: server.streamUrl, log: createLogger('silent'), silentMs: 60_000, graceMs: 200, backoff: { baseMs: 20, maxMs: 100 }, refusedRetryMs: 60_000 },
  });
  const universe = async (): Promise<Instrument[]> => (await real.universe()).filter((i) => i.symbol === 'SPY');
  return Object.assign(Object.create(Object.getPrototypeOf(real)), real, { universe });
}

describe('live vendor stream, end to end', () => {
  const clock = new TestClock(at('2025-04-24T13:29:30Z')); // 09:29:30 EDT
  let server: AlpacaServer;
  let ctx: TestContext;
  beforeAll(async () => {
    server = startAlpacaServer({ now: clock.now });
    ctx = await createTestContext({ provider: alpacaOn(server, clock), env: { SSE_QUOTE_INTERVAL_MS: '60000', SSE_QUOTE_POLL_SECONDS: '1', HEALTH_CHECK_INTERVAL_SECONDS: '3600' } }); // a health round asks REST for SPY's quote: none during the count below
    await ctx.services.warm();
  });
  afterAll(async () => {
    await ctx.close();
    server.stop();
  });

  it('is streaming after the warm-up, and healthy', async () => {
    const live = ctx.services.marketData.provider.live!;
    await until('the stream', () => live.status().state === 'streaming');
    expect(live.status().barSymbols).toBe(1);
    await ctx.services.health.refresh();
    const { body } = await ctx.json<{ checks: Record<string, string> }>('/api/health');
    expect(body.checks.dataAdapter).toBe('ok');
  });

  it('turns a trade on the stream into a quote event on /api/stream, without polling the vendor', async () => {
    const http = serve(ctx);
    const client = new RecordingSource(`${http.base}/api/stream?channels=breakouts.new&symbols=SPY`);
    try {
      await until('hello', () => client.of('hello').length === 1);
      const live = ctx.services.marketData.provider.live!;
      await until('SPY trades subscribed', () => [...server.stream.sockets].some((ws) => ws.data.trades.has('SPY')));
      const snapshots = () => server.state.requests.filter((path) => path.startsWith('/v2/stocks/SPY/snapshot')).length;
      const asked = snapshots();
      for (const minute of [at('2025-04-24T13:30:00Z'), at('2025-04-24T13:31:00Z'), at('2025-04-24T13:32:00Z')]) {
        clock.set(minute + MINUTE + 50);
        server.minute(minute);
        await until(`the quote of ${new Date(minute).toISOString()}`, () => client.of('quote').some((q) => q.data.ts === new Date(minute + 59_000).toISOString()));
      }
      expect(client.of('quote').at(-1)!.data).toMatchObject({ symbol: 'SPY', price: 536.15, source: 'alpaca' });
      await Bun.sleep(1_200); // longer than SSE_QUOTE_POLL_SECONDS: a polling feed would have asked again
      expect(snapshots() - asked).toBe(0);
      expect(live.status().tradeSymbols).toBe(1);
    } finally {
      client.close();
      http.stop();
    }
    await until('SPY trades unsubscribed once nobody watches', () => ![...server.stream.sockets].some((ws) => ws.data.trades.has('SPY')));
  });

  it('scans the 1h timeframe when the 09:30 hour closes', async () => {
    const live = ctx.services.marketData.provider.live!;
    const scans = new ScanScheduler({ deps: ctx.services, database: ctx.services.database, log: createLogger('silent'), intervalMs: 3_600_000, timeframes: ['1h'], hold: () => live.backfilling() });
    const closes: WindowClose[] = [];
    live.onClose((close) => {
      closes.push(close);
      void scans.barClosed(close.timeframe);
    });
    await ctx.services.marketData.bars('SPY', '1h'); // the series is held: live bars go into it
    const before = (await ctx.services.scans.runHistory('1h', 10)).length;
    for (let t = at('2025-04-24T13:33:00Z'); t < at('2025-04-24T14:30:00Z'); t += MINUTE) {
      clock.set(t + MINUTE + 50);
      server.minute(t);
    }
    await Bun.sleep(50);
    expect(closes.filter((c) => c.timeframe === '1h')).toEqual([]);
    clock.set(at('2025-04-24T14:30:00.300Z'));
    await until('the hour to close', () => closes.some((c) => c.timeframe === '1h'));
    let runs = await ctx.services.scans.runHistory('1h', 10);
    const deadline = performance.now() + 20_000;
    while (runs.length === before && performance.now() < deadline) {
      await Bun.sleep(50);
      runs = await ctx.services.scans.runHistory('1h', 10);
    }
    expect(runs.length).toBe(before + 1);
    expect(runs[0]!.asOf.toISOString()).toBe('2025-04-24T13:30:00.000Z'); // it stood on the closed hour
    const spy = await ctx.services.marketData.bars('SPY', '1h');
    const i = spy.ts.indexOf(at('2025-04-24T13:30:00Z'));
    expect([spy.open[i], spy.high[i], spy.low[i], spy.close[i], spy.volume[i]]).toEqual([536.74, 542.33, 535.4504, 542.2342, 9_628_299]);
  });
});

describe('live vendor stream refused', () => {
  it('reports dataAdapter down in /api/health with the vendor’s words', async () => {
    const clock = new TestClock(at('2025-04-24T15:00:00Z'));
    const server = startAlpacaServer({ now: clock.now });
    const ctx = await createTestContext({ provider: alpacaOn(server, clock, 'wrong-secret') });
    try {
      ctx.services.marketData.provider.live!.start();
      await until('the refusal', () => ctx.services.marketData.provider.live!.status().state === 'refused');
      await ctx.services.health.refresh();
      const { status, body } = await ctx.json<{ checks: Record<string, string>; details: Record<string, { message?: string }> }>('/api/health');
      expect(status).toBe(503);
      expect(body.checks.dataAdapter).toBe('down');
      expect(body.details.dataAdapter!.message).toBe('alpaca stream: 402 auth failed');
    } finally {
      await ctx.close();
      server.stop();
    }
  });
});
