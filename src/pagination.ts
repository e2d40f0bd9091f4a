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
 * Every paged answer also names its neighbours in an RFC 8288 `Link` field
 * (`pageLinks`: next, prev where the position is an offset, first).
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

/** Whether a request asks for the first page: no cursor that decodes and no offset. */
export function isFirstPage(query: { cursor?: string; offset?: string | number }): boolean {
  return decodeCursor(query.cursor) === undefined && !query.offset;
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
  return { items: ordered.slice(start, start + request.limit), pagination: listPageMeta(ordered.length, request) };
}

/** The PageMeta `paginateList` gives a list of `total` items, without the list (a held answer's Link needs only this). */
export function listPageMeta(total: number, request: PageRequest): PageMeta {
  const end = Math.min(total, request.offset + request.limit);
  const hasMore = end < total;
  return {
    nextCursor: hasMore ? encodeCursor({ order: request.order, offset: end }) : null,
    hasMore,
    total,
    limit: request.limit,
    offset: request.offset,
    order: request.order,
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

/** What a `Link` field says of a page: where the next one starts, and where this one is. */
export interface PageLinkFacts {
  /** The next page: its cursor, or its offset where the endpoint pages by offset alone (the ledger); null on the last page. */
  next: string | number | null;
  /** The page's offset in the list, when the endpoint accepts `offset` (then `prev` is linked from a page past 0); a keyset page reached by cursor says 0. */
  offset?: number;
  limit: number;
  /** The order to state in the `first` and `prev` links (a cursor carries its own); absent where the endpoint has no `order` parameter. */
  order?: SortOrder;
}

/**
 * The RFC 8288 `Link` field of a page: `rel="next"` when there is a next page
 * (the request's own URL with the cursor, or the offset, set), `rel="prev"`
 * when the page sits at a known offset past 0 (offset paging; a keyset cursor
 * knows only its way forward), `rel="first"` on any page but the first (the
 * request had a cursor or an offset); undefined for a lone page. Each target is the
 * request URL with only the position changed, as a relative reference
 * (RFC 8288 §3.1 resolves it against the request's URI): right behind any
 * proxy, whatever host the server saw, and a client follows it without
 * knowing the query (as Polygon's `next_url`, GitHub's `Link`).
 *
 * @example
 * pageLinks('http://h/api/watchlists?limit=2', { next: 'eyJ', offset: 0, limit: 2, order: 'desc' });
 * // => '</api/watchlists?limit=2&cursor=eyJ>; rel="next"'
 * pageLinks('http://h/api/watchlists?limit=2&offset=4', { next: null, offset: 4, limit: 2, order: 'desc' });
 * // => '</api/watchlists?limit=2&order=desc&offset=2>; rel="prev", </api/watchlists?limit=2&order=desc>; rel="first"'
 */
export function pageLinks(requestUrl: string, page: PageLinkFacts): string | undefined {
  const url = new URL(requestUrl);
  const at = (position: { cursor?: string; offset?: number }, rel: string): string => {
    const target = new URL(url);
    target.searchParams.delete('cursor');
    target.searchParams.delete('offset');
    if (position.cursor !== undefined) target.searchParams.set('cursor', position.cursor);
    else if (page.order !== undefined) target.searchParams.set('order', page.order);
    if (position.offset) target.searchParams.set('offset', String(position.offset));
    return `<${target.pathname}${target.search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (typeof page.next === 'string') links.push(at({ cursor: page.next }, 'next'));
  else if (typeof page.next === 'number') links.push(at({ offset: page.next }, 'next'));
  if (page.offset !== undefined && page.offset > 0) links.push(at({ offset: Math.max(0, page.offset - page.limit) }, 'prev'));
  if (url.searchParams.has('cursor') || (page.offset ?? 0) > 0) links.push(at({}, 'first'));
  return links.length ? links.join(', ') : undefined;
}

/** The `Link` field of an envelope page (the spec's PageMeta): next by cursor, prev by offset, first. */
export function envelopeLinks(requestUrl: string, meta: PageMeta): string | undefined {
  return pageLinks(requestUrl, { next: meta.nextCursor, offset: meta.offset, limit: meta.limit, order: meta.order });
}

/** Whether an answer is an envelope page (`{ items, pagination: PageMeta }`). */
export function isEnvelope(value: unknown): value is Page<unknown> {
  if (typeof value !== 'object' || value === null || !('pagination' in value) || !('items' in value)) return false;
  const meta = (value as { pagination: unknown }).pagination;
  return typeof meta === 'object' && meta !== null && 'nextCursor' in meta && 'limit' in meta && 'offset' in meta;
}
