/**
 * @module test/helpers/vendors/polygon-rest
 * The REST half of the loopback Polygon (Massive) server: custom bars with
 * `next_url`, the daily market summary, the ticker snapshot, as documented
 * (massive.com/docs/rest/stocks/aggregates/custom-bars, …/daily-market-summary;
 * polygon-io/client-js `src/openapi.json`), answered from recordings:
 *
 * - `minute` bars of a multiple of 5 and `day` bars from the recorded 5-minute
 *   aggregates (rolled into clock windows, as the vendor rolls its base
 *   minute aggregates); `1/minute` from the recorded SPY minutes (recorded on
 *   Alpaca's SIP feed: the only minutes recorded).
 * - `from`/`to`: `YYYY-MM-DD` or Unix ms, inclusive. `limit` results a page
 *   (the vendor counts base aggregates; here the results themselves), then a
 *   `next_url` on the vendor's own host (`https://api.polygon.io/…?cursor=`),
 *   which a client must follow on its configured host.
 * - Day bars stamped at New York midnight; the summary's at 16:00 New York
 *   (the documented example's `t`, 1602705600000, is 16:00 EDT).
 * - The key as `Authorization: Bearer` or `apiKey`, else 401 `{"status":"ERROR","error":"Unknown API Key"}`.
 */
import { newYorkDate, newYorkToUtc } from '../../../src/providers/new-york-time';
import { clockWindows, TooManyRequests } from './paging';
import type { RecordedBar } from './recordings';

export interface PolygonRestState {
  apiKey: string;
  /** Recorded 5-minute aggregates by symbol. */
  fiveMinutes: Map<string, RecordedBar[]>;
  /** Recorded 1-minute bars by symbol. */
  minutes: Map<string, RecordedBar[]>;
  now: () => number;
  tooMany: TooManyRequests;
  requests: string[];
}

const MINUTE = 60_000;
const midnight = (t: number) => newYorkToUtc(newYorkDate(t), '00:00');
const bound = (value: string, end: boolean) => (/^\d{4}-\d\d-\d\d$/.test(value) ? newYorkToUtc(value, '00:00') + (end ? 86_400_000 - 1 : 0) : Number(value));
const wire = (b: RecordedBar) => ({ v: b.v, vw: b.vw, o: b.o, c: b.c, h: b.h, l: b.l, t: b.t, n: b.n });
const fail = (status: number, error: string) => Response.json({ status: 'ERROR', request_id: 'loopback', error }, { status });

function aggregates(state: PolygonRestState, symbol: string, multiplier: number, timespan: string): RecordedBar[] | undefined {
  const seen = (bars: RecordedBar[] | undefined, span: number) => (bars ?? []).filter((b) => b.t + span <= state.now());
  if (timespan === 'day' && multiplier === 1) return clockWindows(seen(state.fiveMinutes.get(symbol), 5 * MINUTE), 0, midnight);
  if (timespan !== 'minute') return undefined;
  if (multiplier === 1) return seen(state.minutes.get(symbol), MINUTE);
  if (multiplier % 5 === 0) return clockWindows(seen(state.fiveMinutes.get(symbol), 5 * MINUTE), multiplier * MINUTE);
  return undefined;
}

/** Answers one REST request, or undefined when the path is not Polygon's. */
export function polygonRest(state: PolygonRestState, request: Request): Response | undefined {
  const url = new URL(request.url);
  if (!url.pathname.startsWith('/v2/')) return undefined;
  state.requests.push(`${url.pathname}${url.search}`);
  const key = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? url.searchParams.get('apiKey');
  if (key !== state.apiKey) return fail(401, 'Unknown API Key');
  const limited = state.tooMany.take({ status: 'ERROR', request_id: 'loopback', error: "You've exceeded the maximum requests per minute, please wait or upgrade your subscription to continue." });
  if (limited) return limited;
  const range = /^\/v2\/aggs\/ticker\/([^/]+)\/range\/(\d+)\/(\w+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
  if (range) {
    const [, ticker, mult, span, fromText, toText] = range;
    const symbol = decodeURIComponent(ticker!);
    const bars = aggregates(state, symbol, Number(mult), span!);
    if (!bars) return fail(400, `${mult}/${span} is not recorded`);
    const from = bound(fromText!, false);
    const to = bound(toText!, true);
    // The cursor carries the paging of the first request (the vendor's encodes `limit=…&sort=…`).
    const cursor = new URLSearchParams(Buffer.from(url.searchParams.get('cursor') ?? '', 'base64').toString('utf8'));
    const limit = Number(cursor.get('limit') ?? url.searchParams.get('limit') ?? 5000);
    const offset = Number(cursor.get('offset') ?? 0);
    const all = bars.filter((b) => b.t >= from && b.t <= to);
    const page = all.slice(offset, offset + limit);
    const body: Record<string, unknown> = { ticker: symbol, queryCount: page.length, resultsCount: page.length, adjusted: true, status: 'OK', request_id: 'loopback' };
    if (page.length > 0) body.results = page.map(wire);
    if (offset + limit < all.length) body.next_url = `https://api.polygon.io/v2/aggs/ticker/${ticker}/range/${mult}/${span}/${fromText}/${toText}?cursor=${Buffer.from(`limit=${limit}&offset=${offset + limit}`).toString('base64')}`;
    return Response.json(body);
  }
  const grouped = /^\/v2\/aggs\/grouped\/locale\/us\/market\/stocks\/(\d{4}-\d\d-\d\d)$/.exec(url.pathname);
  if (grouped) {
    const date = grouped[1]!;
    const results = [...state.fiveMinutes.keys()].flatMap((symbol) => {
      const day = aggregates(state, symbol, 1, 'day')!.find((b) => newYorkDate(b.t) === date);
      return day ? [{ T: symbol, ...wire(day), t: newYorkToUtc(date, '16:00') }] : [];
    });
    return Response.json({ adjusted: true, queryCount: results.length, resultsCount: results.length, request_id: 'loopback', status: 'OK', results });
  }
  const snapshot = /^\/v2\/snapshot\/locale\/us\/markets\/stocks\/tickers\/([^/]+)$/.exec(url.pathname);
  if (snapshot) {
    const symbol = decodeURIComponent(snapshot[1]!);
    const days = aggregates(state, symbol, 1, 'day') ?? [];
    const last = (state.fiveMinutes.get(symbol) ?? []).filter((b) => b.t + 5 * MINUTE <= state.now()).at(-1);
    if (!last) return Response.json({ status: 'NOT_FOUND', request_id: 'loopback', message: 'Ticker not found.' }, { status: 404 });
    const [prevDay, day] = days.length > 1 ? days.slice(-2) : [undefined, days[0]];
    const tradeNs = (last.t + 5 * MINUTE - 1) * 1e6;
    return Response.json({ status: 'OK', request_id: 'loopback', ticker: { ticker: symbol, day: day && wire(day), prevDay: prevDay && wire(prevDay), lastTrade: { p: last.c, s: 100, t: tradeNs, x: 4 }, updated: tradeNs } });
  }
  return fail(404, 'not found');
}
