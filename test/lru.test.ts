/** src/lru: the bounded map the composition root builds caches from. */
import { describe, expect, it } from 'bun:test';
import { Lru } from '../src/lru';

describe('Lru', () => {
  it('drops the least recently used entry past its number of entries (a read counts as a use)', () => {
    const lru = new Lru<string, number>({ maxEntries: 2 });
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect([lru.has('a'), lru.has('b'), lru.has('c')]).toEqual([true, false, true]);
    expect(lru.size).toBe(2);
  });

  it('keeps within a byte budget, never keeps a value larger than it, and counts replaced and deleted values out', () => {
    const lru = new Lru<string, string>({ maxEntries: 10, maxBytes: 10, sizeOf: (v) => v.length });
    lru.set('a', 'xxxx');
    lru.set('b', 'yyyy');
    lru.set('c', 'zzzz'); // 12 bytes: 'a' goes
    expect([lru.has('a'), lru.has('b'), lru.has('c')]).toEqual([false, true, true]);
    lru.set('huge', 'x'.repeat(11));
    expect(lru.has('huge')).toBe(false);
    lru.set('b', 'y'); // replaced: 5 bytes in all now
    lru.set('d', 'dddd'); // 9 bytes: nothing goes
    expect([lru.has('b'), lru.has('c'), lru.has('d')]).toEqual([true, true, true]);
    expect(lru.delete('c')).toBe(true);
    expect(lru.delete('c')).toBe(false);
    lru.set('e', 'eeeee'); // 10 bytes
    expect(lru.size).toBe(3);
    lru.clear();
    expect(lru.size).toBe(0);
  });

  it('keeps nothing with room for no entry', () => {
    const lru = new Lru<string, number>({ maxEntries: 0 });
    lru.set('a', 1);
    expect(lru.get('a')).toBeUndefined();
  });
});
