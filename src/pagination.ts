/**
 * @module pagination
 * The one implementation of the spec's envelope rules (`{ items, pagination }`):
 * `limit` clamped to [1, 200] (default 50), `offset` default 0, `order` `asc` |
 * `desc` (default `desc`), and an opaque `cursor` (base64url JSON) that encodes
 * the position and the order. A cursor beats `offset` and its order beats
 * `order`, so forward and backward pages cannot be mixed; a malformed cursor is
 * a request for the first page; `nextCursor` is null on the last page and a
 * cursor that would open an empty page is never handed out.
 *
 * Two ways to page: in memory over an already sorted list (`paginateList`), or
 * keyset over `(sortKey, id)` in the database (`readPage` + `keysetPage`).
 *
 * @example
 * const page = paginateList(rows, readPage({ limit: '2' }));
 * // => { items: [...2 rows], pagination: { limit: 2, offset: 0, order: 'desc', hasMore: true, nextCursor: 'eyJ…', total: 5 } }
 */
import { t } from 'elysia';

export const PAGE_LIMIT_MAX = 200;
export const PAGE_LIMIT_DEFAULT = 50;

export type SortOrder = 'asc' | 'desc';

export interface PageMeta {
  nextCursor: string | null;
  hasMore: boolean;
  total?: number;
  limit: number;
  offset: number;
  order: SortOrder;
}

export interface Page<T> {
  items: T[];
  pagination: PageMeta;
}

/** A decoded cursor: where the next page starts, in which order. */
interface Cursor {
  order: SortOrder;
  /** Position in an in-memory list. */
  offset?: number;
  /** Keyset position: the last row's sort key and id. */
  after?: [string | number, string];
}

/** The effective page request after clamping and cursor resolution. */
export interface PageRequest {
  limit: number;
  offset: number;
  order: SortOrder;
  after?: [string | number, string];
}

/**
 * The largest `offset` any endpoint accepts (2^31 − 1): far past any list we
 * hold, and a number every client and database handles natively. Beyond it is
 * 400, never a query.
 */
export const PAGE_OFFSET_MAX = 2_147_483_647;

/**
 * Query parameters of every envelope endpoint (TypeBox, for routes and the
 * OpenAPI document). `limit` has no bounds in the schema because the spec
 * clamps it (readPage); like every integer it must be decimal (domain/formats).
 */
export const PageQuery = {
  limit: t.Optional(
    t.Integer({ default: PAGE_LIMIT_DEFAULT, description: `Page size, clamped to [1, ${PAGE_LIMIT_MAX}]; default ${PAGE_LIMIT_DEFAULT}`, examples: [50], error: `Query parameter 'limit' must be a decimal integer (it is clamped to 1..${PAGE_LIMIT_MAX})` }),
  ),
  offset: t.Optional(
    t.Integer({ minimum: 0, maximum: PAGE_OFFSET_MAX, default: 0, description: 'Items to skip; default 0 (ignored when cursor is given)', examples: [0], error: `Query parameter 'offset' must be a decimal integer from 0 to ${PAGE_OFFSET_MAX}` }),
  ),
  cursor: t.Optional(t.String({ description: 'Opaque pagination.nextCursor of an earlier page; malformed → first page' })),
  order: t.Optional(t.UnionEnum(['asc', 'desc'], { default: 'desc', description: 'Sort direction; default desc', error: "Query parameter 'order' must be asc or desc" })),
};

export const PageMetaSchema = t.Object(
  {
    nextCursor: t.Union([t.String(), t.Null()], { description: 'Opaque cursor of the next page; null on the last page' }),
    hasMore: t.Boolean(),
    total: t.Optional(t.Integer({ description: 'Items in all pages, where cheap to count' })),
    limit: t.Integer({ description: 'The effective page size' }),
    offset: t.Integer(),
    order: t.Union([t.Literal('asc'), t.Literal('desc')]),
  },
  { title: 'PageMeta' },
);

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify({ v: 1, o: cursor.order, p: cursor.offset, k: cursor.after })).toString('base64url');
}

/** Decodes a cursor; anything malformed is `undefined` (→ first page). */
export function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw || raw.length > 512) return undefined;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (value.v !== 1 || (value.o !== 'asc' && value.o !== 'desc')) return undefined;
    const offset = value.p;
    const after = value.k;
    const validOffset = offset === undefined || (Number.isSafeInteger(offset) && (offset as number) >= 0 && (offset as number) <= PAGE_OFFSET_MAX);
    const validAfter =
      after === undefined ||
      (Array.isArray(after) &&
        after.length === 2 &&
        (typeof after[0] === 'string' || typeof after[0] === 'number') &&
        typeof after[1] === 'string');
    if (!validOffset || !validAfter || (offset === undefined && after === undefined)) return undefined;
    return { order: value.o, offset: offset as number | undefined, after: after as Cursor['after'] };
  } catch {
    return undefined;
  }
}

function toInt(raw: string | number | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = typeof raw === 'number' ? raw : Number(raw);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

/**
 * Resolves raw query values into the effective page request (never throws).
 * A keyset endpoint passes `validKey`: a cursor whose `(sortKey, id)` it does
 * not accept is malformed (→ first page), so a forged key never reaches a query.
 */
export function readPage(
  query: {
    limit?: string | number;
    offset?: string | number;
    cursor?: string;
    order?: string;
  },
  validKey?: (key: [string | number, string]) => boolean,
): PageRequest {
  const limit = Math.min(PAGE_LIMIT_MAX, Math.max(1, toInt(query.limit, PAGE_LIMIT_DEFAULT)));
  const decoded = decodeCursor(query.cursor);
  const cursor = decoded?.after && validKey && !validKey(decoded.after) ? undefined : decoded;
  if (cursor) return { limit, order: cursor.order, offset: cursor.offset ?? 0, after: cursor.after };
  const order: SortOrder = query.order === 'asc' ? 'asc' : 'desc';
  return { limit, order, offset: Math.min(PAGE_OFFSET_MAX, Math.max(0, toInt(query.offset, 0))) };
}

/**
 * Pages an in-memory list. `ascending` must be sorted in ascending order of the
 * endpoint's sort key; `desc` reads it from the end.
 */
export function paginateList<T>(ascending: readonly T[], request: PageRequest): Page<T> {
  const ordered = request.order === 'asc' ? ascending : [...ascending].reverse();
  const start = Math.min(request.offset, ordered.length);
  const items = ordered.slice(start, start + request.limit);
  const end = start + items.length;
  const hasMore = end < ordered.length;
  return {
    items,
    pagination: {
      nextCursor: hasMore ? encodeCursor({ order: request.order, offset: end }) : null,
      hasMore,
      total: ordered.length,
      limit: request.limit,
      offset: request.offset,
      order: request.order,
    },
  };
}

/**
 * Builds a keyset page from rows fetched with `limit + 1` (the extra row only
 * says whether more exist). `keyOf` gives a row's `(sortKey, id)`.
 */
export function keysetPage<T>(
  fetched: readonly T[],
  request: PageRequest,
  keyOf: (row: T) => [string | number, string],
  total?: number,
): Page<T> {
  const items = fetched.slice(0, request.limit);
  const hasMore = fetched.length > request.limit;
  const last = items[items.length - 1];
  return {
    items,
    pagination: {
      nextCursor: hasMore && last !== undefined ? encodeCursor({ order: request.order, after: keyOf(last) }) : null,
      hasMore,
      ...(total === undefined ? {} : { total }),
      limit: request.limit,
      offset: request.offset,
      order: request.order,
    },
  };
}
