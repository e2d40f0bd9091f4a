/**
 * Snapshots from the live stream (providers/live/vendor-provider, ./latest):
 * once the vendor's REST snapshot has given the previous close of the
 * session, the symbol's snapshots come from the stream's rolled-up day — no
 * request each time. The loopback Alpaca server replays the recorded SPY
 * minutes of 2025-04-25 (its REST snapshot is built from the same recording,
 * the 24th as the previous day).
 */
import { afterEach, describe, expect, it } from 'bun:test';
import type { AlpacaProvider } from '../../src/providers/alpaca';
import { loopbackAlpaca, startAlpacaServer, type AlpacaServer } from '../helpers/vendors/alpaca-server';
import { expectedBar, keptLog, recordFeed, replayMinutes, TestClock } from '../helpers/vendors/live';
import { until } from '../helpers/until';
import { alpacaMinutes } from '../helpers/vendors/recordings';

const at = (iso: string) => Date.parse(iso);
const recorded = alpacaMinutes();

describe('snapshot from the live stream', () => {
  let server: AlpacaServer | undefined;
  let provider: AlpacaProvider | undefined;
  afterEach(async () => {
    await provider?.live!.stop();
    server?.stop();
  });

  it('answers from the stream’s day once a REST snapshot gave the previous close, asking the vendor no more', async () => {
    const clock = new TestClock(at('2025-04-25T13:29:30Z'));
    server = startAlpacaServer({ now: clock.now });
    const vendor = server;
    provider = loopbackAlpaca(vendor, { clock: clock.now, live: { log: keptLog().log, silentMs: 60_000, graceMs: 200, backoff: { baseMs: 20, maxMs: 100 } } });
    const live = provider.live!;
    const feed = { clock, minute: (t: number) => vendor.minute(t), ...recordFeed(live) };
    live.setUniverse(['SPY']);
    live.start();
    await until('SPY bars subscribed', () => [...vendor.stream.sockets].some((ws) => ws.data.authenticated && ws.data.bars.has('SPY')));
    const snapshots = () => vendor.state.requests.filter((path) => path.startsWith('/v2/stocks/SPY/snapshot')).length;
    const before = await provider.snapshot({ symbol: 'SPY' }); // pre-market: over REST
    expect(snapshots()).toBe(1);
    await replayMinutes(feed, '2025-04-25T13:30:00Z', '2025-04-25T13:40:00Z');
    const quote = await provider.snapshot({ symbol: 'SPY' });
    expect(snapshots()).toBe(1);
    const session = expectedBar(recorded, at('2025-04-25T13:30:00Z'), at('2025-04-25T13:40:00Z'));
    expect(quote).toMatchObject({ symbol: 'SPY', price: session.c, open: session.o, dayHigh: session.h, dayLow: session.l, volume: session.v, previousClose: before.previousClose, marketOpen: true, source: 'alpaca' });
    expect(quote.change).toBeCloseTo(session.c - before.previousClose, 9);
  });
});
