/**
 * @module db/repositories/keyset
 * Keyset paging over `(sort key, id)` (DESIGN §4 "Pagination"): the rows
 * beyond a cursor's last row, in the page's order. A cursor whose key does
 * not read as the column's type (a date that is no date, say) is no
 * position: the page starts at the top, as a malformed cursor must.
 *
 * @example
 * const rows = await db.select().from(watchlists)
 *   .where(and(eq(watchlists.userId, userId), beyondCursor(watchlists.createdAt, watchlists.id, page)))
 *   .orderBy(...pageOrder(watchlists.createdAt, watchlists.id, page.order))
 *   .limit(page.limit + 1).offset(pageOffset(page));
 */
import { and, asc, desc, eq, gt, lt, or, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PageRequest, SortOrder } from '../../pagination';

/** How a cursor's sort key reads as the column's value: a timestamp (ISO string) or a number. */
export type KeyKind = 'timestamp' | 'number';

function keyValue(raw: string | number, kind: KeyKind): Date | number | undefined {
  if (kind === 'number') return typeof raw === 'number' && Number.isSafeInteger(raw) ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  const at = new Date(raw);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * The condition for rows after the cursor's `(sortKey, id)`; undefined without
 * a (readable) cursor. `idColumn` null: the sort key is unique on its own (a
 * serial id), and the cursor's id part is not read.
 */
export function beyondCursor(sortColumn: AnyColumn, idColumn: AnyColumn | null, page: PageRequest, kind: KeyKind = 'timestamp'): SQL | undefined {
  if (!page.after) return undefined;
  const value = keyValue(page.after[0], kind);
  if (value === undefined) return undefined;
  const past = page.order === 'desc' ? lt : gt;
  if (idColumn === null) return past(sortColumn, value);
  return or(past(sortColumn, value), and(eq(sortColumn, value), past(idColumn, page.after[1])));
}

/** ORDER BY of a page: the sort key, then the id, both in the page's order. */
export function pageOrder(sortColumn: AnyColumn, idColumn: AnyColumn, order: SortOrder): SQL[] {
  const direction = order === 'desc' ? desc : asc;
  return [direction(sortColumn), direction(idColumn)];
}

/** The OFFSET of a page: `offset` without a cursor, none after one. */
export function pageOffset(page: PageRequest): number {
  return page.after ? 0 : page.offset;
}

/** The `(sortKey, id)` a cursor keeps for a row whose sort key is a timestamp. */
export const timestampKey = (at: Date, id: string): [string, string] => [at.toISOString(), id];
