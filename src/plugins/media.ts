/**
 * @module plugins/media
 * Which representation a request gets, and where its next page is:
 *
 * - `chooseMedia`: proactive negotiation by `Accept` (RFC 9110 §12.5.1): each
 *   offered type takes the quality of the most specific media range that
 *   matches it (`type/subtype` over `type/*` over `*\/*`); the best quality
 *   above 0 wins, ties go to the server's order (JSON first). No `Accept` is
 *   `*\/*`. Nothing acceptable: `not_acceptable` (406, Error shape).
 * - `bulkMedia`: the representation of a bulk read, `format=` over `Accept`.
 *   (A page's `Link` field is pagination's `pageLinks`.)
 *
 * @example
 * chooseMedia('text/csv;q=0.9, application/json;q=0.5', BULK_MEDIA); // => 'text/csv'
 */
import { AppError, echoed } from '../errors';

/** The representations of a bulk read, in the server's order of preference (ties go to the first). */
export const BULK_MEDIA = ['application/json', 'text/csv', 'application/x-ndjson'] as const;
export type BulkMedia = (typeof BULK_MEDIA)[number];

/** `format=` names of the bulk representations (a link or a spreadsheet cannot set `Accept`). */
export const BULK_FORMATS = { json: 'application/json', csv: 'text/csv', ndjson: 'application/x-ndjson' } as const satisfies Record<string, BulkMedia>;
export type BulkFormat = keyof typeof BULK_FORMATS;

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';');
    const [type = '', subtype = ''] = range.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=');
      // A malformed weight is ignored (the range counts at q=1), not a reason to refuse the request.
      if (name?.trim().toLowerCase() === 'q' && value !== undefined && /^\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/.test(value)) q = Number(value);
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** The quality the ranges give one offered type: that of the most specific matching range, 0 when none matches. */
function qualityOf(offered: string, ranges: readonly MediaRange[]): number {
  const [type, subtype] = offered.split('/');
  let best = -1;
  let q = 0;
  for (const range of ranges) {
    const specificity = range.type === type && range.subtype === subtype ? 2 : range.type === type && range.subtype === '*' ? 1 : range.type === '*' && range.subtype === '*' ? 0 : -1;
    if (specificity > best) {
      best = specificity;
      q = range.q;
    }
  }
  return q;
}

/** The offered type the request accepts best; `not_acceptable` (406) when it accepts none of them. */
export function chooseMedia<const M extends string>(accept: string | null, offered: readonly M[]): M {
  if (accept === null || accept.trim() === '') return offered[0]!;
  const ranges = parseAccept(accept);
  // An Accept field with no media range that parses is treated as absent (RFC 9110 §12.5.1 lets a server ignore it).
  if (ranges.length === 0) return offered[0]!;
  let chosen: M | undefined;
  let best = 0;
  for (const type of offered) {
    const q = qualityOf(type, ranges);
    if (q > best) {
      best = q;
      chosen = type;
    }
  }
  if (chosen === undefined) throw new AppError('not_acceptable', `Accept '${echoed(accept)}' names none of the representations served here: ${offered.join(', ')}`);
  return chosen;
}

/**
 * Whether a request may be answered with JSON without negotiating: no
 * `Accept`, or one naming JSON or anything, and no other bulk type (the fast
 * path answers only those; the rest go through the route, which negotiates).
 */
export function plainlyJson(accept: string | null): boolean {
  if (accept === null || accept === '*/*' || accept === 'application/json') return true;
  return !accept.includes('csv') && !accept.includes('ndjson') && chooseJsonQuietly(accept);
}

function chooseJsonQuietly(accept: string): boolean {
  const ranges = parseAccept(accept);
  return ranges.length === 0 || qualityOf('application/json', ranges) > 0;
}

/** The representation of a bulk read: `format=` when given (it names one), else by `Accept`. */
export function bulkMedia(accept: string | null, format: BulkFormat | undefined): BulkMedia {
  return format === undefined ? chooseMedia(accept, BULK_MEDIA) : BULK_FORMATS[format];
}
