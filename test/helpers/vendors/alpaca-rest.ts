/**
 * @module test/helpers/vendors/alpaca-rest
 * The REST half of the loopback Alpaca server: Market Data v2's bars (one
 * symbol and many), snapshot and its errors, as documented
 * (alpacahq/alpaca-docs, market-data-api/stock-pricing-data/historical.md),
 * answered from the recorded minutes:
 *
 * - `1Min`: the recorded bars; `30Min`: them rolled into clock half hours;
 *   `1Day`: the New York day's bars, stamped at New York midnight (`04:00Z`),
 *   as Alpaca stamps days. `start`/`end` are inclusive RFC-3339 bounds.
 * - `limit` bars a page, `next_page_token` (opaque) until the last page, then null;
 *   the multi-symbol answer is sorted by symbol, then time.
 * - Keys in `APCA-API-KEY-ID` / `APCA-API-SECRET-KEY`, else 403 `{"message":"forbidden"}`.
 * - A 429 with `Retry-After` when a test arms `tooMany`.
 */
import { newYorkDate, newYorkToUtc } from '../../../src/providers/new-york-time';
import { clockWindows, pageOffset, pageToken, TooManyRequests } from './paging';
import type { RecordedBar } from './recordings';

export interface AlpacaRestState {
  keyId: string;
  secretKey: string;
  /** Recorded minutes by symbol, oldest first. */
  minutes: Map<string, RecordedBar[]>;
  /** The server's clock: nothing after it is answered. */
  now: () => number;
  tooMany: TooManyRequests;
  /** Every request's path and query, in order. */
  requests: string[];
}

const HALF_HOUR = 30 * 60_000;

function barsOf(state: AlpacaRestState, symbol: string, timeframe: string, start: number, end: number): RecordedBar[] | undefined {
  const minutes = (state.minutes.get(symbol) ?? []).filter((b) => b.t <= state.now() - 60_000);
  let bars: RecordedBar[];
  if (timeframe === '1Min') bars = minutes;
  else if (timeframe === '30Min') bars = clockWindows(minutes, HALF_HOUR);
  else if (timeframe === '1Day') bars = clockWindows(minutes, 0, (t) => newYorkToUtc(newYorkDate(t), '00:00'));
  else return undefined;
  return bars.filter((b) => b.t >= start && b.t <= end);
}

const wire = (b: RecordedBar) => ({ t: new Date(b.t).toISOString().replace('.000Z', 'Z'), o: b.o, h: b.h, l: b.l, c: b.c, v: b.v, n: b.n, vw: b.vw });
const error = (status: number, message: string) => Response.json({ message }, { status });

/** Answers one REST request, or undefined when the path is not Alpaca's. */
export function alpacaRest(state: AlpacaRestState, request: Request): Response | undefined {
  const url = new URL(request.url);
  if (!url.pathname.startsWith('/v2/stocks')) return undefined;
  state.requests.push(`${url.pathname}${url.search}`);
  if (request.headers.get('apca-api-key-id') !== state.keyId || request.headers.get('apca-api-secret-key') !== state.secretKey) return error(403, 'forbidden');
  const limited = state.tooMany.take({ message: 'too many requests' });
  if (limited) return limited;
  const q = url.searchParams;
  const snapshot = /^\/v2\/stocks\/([^/]+)\/snapshot$/.exec(url.pathname);
  if (snapshot) return snapshotOf(state, decodeURIComponent(snapshot[1]!));
  const one = /^\/v2\/stocks\/([^/]+)\/bars$/.exec(url.pathname);
  const symbols = one ? [decodeURIComponent(one[1]!)] : url.pathname === '/v2/stocks/bars' ? (q.get('symbols') ?? '').split(',').filter(Boolean) : undefined;
  if (!symbols) return error(404, 'not found');
  const start = Date.parse(q.get('start') ?? '');
  const end = Date.parse(q.get('end') ?? '');
  const limit = Number(q.get('limit') ?? 1000);
  const offset = pageOffset(q.get('page_token'));
  if (!Number.isFinite(start) || !Number.isFinite(end) || !(limit >= 1 && limit <= 10_000) || offset < 0) return error(422, 'invalid query parameter');
  if (!['iex', 'sip'].includes(q.get('feed') ?? 'iex') || !['raw', 'split', 'dividend', 'all'].includes(q.get('adjustment') ?? 'raw')) return error(400, 'invalid value for query parameter');
  const all: RecordedBar[] = [];
  for (const symbol of [...symbols].sort()) {
    const bars = barsOf(state, symbol, q.get('timeframe') ?? '', start, end);
    if (!bars) return error(422, 'invalid timeframe');
    all.push(...bars);
  }
  const page = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? pageToken(offset + limit) : null;
  if (one) return Response.json({ bars: page.map(wire), symbol: symbols[0], next_page_token: next });
  const grouped: Record<string, ReturnType<typeof wire>[]> = {};
  for (const bar of page) (grouped[bar.symbol] ??= []).push(wire(bar));
  return Response.json({ bars: grouped, next_page_token: next });
}

function snapshotOf(state: AlpacaRestState, symbol: string): Response {
  const seen = (state.minutes.get(symbol) ?? []).filter((b) => b.t <= state.now() - 60_000);
  const last = seen.at(-1);
  if (!last) return error(404, 'not found');
  const days = clockWindows(seen, 0, (t) => newYorkToUtc(newYorkDate(t), '00:00'));
  const [prev, day] = days.length > 1 ? days.slice(-2) : [undefined, days[0]!];
  return Response.json({
    symbol,
    latestTrade: { t: new Date(last.t + 59_000).toISOString(), x: 'V', p: last.c, s: 100, c: ['@'], i: 1, z: 'B' },
    latestQuote: { t: new Date(last.t + 59_000).toISOString(), ax: 'V', ap: last.c + 0.01, as: 1, bx: 'V', bp: last.c - 0.01, bs: 1, c: ['R'] },
    minuteBar: wire(last),
    dailyBar: wire(day!),
    prevDailyBar: prev ? wire(prev) : null,
  });
}
