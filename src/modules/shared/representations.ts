/**
 * @module modules/shared/representations
 * The bulk representations of a list read (issue 31), one way for every
 * route that offers them (bars, the ledger, the breakouts history): `format=`
 * (`FormatParam`) or `Accept` (plugins/media's `bulkMedia`) picks JSON, CSV
 * (RFC 4180: a header row, CRLF, ledger/serialize's `csvLine`) or NDJSON (one
 * JSON object per LF-terminated line, github.com/ndjson/ndjson-spec). CSV and
 * NDJSON bodies are streamed a slice of rows at a time with the event loop
 * free between slices (a page of the ledger is up to 1,000 records of about
 * 1.5 KB: rendered at once it would hold the server's thread); `bulkDocs` is
 * their OpenAPI text, the 406 included (and the `Link` header of a page that
 * is not an envelope: publish declares it on every envelope itself).
 *
 * @example
 * const media = bulkMedia(request.headers.get('accept'), query.format);
 * if (media !== 'application/json') return bulkResponse(media, streamRows(rows, (slice) => ndjsonLines(slice)));
 */
import { yieldToEventLoop } from '../../db/client';
import { BULK_FORMATS, type BulkFormat, type BulkMedia } from '../../plugins/media';
import { LINK_HEADER } from '../../plugins/openapi/publish';
import { oneOf } from './params';

/** The representations other than JSON. */
export type RowMedia = Exclude<BulkMedia, 'application/json'>;

/** Their Content-Type fields. */
export const ROW_CONTENT_TYPE: Record<RowMedia, string> = {
  'text/csv': 'text/csv; charset=utf-8',
  'application/x-ndjson': 'application/x-ndjson; charset=utf-8',
};

/** The `format` query parameter of a bulk read; `unit` names one row (a bar, a record). */
export const FormatParam = (unit: string) =>
  oneOf(
    'format',
    Object.keys(BULK_FORMATS) as BulkFormat[],
    `Representation (additive): json (default), csv (RFC 4180, a header row) or ndjson (one ${unit} per line); wins over Accept, which chooses the same way (application/json, text/csv, application/x-ndjson; 406 for none of them)`,
  );

/** Rows as NDJSON: one JSON object per line. */
export function ndjsonLines(rows: readonly unknown[]): string {
  let out = '';
  for (const row of rows) out += `${JSON.stringify(row)}\n`;
  return out;
}

/** Rows rendered per turn of the event loop (as ledger pages are serialised: modules/transparency/service). */
export const ROWS_PER_SLICE = 50;

/**
 * A body streamed from rows: `head` first (a CSV header row), then `render`
 * of `ROWS_PER_SLICE` rows per chunk, the event loop turned between chunks
 * (a stream's pull may be called again at once, in a microtask).
 */
export function streamRows<T>(rows: readonly T[], render: (slice: readonly T[]) => string, head = ''): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let at = 0;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        if (head) return controller.enqueue(encoder.encode(head));
      }
      if (at >= rows.length) return controller.close();
      if (at > 0) await yieldToEventLoop();
      controller.enqueue(encoder.encode(render(rows.slice(at, at + ROWS_PER_SLICE))));
      at += ROWS_PER_SLICE;
    },
  });
}

/** A 200 in CSV or NDJSON, with the route's other headers (its `Link`). */
export function rowsResponse(media: RowMedia, body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}): Response {
  return new Response(body, { headers: { ...headers, 'content-type': ROW_CONTENT_TYPE[media] } });
}

/** The OpenAPI text of a bulk read's representations (merged by plugins/openapi/publish's `withExtras`): what each one holds, and the 406. */
export function bulkDocs(what: { json: string; csv: string; ndjson: string; link?: true }) {
  return {
    200: {
      description: `${what.json}, as JSON, CSV or NDJSON (by Accept, or format=)`,
      ...(what.link ? { headers: { Link: LINK_HEADER } } : {}),
      content: {
        'text/csv': { schema: { type: 'string' as const, description: what.csv } },
        'application/x-ndjson': { schema: { type: 'string' as const, description: what.ndjson } },
      },
    },
    406: { description: 'Not acceptable: Accept names none of application/json, text/csv, application/x-ndjson (Error shape, code not_acceptable)' },
  };
}
