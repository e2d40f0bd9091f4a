/**
 * @module modules/transparency/bulk
 * GET /api/transparency/ledger as a bulk read (issue 31): a page of the
 * ledger in the representation the request chose (`format=` or `Accept`,
 * modules/shared/representations), with the RFC 8288 `Link` to its neighbours by
 * `offset` (the ledger pages by limit/offset, spec §4). JSON is the
 * LedgerResponse as before; CSV has the columns and rows of the whole-ledger
 * file (ledger/serialize: /api/transparency/ledger.csv), for the page's
 * records; NDJSON is one record (as in `records`) per line.
 */
import { csvHeader, csvRows, type LedgerEntryView } from '../../ledger/serialize';
import { pageLinks } from '../../pagination';
import { bulkMedia } from '../../plugins/media';
import { jsonResponse } from '../shared/params';
import { ndjsonLines, rowsResponse, streamRows } from '../shared/representations';
import type { LedgerQuery, LedgerRouteQuery } from './model';
import { ledgerPage, ledgerPageJson } from './service';
import type { LedgerSources } from './sources';

/** The `Link` of a ledger page: next while records remain past it, prev past offset 0, first past the first page. */
function ledgerLinks(requestUrl: string, { limit, offset }: Pick<LedgerQuery, 'limit' | 'offset'>, count: number): string | undefined {
  return pageLinks(requestUrl, { next: offset + limit < count ? offset + limit : null, offset, limit });
}

/** The answer of GET /api/transparency/ledger; `headers`: the route's response headers, where the `Link` goes. */
export async function ledgerAnswer(sources: LedgerSources, query: LedgerRouteQuery, request: Request, headers: Record<string, string | number>): Promise<Response> {
  // Negotiated first: a 406 costs no read.
  const media = bulkMedia(request.headers.get('accept'), query.format);
  const { format: _format, ...params } = query;
  if (media === 'application/json') {
    const { text, count } = await ledgerPageJson(sources, params);
    const link = ledgerLinks(request.url, params, count);
    if (link) headers.link = link;
    return jsonResponse(text);
  }
  const page = await ledgerPage(sources, params);
  const link = ledgerLinks(request.url, params, page.count);
  // The records are ledger/serialize's entries (ledgerPage makes them with ledgerEntries); the schema's type is looser.
  const records = page.records as LedgerEntryView[];
  const body = media === 'text/csv' ? streamRows(records, csvRows, csvHeader()) : streamRows(records, ndjsonLines);
  return rowsResponse(media, body, link ? { link } : {});
}
