import { describe, expect, it } from 'bun:test';
import { parseEventId, type EventId } from '../../src/stream/event-id';
import { ReplayBuffer, type ReplayEntry } from '../../src/stream/replay';

const id = (text: string): EventId => parseEventId(text)!;
const entry = (text: string, receivedAt = 0): ReplayEntry => ({ id: id(text), channel: 'breakouts.new', frame: new Uint8Array(1), receivedAt });

describe('replay buffer', () => {
  it('covers every id from its start position on, and seeks to the first event after an id', () => {
    const buffer = new ReplayBuffer(10, 60_000, id('100'));
    for (const t of ['101', '102', '105']) buffer.push(entry(t));
    expect(buffer.covers(id('100'))).toBe(true);
    expect(buffer.covers(id('99-5'))).toBe(false);
    expect(buffer.at(buffer.seek(id('100')))!.id).toEqual(id('101'));
    expect(buffer.at(buffer.seek(id('101-4')))!.id).toEqual(id('102'));
    expect(buffer.seek(id('105'))).toBe(buffer.end);
  });

  it('keeps at most its capacity; the floor moves to the last event it let go', () => {
    const buffer = new ReplayBuffer(3, 60_000, id('0'));
    for (let i = 1; i <= 5; i++) buffer.push(entry(`${i}-0`));
    expect(buffer.size).toBe(3);
    expect(buffer.floor).toEqual(id('2'));
    expect(buffer.covers(id('1'))).toBe(false); // event 2 is gone: a gap
    expect(buffer.covers(id('2'))).toBe(true); // 3, 4, 5 are all held
    expect(buffer.at(buffer.seek(id('2')))!.id).toEqual(id('3'));
  });

  it('lets events older than its age go', () => {
    const buffer = new ReplayBuffer(100, 1_000, id('0'));
    buffer.push(entry('1', 10_000));
    buffer.push(entry('2', 10_500));
    buffer.push(entry('3', 11_200));
    buffer.expire(11_600); // 1-0 is 1.6 s old, 2-0 1.1 s
    expect(buffer.size).toBe(1);
    expect(buffer.floor).toEqual(id('2'));
  });

  it('says when a reader’s cursor was overwritten', () => {
    const buffer = new ReplayBuffer(2, 60_000, id('0'));
    buffer.push(entry('1'));
    const cursor = buffer.seek(id('0'));
    buffer.push(entry('2'));
    buffer.push(entry('3'));
    expect(buffer.lost(cursor)).toBe(true);
    expect(buffer.at(cursor)).toBeUndefined();
  });
});
