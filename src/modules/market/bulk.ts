/**
 * @module modules/market/bulk
 * /api/bars as a bulk read (issue 31): the page in the representation the
 * request chose (plugins/media: `format=` or `Accept`), with the RFC 8288
 * `Link` to its next page. JSON stays the default and the held answer
 * (service's `barsJson`); CSV follows RFC 4180 with a header row (the
 * ledger's writer, ledger/serialize `csvLine`); NDJSON is one PriceBar per
 * LF-terminated line (modules/shared/representations, as the ledger's and the
 * history's).
 */
import type { ApiVersion } from '../../config';
import type { MarketData } from '../../market-data';
import { csvLine } from '../../ledger/serialize';
import { pageLinks } from '../../pagination';
import { bulkMedia } from '../../plugins/media';
import { jsonResponse } from '../shared/params';
import { ndjsonLines, rowsResponse } from '../shared/representations';
import { BARS_PAGE_DEFAULT, type BarsResponse, type BarsRouteQuery } from './model';
import { barsJson, barsPage, clampBarsLimit } from './service';

/** The bars as CSV: `date,[ts,]open,high,low,close,volume` (ts for intraday bars), CRLF line ends. */
export function barsCsv({ bars, timeframe }: Pick<BarsResponse, 'bars' | 'timeframe'>): string {
  const intraday = timeframe !== 'daily';
  let out = csvLine(intraday ? ['date', 'ts', 'open', 'high', 'low', 'close', 'volume'] : ['date', 'open', 'high', 'low', 'close', 'volume']);
  for (const b of bars) out += csvLine(intraday ? [b.date, b.ts, b.open, b.high, b.low, b.close, b.volume] : [b.date, b.open, b.high, b.low, b.close, b.volume]);
  return out;
}

/**
 * The answer of GET /api/bars on the route (the fast path answers plain JSON
 * reads of the spec's ranges itself). `headers`: the route's response
 * headers, where the `Link` goes.
 */
export async function barsAnswer(
  marketData: MarketData,
  query: typeof BarsRouteQuery.static,
  apiVersion: ApiVersion,
  request: Request,
  headers: Record<string, string | number>,
): Promise<Response> {
  // Negotiated first: a 406 costs no read.
  const media = bulkMedia(request.headers.get('accept'), query.format);
  const { format: _format, ...params } = query;
  // A window of the spec's ranges fits one default page (model's BARS_PAGE_DEFAULT): the held answer, no Link.
  if (media === 'application/json' && params.range !== 'max' && params.cursor === undefined && clampBarsLimit(params.limit) === BARS_PAGE_DEFAULT) {
    return jsonResponse(await barsJson(marketData, params, apiVersion));
  }
  const page = await barsPage(marketData, params, apiVersion);
  // Its neighbours: next by cursor, and first past the first page (bars take no offset: no prev).
  const meta = page.pagination;
  const link = meta && pageLinks(request.url, { next: meta.nextCursor, limit: meta.limit });
  if (link) headers.link = link;
  if (media === 'application/json') return jsonResponse(JSON.stringify(page), false);
  return rowsResponse(media, media === 'text/csv' ? barsCsv(page) : ndjsonLines(page.bars), link ? { link } : {});
}
