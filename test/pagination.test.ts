import { describe, expect, it } from 'bun:test';
import { decodeCursor, encodeCursor, keysetPage, paginateList, readPage } from '../src/pagination';

const rows = Array.from({ length: 7 }, (_, i) => i + 1); // ascending 1..7

describe('readPage', () => {
  it('defaults to 50 items, offset 0, newest first', () => {
    expect(readPage({})).toEqual({ limit: 50, offset: 0, order: 'desc' });
  });
  it('clamps limit to [1, 200]', () => {
    expect(readPage({ limit: '0' }).limit).toBe(1);
    expect(readPage({ limit: '-5' }).limit).toBe(1);
    expect(readPage({ limit: '1000' }).limit).toBe(200);
    expect(readPage({ limit: 17 }).limit).toBe(17);
  });
  it('lets the cursor win over offset and over order', () => {
    const cursor = encodeCursor({ order: 'asc', offset: 4 });
    expect(readPage({ cursor, offset: '1', order: 'desc' })).toEqual({ limit: 50, offset: 4, order: 'asc', after: undefined });
  });
  it('treats a malformed cursor as a request for the first page', () => {
    for (const cursor of ['garbage', '', 'eyJ2IjoyfQ', encodeCursor({ order: 'asc', offset: 2 }).slice(0, -3), Buffer.from('{"v":1,"o":"up","p":1}').toString('base64url')]) {
      expect(readPage({ cursor, offset: '3', order: 'asc' })).toEqual({ limit: 50, offset: 3, order: 'asc' });
    }
  });
});

describe('paginateList', () => {
  it('pages a list newest first and hands out a cursor until the last page', () => {
    const first = paginateList(rows, readPage({ limit: '3' }));
    expect(first.items).toEqual([7, 6, 5]);
    expect(first.pagination).toMatchObject({ hasMore: true, limit: 3, offset: 0, order: 'desc', total: 7 });
    const second = paginateList(rows, readPage({ limit: '3', cursor: first.pagination.nextCursor! }));
    expect(second.items).toEqual([4, 3, 2]);
    const third = paginateList(rows, readPage({ limit: '3', cursor: second.pagination.nextCursor! }));
    expect(third.items).toEqual([1]);
    expect(third.pagination.hasMore).toBe(false);
    expect(third.pagination.nextCursor).toBeNull();
  });
  it('never returns a cursor that leads to an empty page', () => {
    const page = paginateList(rows, readPage({ limit: '7', order: 'asc' }));
    expect(page.items).toEqual(rows);
    expect(page.pagination).toMatchObject({ hasMore: false, nextCursor: null });
  });
  it('keeps a backward cursor backward even if order=asc is sent with it', () => {
    const first = paginateList(rows, readPage({ limit: '2' }));
    const next = paginateList(rows, readPage({ limit: '2', order: 'asc', cursor: first.pagination.nextCursor! }));
    expect(next.items).toEqual([5, 4]);
    expect(next.pagination.order).toBe('desc');
  });
  it('answers an offset past the end with an empty last page', () => {
    const page = paginateList(rows, readPage({ offset: '50' }));
    expect(page.items).toEqual([]);
    expect(page.pagination).toMatchObject({ hasMore: false, nextCursor: null, offset: 50 });
  });
});

describe('keysetPage', () => {
  it('uses the extra fetched row only to say more exist, and keys the cursor on the last item', () => {
    const fetched = [{ t: 9, id: 'c' }, { t: 8, id: 'b' }, { t: 7, id: 'a' }];
    const page = keysetPage(fetched, readPage({ limit: '2' }), (r) => [r.t, r.id]);
    expect(page.items).toHaveLength(2);
    expect(page.pagination.hasMore).toBe(true);
    expect(decodeCursor(page.pagination.nextCursor!)).toEqual({ order: 'desc', offset: undefined, after: [8, 'b'] });
    const last = keysetPage(fetched.slice(0, 2), readPage({ limit: '2' }), (r) => [r.t, r.id]);
    expect(last.pagination).toMatchObject({ hasMore: false, nextCursor: null });
    expect('total' in last.pagination).toBe(false);
  });
});
