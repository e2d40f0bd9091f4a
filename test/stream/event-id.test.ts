import { describe, expect, it } from 'bun:test';
import { compareEventIds, EventIdClock, formatEventId, parseEventId } from '../../src/stream/event-id';

describe('event ids', () => {
  it('reads and writes bus ids (Redis Streams ids) and the hub’s own ids after them', () => {
    expect(parseEventId('1732212345678-3')).toEqual({ ms: 1732212345678, seq: 3, sub: 0 });
    expect(parseEventId('1732212345678-3-2')).toEqual({ ms: 1732212345678, seq: 3, sub: 2 });
    expect(formatEventId({ ms: 1732212345678, seq: 3, sub: 0 })).toBe('1732212345678-3');
    expect(formatEventId({ ms: 1, seq: 0, sub: 2 })).toBe('1-0-2');
  });

  it('refuses what is not an id', () => {
    for (const text of ['', 'abc', '1', '1-', '-1', '1-2-3-4', '1.5-2', '99999999999999999-0', '1-0-x']) expect(parseEventId(text)).toBeNull();
  });

  it('orders ids as (ms, seq, n): a hub event comes after its bus event and before the next', () => {
    const order = ['5-0', '5-0-1', '5-0-2', '5-1', '6-0', '6-0-9', '10-0'].map((t) => parseEventId(t)!);
    for (let i = 1; i < order.length; i++) expect(compareEventIds(order[i - 1]!, order[i]!)).toBeLessThan(0);
    expect(compareEventIds(parseEventId('7-1')!, parseEventId('7-1')!)).toBe(0);
  });

  it('mints strictly increasing ids the way XADD * does, also when the clock stalls or steps back', () => {
    const times = [1000, 1000, 1000, 1001, 999, 999, 1005];
    let i = 0;
    const clock = new EventIdClock(() => times[Math.min(i++, times.length - 1)]!);
    const ids = Array.from({ length: 6 }, () => formatEventId(clock.next()));
    expect(ids).toEqual(['1000-1', '1000-2', '1001-0', '1001-1', '1001-2', '1005-0']);
    expect(compareEventIds(parseEventId('1000-0')!, parseEventId(ids[0]!)!)).toBeLessThan(0); // the start position precedes every event
  });
});
