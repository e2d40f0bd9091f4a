/**
 * Quotes pushed by a live stream (a `QuoteSource` with `watch`): sent to the
 * symbol's subscribers at once, not at the next tick, the source never polled
 * after the first quote, and no longer watched once nobody subscribes.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import type { QuoteEvent } from '../../src/domain/events';
import { createLogger } from '../../src/log';
import type { Snapshot } from '../../src/providers/types';
import { DurableBus, MemoryEventLog } from '../../src/stream/bus';
import { StreamCaps } from '../../src/stream/caps';
import { StreamHub } from '../../src/stream/hub';
import type { QuoteSource } from '../../src/stream/quotes';
import { frameReader } from '../helpers/sse';
import { until } from '../helpers/until';

/** A pushing source: the test pushes quotes; it counts snapshots and watchers. */
class PushedQuotes implements QuoteSource {
  readonly remote = true;
  snapshots = 0;
  readonly watchers = new Map<string, (quote: QuoteEvent) => void>();
  async snapshot(symbol: string): Promise<Snapshot> {
    this.snapshots++;
    return { symbol, price: 100, volume: 10, open: 100, dayHigh: 100, dayLow: 100, previousClose: 100, change: 0, changePercent: 0, ts: '2025-04-24T13:30:00.000Z', marketOpen: true, source: 'test' };
  }
  watch(symbol: string, onQuote: (quote: QuoteEvent) => void): () => void {
    this.watchers.set(symbol, onQuote);
    return () => this.watchers.delete(symbol);
  }
  push(symbol: string, price: number, volume: number): void {
    this.watchers.get(symbol)?.({ symbol, price, volume, ts: new Date().toISOString(), source: 'test' });
  }
}

const hubs: StreamHub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.close();
});

function makeHub(quotes: QuoteSource) {
  // Ticks and polls an hour apart: whatever arrives in this test was pushed.
  const hub = new StreamHub({ bus: new DurableBus({ log: new MemoryEventLog(), logger: createLogger('silent'), keep: { events: 100, ms: 60_000 } }), quotes, log: createLogger('silent'), pingMs: 0, retryMs: 1000, replay: { size: 100, maxAgeMs: 60_000 }, quoteIntervalMs: 3_600_000, quotePollMs: 3_600_000, caps: new StreamCaps({ max: 10, perKey: 10, retryAfterSeconds: 1 }), queueBytes: 65_536, stallMs: 30_000, retryAfterSeconds: 1 });
  hubs.push(hub);
  return hub;
}

describe('pushed quotes', () => {
  it('reach the subscribers of the symbol without waiting for a tick, the latest of a burst', async () => {
    const quotes = new PushedQuotes();
    const hub = makeHub(quotes);
    const reader = frameReader(await hub.open({ channels: [], symbols: ['SPY'], principal: null, key: 'ip:127.0.0.1', lastEventId: null }));
    await reader.read(1); // hello
    await until('the symbol watched', () => quotes.watchers.has('SPY'));
    quotes.push('SPY', 536.31, 433_488);
    const [first] = await reader.read(1);
    expect(first!.event).toBe('quote');
    expect(first!.data).toMatchObject({ symbol: 'SPY', price: 536.31, volume: 433_488, source: 'test' });
    // A burst within one turn of the event loop goes out once, at its latest.
    quotes.push('SPY', 536.5, 433_500);
    quotes.push('SPY', 536.93, 653_332);
    const [second] = await reader.read(1);
    expect(second!.data).toMatchObject({ price: 536.93, volume: 653_332 });
    expect(quotes.snapshots).toBeLessThanOrEqual(1); // at most the first quote, before anything was pushed
  });

  it('stops watching a symbol when its last subscriber leaves', async () => {
    const quotes = new PushedQuotes();
    const hub = makeHub(quotes);
    const stream = await hub.open({ channels: [], symbols: ['QQQ'], principal: null, key: 'ip:127.0.0.1', lastEventId: null });
    await until('the symbol watched', () => quotes.watchers.has('QQQ'));
    await stream.cancel();
    await until('the symbol forgotten', () => !quotes.watchers.has('QQQ'));
  });
});
