import { afterEach, describe, expect, it } from 'bun:test';
import { AppError } from '../../src/errors';
import { createLogger } from '../../src/log';
import type { Snapshot } from '../../src/providers/types';
import { DurableBus, MemoryEventLog, type Channel, type EventLog, type LoggedBusEvent } from '../../src/stream/bus';
import { StreamCaps } from '../../src/stream/caps';
import { compareEventIds, parseEventId } from '../../src/stream/event-id';
import { StreamHub, type HubOptions, type OpenRequest } from '../../src/stream/hub';
import type { QuoteSource } from '../../src/stream/quotes';
import { frameReader, sampleSignal } from '../helpers/sse';
import { until } from '../helpers/until';

const ALL: Channel[] = ['breakouts.new', 'breakouts.state_change', 'alerts.dispatched'];

/** A quote source whose prices the test sets; it counts what it is asked. */
class TestQuotes implements QuoteSource {
  readonly prices = new Map<string, number>();
  readonly asked = new Map<string, number>();
  constructor(readonly remote = false) {}
  async snapshot(symbol: string): Promise<Snapshot> {
    this.asked.set(symbol, (this.asked.get(symbol) ?? 0) + 1);
    const price = this.prices.get(symbol) ?? 100;
    return { symbol, price, volume: 1000, open: price, dayHigh: price, dayLow: price, previousClose: price, change: 0, changePercent: 0, ts: new Date().toISOString(), marketOpen: true, source: 'test' };
  }
}

const hubs: StreamHub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.close();
});

/** The bus over an in-memory log (this instance only). */
const memoryBus = (log: EventLog = new MemoryEventLog()) => new DurableBus({ log, logger: createLogger('silent'), keep: { events: 1000, ms: 60_000 } });

function makeHub(overrides: Partial<HubOptions> = {}) {
  const bus = overrides.bus ?? memoryBus();
  const quotes = new TestQuotes();
  const hub = new StreamHub({
    bus,
    quotes,
    log: createLogger('silent'),
    pingMs: 0,
    retryMs: 1500,
    replay: { size: 100, maxAgeMs: 60_000 },
    quoteIntervalMs: 20,
    quotePollMs: 1000,
    caps: new StreamCaps({ max: 100, perKey: 100, retryAfterSeconds: 2 }),
    queueBytes: 64 * 1024,
    stallMs: 30_000,
    retryAfterSeconds: 2,
    ...overrides,
  });
  hubs.push(hub);
  const open = (request: Partial<OpenRequest> = {}) => hub.open({ channels: ALL, symbols: [], principal: null, key: 'ip:127.0.0.1', lastEventId: null, ...request });
  return { bus, hub, quotes, open };
}

const stateChange = (n: number) => ({ signalId: `AAPL-range_breakout-${n}`, symbol: 'AAPL', from: 'forming' as const, to: 'triggered' as const, price: 100 + n, at: '2026-11-20T18:00:00.000Z' });

describe('stream hub', () => {
  it('greets with hello (retry, connection id, the subscription) and sends every channel’s events with growing ids', async () => {
    const { bus, open } = makeHub();
    const reader = frameReader(await open({ symbols: [] }));
    const [hello] = await reader.read(1);
    expect(hello!.event).toBe('hello');
    expect(hello!.retry).toBe(1500);
    expect(hello!.data).toMatchObject({ channels: ALL, symbols: [] });
    expect(String(hello!.data.connectionId)).toMatch(/^sse_/);
    bus.publish('breakouts.state_change', stateChange(1));
    bus.publish('alerts.dispatched', { alertId: 'alr_1', signalId: 'AAPL-x', symbol: 'AAPL', at: '2026-11-20T18:00:00.000Z' });
    const events = await reader.read(2);
    expect(events.map((e) => e.event)).toEqual(['breakouts.state_change', 'alerts.dispatched']);
    expect(events[0]!.data).toEqual(stateChange(1));
    const ids = [hello!, ...events].map((e) => parseEventId(e.id)!);
    for (let i = 1; i < ids.length; i++) expect(compareEventIds(ids[i - 1]!, ids[i]!)).toBeLessThan(0);
    await reader.cancel();
  });

  it('sends a channel only to its subscribers, and one encoded frame to all of them', async () => {
    const { bus, open } = makeHub();
    const streams = await Promise.all([open({ channels: ['breakouts.state_change'] }), open({ channels: ['breakouts.state_change'] }), open({ channels: ['alerts.dispatched'] })]);
    const readers = streams.map((s) => s.getReader());
    for (const r of readers) await r.read(); // hello
    bus.publish('breakouts.state_change', stateChange(1));
    bus.publish('alerts.dispatched', { alertId: 'alr_1', signalId: 'AAPL-x', symbol: 'AAPL', at: '2026-11-20T18:00:00.000Z' });
    const [a, b, c] = await Promise.all(readers.map((r) => r.read()));
    expect(a!.value).toBe(b!.value!); // the very same bytes, not a copy
    expect(new TextDecoder().decode(a!.value)).toContain('event: breakouts.state_change');
    expect(new TextDecoder().decode(c!.value)).toContain('event: alerts.dispatched');
    for (const r of readers) await r.cancel();
  });

  it('shows a user’s own alert with its rule only to that user; others see it without rule or owner', async () => {
    const { bus, open } = makeHub();
    const owner = frameReader(await open({ channels: ['alerts.dispatched'], principal: { userId: 'usr_a' }, key: 'user:usr_a' }));
    const other = frameReader(await open({ channels: ['alerts.dispatched'], principal: { userId: 'usr_b' }, key: 'user:usr_b' }));
    const anonymous = frameReader(await open({ channels: ['alerts.dispatched'] }));
    for (const r of [owner, other, anonymous]) await r.read(1);
    const rule = { id: 'rul_1', name: 'Strong longs' };
    bus.publish('alerts.dispatched', { alertId: 'alr_1', signalId: 'AAPL-x', symbol: 'AAPL', ruleId: 'rul_1', rule, userId: 'usr_a', at: '2026-11-20T18:00:00.000Z' });
    bus.publish('alerts.dispatched', { alertId: 'alr_2', signalId: 'MSFT-y', symbol: 'MSFT', ruleId: 'policy_default', at: '2026-11-20T18:01:00.000Z' });
    const [ownerSees, ownerSystem] = await owner.read(2);
    const [otherSees, otherSystem] = await other.read(2);
    const [anonymousSees] = await anonymous.read(1);
    expect(ownerSees!.data).toEqual({ alertId: 'alr_1', signalId: 'AAPL-x', symbol: 'AAPL', ruleId: 'rul_1', rule, at: '2026-11-20T18:00:00.000Z' });
    expect(otherSees!.data).toEqual({ alertId: 'alr_1', signalId: 'AAPL-x', symbol: 'AAPL', at: '2026-11-20T18:00:00.000Z' });
    expect(anonymousSees!.data).toEqual(otherSees!.data);
    expect(ownerSees!.id).toBe(otherSees!.id); // one event, one id
    // The service's own alert (no owner) carries its rule id for everyone.
    expect(otherSystem!.data.ruleId).toBe('policy_default');
    expect(ownerSystem!.data).toEqual(otherSystem!.data);
    for (const r of [owner, other, anonymous]) await r.cancel();
  });

  it('sends a backtest job’s progress only to its owner’s streams, live and replayed, without the owner’s id', async () => {
    const { bus, open } = makeHub();
    const channels: Channel[] = ['backtest.progress', 'breakouts.state_change'];
    const owner = frameReader(await open({ channels, principal: { userId: 'usr_a' }, key: 'user:usr_a' }));
    const other = frameReader(await open({ channels, principal: { userId: 'usr_b' }, key: 'user:usr_b' }));
    const anonymous = frameReader(await open({ channels }));
    const [hello] = await owner.read(1);
    for (const r of [other, anonymous]) await r.read(1);
    const progress = { jobId: 'btj_1', status: 'running' as const, phase: 'backtesting', done: 3, total: 10, at: '2026-11-20T18:00:00.000Z' };
    bus.publish('backtest.progress', { ...progress, userId: 'usr_a' });
    bus.publish('breakouts.state_change', stateChange(1)); // public: everyone's next event
    const [ownerSees, ownerNext] = await owner.read(2);
    expect(ownerSees!.event).toBe('backtest.progress');
    expect(ownerSees!.data).toEqual(progress);
    expect(ownerNext!.event).toBe('breakouts.state_change');
    for (const r of [other, anonymous]) {
      const [next] = await r.read(1);
      expect(next!.event).toBe('breakouts.state_change');
      expect(next!.id).toBe(ownerNext!.id);
    }
    // A resume from hello replays the owner's progress to the owner, and skips it for anyone else.
    const ownerAgain = frameReader(await open({ channels, principal: { userId: 'usr_a' }, key: 'user:usr_a', lastEventId: hello!.id }));
    const otherAgain = frameReader(await open({ channels, principal: { userId: 'usr_b' }, key: 'user:usr_b', lastEventId: hello!.id }));
    expect((await ownerAgain.read(3)).map((e) => e.event)).toEqual(['hello', 'backtest.progress', 'breakouts.state_change']);
    expect((await otherAgain.read(2)).map((e) => e.event)).toEqual(['hello', 'breakouts.state_change']);
    for (const r of [owner, other, anonymous, ownerAgain, otherAgain]) await r.cancel();
  });

  it('replays what a client missed after its last id, in order, then goes on live', async () => {
    const { bus, open, hub } = makeHub();
    const first = frameReader(await open({ channels: ['breakouts.state_change'] }));
    bus.publish('breakouts.state_change', stateChange(0));
    const [, seen] = await first.read(2);
    await first.cancel();
    for (let n = 1; n <= 5; n++) bus.publish('breakouts.state_change', stateChange(n));
    const again = frameReader(await open({ channels: ['breakouts.state_change'], lastEventId: seen!.id }));
    const [hello, ...missed] = await again.read(6);
    expect(hello!.event).toBe('hello');
    expect(compareEventIds(parseEventId(hello!.id)!, parseEventId(seen!.id)!)).toBeGreaterThan(0);
    expect(missed.map((e) => e.data.price)).toEqual([101, 102, 103, 104, 105]);
    bus.publish('breakouts.state_change', stateChange(6));
    const [live] = await again.read(1);
    expect(live!.data.price).toBe(106);
    expect(hub.stats().replayed).toBe(5);
    await again.cancel();
  });

  it('tells every open stream reset (gap) when the bus loses events, and lets no resume reach across the gap', async () => {
    let now = Date.now();
    const log = new MemoryEventLog(() => now);
    const { bus, open } = makeHub({ bus: memoryBus(log) });
    const reader = frameReader(await open({ channels: ['breakouts.state_change'] }));
    await reader.read(1); // hello
    bus.publish('breakouts.state_change', stateChange(1));
    const [first] = await reader.read(1);
    // Another instance wrote 2..5; the log pruned 2..4 before this instance read them; then 5 is announced here.
    const written = (await log.append([2, 3, 4, 5].map((n) => ({ channel: 'breakouts.state_change' as const, payload: stateChange(n) })))) as LoggedBusEvent[];
    now += 120_000;
    await log.prune(4, new Date(now));
    bus.announce([written[3]!]);
    const [reset, fifth] = await reader.read(2);
    expect(reset).toMatchObject({ event: 'reset', data: { reason: 'gap', lastEventId: first!.id, resumeFrom: '4' } });
    expect(fifth).toMatchObject({ event: 'breakouts.state_change', id: '5', data: { price: 105 } });
    expect(compareEventIds(parseEventId(reset!.id)!, parseEventId(fifth!.id)!)).toBeLessThan(0);
    // A client that saw 1 and resumes now cannot be replayed across the gap.
    const again = frameReader(await open({ channels: ['breakouts.state_change'], lastEventId: first!.id }));
    const [, told] = await again.read(2);
    expect(told).toMatchObject({ event: 'reset', data: { reason: 'too_old', lastEventId: first!.id } });
    await reader.cancel();
    await again.cancel();
  });

  it('says reset (too_old) when the id fell out of the buffer, and goes on from the newest event', async () => {
    const { bus, open } = makeHub({ replay: { size: 3, maxAgeMs: 60_000 } });
    const first = frameReader(await open({ channels: ['breakouts.state_change'] }));
    const [hello] = await first.read(1);
    await first.cancel();
    for (let n = 1; n <= 10; n++) bus.publish('breakouts.state_change', stateChange(n));
    const again = frameReader(await open({ channels: ['breakouts.state_change'], lastEventId: hello!.id }));
    const [, reset] = await again.read(2);
    expect(reset!.event).toBe('reset');
    expect(reset!.data.reason).toBe('too_old');
    expect(reset!.data.lastEventId).toBe(hello!.id);
    bus.publish('breakouts.state_change', stateChange(11));
    const [next] = await again.read(1);
    expect(next!.data.price).toBe(111);
    expect(compareEventIds(parseEventId(reset!.data.resumeFrom as string)!, parseEventId(next!.id)!)).toBeLessThan(0);
    await again.cancel();
  });

  it('says reset (unknown_id) for an id it never gave out', async () => {
    const { open } = makeHub();
    for (const lastEventId of ['not-an-id', '99999999999999-0']) {
      const reader = frameReader(await open({ lastEventId }));
      const [, reset] = await reader.read(2);
      expect(reset).toMatchObject({ event: 'reset', data: { reason: 'unknown_id', lastEventId } });
      await reader.cancel();
    }
  });

  it('refuses past the instance cap with 503 and Retry-After, and past a client’s cap with 429', async () => {
    const { open, hub } = makeHub({ caps: new StreamCaps({ max: 2, perKey: 1, retryAfterSeconds: 2 }) });
    const a = await open({ key: 'ip:10.0.0.1' });
    const refusal = await open({ key: 'ip:10.0.0.1' }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).status).toBe(429);
    const b = await open({ key: 'ip:10.0.0.2' });
    const full = await open({ key: 'ip:10.0.0.3' }).catch((e: unknown) => e);
    expect((full as AppError).status).toBe(503);
    expect((full as AppError).headers['retry-after']).toBe('2');
    await a.cancel();
    expect(hub.stats().connections).toBe(1);
    const c = await open({ key: 'ip:10.0.0.3' }); // a slot is free again
    await Promise.all([b.cancel(), c.cancel()]);
    expect(hub.stats().connections).toBe(0);
  });

  it('sends `: ping` comments every pingMs', async () => {
    const { open } = makeHub({ pingMs: 15 });
    const reader = frameReader(await open());
    await reader.read(1);
    expect(await reader.pingsAfter(3)).toBeGreaterThanOrEqual(3);
    await reader.cancel();
  });

  it('drops a client that stops reading once it falls behind the whole buffer; its socket queue never passes the bound and others keep receiving', async () => {
    const queueBytes = 16 * 1024;
    const { bus, open, hub } = makeHub({ queueBytes, replay: { size: 100, maxAgeMs: 60_000 } });
    const stalled = await open({ channels: ['breakouts.state_change'] }); // never read
    const reading = frameReader(await open({ channels: ['breakouts.state_change'] }));
    await reading.read(1);
    let received = 0;
    for (let n = 0; n < 500; n++) {
      bus.publish('breakouts.state_change', stateChange(n));
      received += (await reading.read(1)).length;
    }
    expect(received).toBe(500);
    expect(hub.stats().dropped).toBe(1);
    expect(hub.stats().connections).toBe(1);
    expect(hub.stats().peakQueuedBytes).toBeLessThan(queueBytes + 512); // the bound plus at most one frame
    expect(await stalled.getReader().read().then(() => 'read', () => 'errored')).toBe('errored'); // its queue was discarded
    await reading.cancel();
  });

  it('drops a client that is behind and takes nothing for stallMs, even in a quiet stream', async () => {
    const { bus, open, hub } = makeHub({ queueBytes: 1024, stallMs: 40 });
    await open({ channels: ['breakouts.state_change'] }); // never read
    for (let n = 0; n < 20; n++) bus.publish('breakouts.state_change', stateChange(n)); // > 1 KiB: the rest waits in the buffer
    await until('the client to fall behind', () => hub.stats().lagging === 1 || hub.stats().dropped === 1);
    await until('the stalled client to be dropped', () => hub.stats().dropped === 1);
    expect(hub.stats().connections).toBe(0);
  });

  it('lets a reading client take a burst far larger than its socket queue, in order, without dropping it', async () => {
    const { bus, open, hub } = makeHub({ queueBytes: 4 * 1024, replay: { size: 5000, maxAgeMs: 60_000 } });
    const reader = frameReader(await open({ channels: ['breakouts.new'] }));
    await reader.read(1);
    for (let n = 0; n < 2000; n++) bus.publish('breakouts.new', { signal: sampleSignal(n, 'x'.repeat(1000)) }); // ~3 MB at once
    const events = await reader.read(2000);
    expect(events.map((e) => (e.data.signal as { detectedAt: string }).detectedAt)).toEqual(Array.from({ length: 2000 }, (_, n) => sampleSignal(n).detectedAt));
    expect(hub.stats().dropped).toBe(0);
    expect(hub.stats().replayed).toBeGreaterThan(1900); // all but the first few waited in the buffer
    await reader.cancel();
  });

  it('over a socket: a caught-up client put behind by a burst, and one that reads slowly, take every event in order, once', async () => {
    // The response body is read by Bun's own sink, as in the app: a caught-up stream's pull is parked, and a burst must wake it.
    const { bus, open, hub } = makeHub({ queueBytes: 4 * 1024, replay: { size: 5000, maxAgeMs: 60_000 } });
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', idleTimeout: 0, fetch: async () => new Response(await open({ channels: ['breakouts.new'] })) });
    try {
      const fast = frameReader((await fetch(`http://127.0.0.1:${server.port}/`)).body!);
      const slow = (await fetch(`http://127.0.0.1:${server.port}/`)).body!.getReader();
      await fast.read(1);
      const expected = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => sampleSignal(from + k).detectedAt);
      const detected = (events: { data: Record<string, unknown> }[]) => events.map((e) => (e.data.signal as { detectedAt: string }).detectedAt);
      for (let round = 0; round < 3; round++) {
        for (let n = round * 500; n < (round + 1) * 500; n++) bus.publish('breakouts.new', { signal: sampleSignal(n, 'x'.repeat(1000)) }); // ~700 KB at once
        expect(detected(await fast.read(500))).toEqual(expected(round * 500, (round + 1) * 500));
        await Bun.sleep(1); // caught up again (parked) before the next burst
      }
      const slowly = frameReader(new ReadableStream<Uint8Array>({ pull: async (c) => (await Bun.sleep(1), c.enqueue((await slow.read()).value!)) }));
      const all = await slowly.read(1501); // hello, then every burst, taken as its socket drains
      expect(all[0]!.event).toBe('hello');
      expect(detected(all.slice(1))).toEqual(expected(0, 1500));
      expect(hub.stats().dropped).toBe(0);
      await fast.cancel();
      await slow.cancel();
    } finally {
      await server.stop(true);
    }
  });

  it('sends quotes only for the symbols asked, at most one per symbol per tick, the latest', async () => {
    const { open, quotes } = makeHub({ quoteIntervalMs: 25 });
    const aapl = frameReader(await open({ channels: [], symbols: ['AAPL'] }));
    const msft = frameReader(await open({ channels: [], symbols: ['MSFT'] }));
    await aapl.read(1);
    await msft.read(1);
    let changes = 0;
    for (let n = 1; n <= 200; n++) {
      quotes.prices.set('AAPL', 100 + n / 100);
      changes++;
      await Bun.sleep(1);
    }
    await Bun.sleep(80); // two more ticks: the last price goes out
    const polls = quotes.asked.get('AAPL')!;
    const received: number[] = [];
    while (received.at(-1) !== 102) received.push(...(await aapl.read(1)).map((e) => e.data.price as number));
    expect(received.length).toBeLessThanOrEqual(polls); // never more than one per poll (each tick)
    expect(received.length).toBeLessThan(changes / 4); // coalesced
    expect(new Set(received).size).toBe(received.length);
    const [msftQuote] = await msft.read(1);
    expect(msftQuote!.data.symbol).toBe('MSFT');
    await aapl.cancel();
    await msft.cancel();
  });

  it('polls a remote source every pollMs, only for subscribed symbols, and stops when no one listens', async () => {
    const bus = memoryBus();
    const quotes = new TestQuotes(true);
    const hub = new StreamHub({ bus, quotes, log: createLogger('silent'), pingMs: 0, retryMs: 1000, replay: { size: 10, maxAgeMs: 60_000 }, quoteIntervalMs: 10, quotePollMs: 60_000, caps: new StreamCaps({ max: 10, perKey: 10, retryAfterSeconds: 1 }), queueBytes: 65536, stallMs: 30_000, retryAfterSeconds: 1 });
    hubs.push(hub);
    const reader = frameReader(await hub.open({ channels: [], symbols: ['NVDA'], principal: null, key: 'k', lastEventId: null }));
    const [, quote] = await reader.read(2);
    expect(quote!.data.symbol).toBe('NVDA');
    await Bun.sleep(60); // several ticks, within one poll interval
    expect([...quotes.asked.keys()]).toEqual(['NVDA']);
    expect(quotes.asked.get('NVDA')).toBe(1);
    await reader.cancel();
    await until('the symbol to be forgotten', () => hub.stats().watchedSymbols === 0);
  });

  it('answers 503 with Retry-After while the event log cannot be read, and asks again next time', async () => {
    const log = new MemoryEventLog();
    let reads = 0;
    const refused = async (): Promise<never> => {
      reads++;
      throw new Error('connection refused');
    };
    const unreadable: EventLog = Object.assign(Object.create(log) as EventLog, { head: refused, latest: refused, after: refused });
    const bus = memoryBus(unreadable);
    const { open } = makeHub({ bus });
    for (let attempt = 0; attempt < 2; attempt++) {
      const refusal = await open().catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(AppError);
      expect((refusal as AppError).status).toBe(503);
      expect((refusal as AppError).headers['retry-after']).toBe('2');
    }
    expect(reads).toBe(2);
    expect(bus.health().status).toBe('down');
    await bus.close();
  });
});
