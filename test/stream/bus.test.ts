/**
 * The event bus over the durable log (stream/bus/durable), without Redis: the
 * order and exactly-once delivery of what is published, announced or only
 * written to the log; holes read from the log; a gap when the log no longer
 * holds them; its health. Redis as the carrier is covered with a real server
 * in test/stream/redis-outage.test.ts.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { createLogger } from '../../src/log';
import { DurableBus, MemoryEventLog, type BusEvent, type BusEventInput, type BusGap, type EventLog, type LoggedBusEvent } from '../../src/stream/bus';
import { until } from '../helpers/until';

const change = (n: number): BusEventInput => ({ channel: 'breakouts.state_change', payload: { signalId: `AAPL-range_breakout-${n}`, symbol: 'AAPL', from: 'forming', to: 'triggered', price: n, at: '2026-11-20T18:00:00.000Z' } });

const buses: DurableBus[] = [];
afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close();
});

function makeBus(log: EventLog = new MemoryEventLog(), pollMs = { steady: 20, outage: 20 }) {
  const bus = new DurableBus({ log, logger: createLogger('silent'), keep: { events: 2, ms: 0 }, pollMs });
  buses.push(bus);
  const seen: BusEvent[] = [];
  const gaps: BusGap[] = [];
  bus.subscribe('breakouts.state_change', (_payload, event) => seen.push(event));
  bus.onGap((gap) => gaps.push(gap));
  const prices = () => seen.map((e) => (e.payload as { price: number }).price);
  return { bus, log, seen, gaps, prices };
}

describe('event bus over the durable log', () => {
  it('delivers what is published in order, once each, under its log position', async () => {
    const { bus, seen, prices } = makeBus();
    await bus.open(0, 0);
    for (let n = 1; n <= 5; n++) bus.publish('breakouts.state_change', change(n).payload as never);
    await until('five events', () => seen.length === 5);
    expect(prices()).toEqual([1, 2, 3, 4, 5]);
    expect(seen.map((e) => e.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(bus.health()).toMatchObject({ status: 'ok', transport: 'memory', head: 5, gaps: 0 });
  });

  it('delivers an event announced ahead of a hole after the hole, read from the log', async () => {
    const { bus, log, prices } = makeBus(new MemoryEventLog(), { steady: 60_000, outage: 60_000 });
    await bus.open(0, 0);
    // Another instance's transaction wrote 1 and 2; this one announces 3 first.
    const written = (await log.append([change(1), change(2), change(3)])) as LoggedBusEvent[];
    bus.announce([written[2]!]);
    await until('three events', () => prices().length === 3);
    expect(prices()).toEqual([1, 2, 3]);
    bus.announce(written); // again, e.g. relayed back: nothing twice
    await Bun.sleep(10);
    expect(prices()).toEqual([1, 2, 3]);
  });

  it('reads events only the log has (written by another instance) at its next poll', async () => {
    const { bus, log, prices } = makeBus();
    await bus.open(0, 0);
    await log.append([change(7), change(8)]);
    await until('the poll to deliver them', () => prices().length === 2);
    expect(prices()).toEqual([7, 8]);
  });

  it('starts before the first event announced while it was opening, so that one is delivered too', async () => {
    const log = new MemoryEventLog();
    await log.append([change(1)]);
    const { bus, prices } = makeBus(log);
    const written = (await log.append([change(2)])) as LoggedBusEvent[];
    bus.announce(written); // before any open: delivery starts at it
    await until('the announced event', () => prices().length === 1);
    expect(prices()).toEqual([2]);
    const opening = await bus.open(10, 60_000);
    expect(opening.position).toBe(2);
    expect(opening.history.map((e) => e.id)).toEqual(['1', '2']);
  });

  it('gives up a hole the log no longer holds as a gap (a reset for the hub), then goes on after it', async () => {
    let now = 1_000_000;
    const log = new MemoryEventLog(() => now);
    const { bus, gaps, prices } = makeBus(log, { steady: 60_000, outage: 60_000 });
    await bus.open(0, 0);
    const written = (await log.append([1, 2, 3, 4, 5].map(change))) as LoggedBusEvent[];
    now += 10_000;
    await log.prune(3, new Date(now)); // 1..3 pruned before this instance read them
    bus.announce([written[4]!]);
    await until('the events after the gap', () => prices().length === 2);
    expect(gaps).toEqual([{ lastDelivered: 0, resumeAfter: 3 }]);
    expect(prices()).toEqual([4, 5]);
    expect(bus.health().gaps).toBe(1);
  });

  it('delivers a stored event that does not read as one as a gap, never skipping it silently', async () => {
    const log = new MemoryEventLog();
    const { bus, gaps, prices } = makeBus(log);
    await bus.open(0, 0);
    await log.append([change(1), { channel: 'breakouts.state_change', payload: { price: 'not an event' } }, change(3)]);
    await until('the event after it', () => prices().length === 2);
    expect(prices()).toEqual([1, 3]);
    expect(gaps).toEqual([{ lastDelivered: 1, resumeAfter: 2 }]);
  });

  it('is down while its log cannot be read to open, and ok once it can', async () => {
    const log = new MemoryEventLog();
    let reachable = false;
    const flaky: EventLog = Object.assign(Object.create(log) as EventLog, {
      head: () => (reachable ? log.head() : Promise.reject(new Error('connection refused'))),
    });
    const { bus } = makeBus(flaky);
    expect(await bus.open(0, 0).catch((e: unknown) => String(e))).toContain('connection refused');
    expect(bus.health()).toMatchObject({ status: 'down', head: -1 });
    expect(bus.health().message).toContain('connection refused');
    reachable = true;
    await bus.open(0, 0);
    expect(bus.health().status).toBe('ok');
  });

  it('does not deliver what the log could not record, and says so', async () => {
    const log = new MemoryEventLog();
    const failing: EventLog = Object.assign(Object.create(log) as EventLog, { append: () => Promise.reject(new Error('database down')) });
    const lines: string[] = [];
    const logger = createLogger('error', (line) => lines.push(line));
    const bus = new DurableBus({ log: failing, logger, keep: { events: 10, ms: 0 } });
    buses.push(bus);
    const seen: unknown[] = [];
    bus.subscribe('breakouts.state_change', (p) => seen.push(p));
    await bus.open(0, 0);
    bus.publish('breakouts.state_change', change(1).payload as never);
    await until('the error to be logged', () => lines.length > 0);
    expect(lines[0]).toContain('could not be recorded');
    bus.publish('breakouts.state_change', change(2).payload as never);
    await Bun.sleep(20);
    expect(lines).toHaveLength(1); // once an outage
    expect(seen).toEqual([]);
  });
});
