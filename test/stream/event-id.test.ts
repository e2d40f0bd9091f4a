import { describe, expect, it } from 'bun:test';
import { compareEventIds, formatEventId, parseEventId } from '../../src/stream/event-id';

describe('event ids', () => {
  it('reads and writes bus ids (log positions) and the hub’s own ids after them', () => {
    expect(parseEventId('42')).toEqual({ position: 42, sub: 0 });
    expect(parseEventId('42-3')).toEqual({ position: 42, sub: 3 });
    expect(formatEventId({ position: 42, sub: 0 })).toBe('42');
    expect(formatEventId({ position: 1, sub: 2 })).toBe('1-2');
  });

  it('refuses what is not an id', () => {
    for (const text of ['', 'abc', '1-', '-1', '1-2-3', '1.5', '99999999999999999', '1-x']) expect(parseEventId(text)).toBeNull();
  });

  it('orders ids as (position, n): a hub event comes after its bus event and before the next', () => {
    const order = ['5', '5-1', '5-2', '6', '6-9', '10'].map((t) => parseEventId(t)!);
    for (let i = 1; i < order.length; i++) expect(compareEventIds(order[i - 1]!, order[i]!)).toBeLessThan(0);
    expect(compareEventIds(parseEventId('7')!, parseEventId('7-0')!)).toBe(0);
  });
});
