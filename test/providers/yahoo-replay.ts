/**
 * @module test/providers/yahoo-replay — a loopback server that answers like
 * Yahoo Finance's v8 chart, v7 quote and v7 options JSON, built from real
 * samples: the yahoo adapter's tests (test/providers/yahoo.test.ts on the
 * committed excerpts, test/real/providers/yahoo-options.test.ts on the option
 * chains in shared/data).
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { sessionOpenClose } from '../../src/providers/calendar';
import { newYorkToUtc } from '../../src/providers/new-york-time';

/** Rows of a small CSV without quoted fields, as objects by header. */
export function readCsv(path: string): Record<string, string>[] {
  const raw = path.endsWith('.gz') ? gunzipSync(readFileSync(path)).toString('utf8') : readFileSync(path, 'utf8');
  const [header, ...lines] = raw.trim().split(/\r?\n/);
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i] || 'index', v])));
}

export const epoch = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

function chartJson(symbol: string, rows: { ts: number; o: number | null; h: number | null; l: number | null; c: number | null; v: number | null }[], granularity: string) {
  return {
    chart: {
      result: [
        {
          meta: { currency: 'USD', symbol, exchangeTimezoneName: 'America/New_York', dataGranularity: granularity },
          timestamp: rows.map((r) => r.ts),
          indicators: { quote: [{ open: rows.map((r) => r.o), high: rows.map((r) => r.h), low: rows.map((r) => r.l), close: rows.map((r) => r.c), volume: rows.map((r) => r.v) }] },
        },
      ],
      error: null,
    },
  };
}

function contractJson(r: Record<string, string>) {
  return {
    contractSymbol: r.contractSymbol,
    strike: Number(r.strike),
    lastPrice: Number(r.lastPrice),
    bid: Number(r.bid),
    ask: Number(r.ask),
    volume: r.volume === '' ? undefined : Number(r.volume),
    openInterest: Number(r.openInterest || 0),
    impliedVolatility: Number(r.impliedVolatility),
    expiration: epoch(r.expiry ?? r.Expiration_Date!),
  };
}

/** A chain the replay serves: its rows (yfinance CSV columns), the quote beside it, and how its rows name type and expiry. */
export interface ReplayChain {
  price: number;
  time: number;
  rows: Record<string, string>[];
  isCall: (r: Record<string, string>) => boolean;
  expiry: (r: Record<string, string>) => string;
}

/**
 * The replay server: what Yahoo answers for the paths the adapter asks. AAPL's
 * daily chart from the dieperdev CSV at `aaplDaily`, QQQ's 60-minute chart
 * from the money-tree CSV at `qqqHourly`, and the option `chains` by symbol.
 */
export function replayServer({ aaplDaily, qqqHourly, chains = {} }: { aaplDaily: string; qqqHourly: string; chains?: Record<string, ReplayChain> }) {
  const aapl = readCsv(aaplDaily);
  type Row = { ts: number; o: number | null; h: number | null; l: number | null; c: number | null; v: number | null };
  const daily: Row[] = aapl.map((r) => ({ ts: sessionOpenClose(r.Date!).open / 1000, o: +r.Open!, h: +r.High!, l: +r.Low!, c: +r.Close!, v: +r.Volume! }));
  // A halted day as Yahoo sends it: nulls in every column.
  daily.splice(100, 0, { ts: daily[99]!.ts + 3600, o: null, h: null, l: null, c: null, v: null });
  const qqq = readCsv(qqqHourly)
    .filter((r) => r.Open !== undefined && r.Open !== '')
    .map((r) => {
      const [day, time] = r.Datetime!.split(' ');
      return { ts: newYorkToUtc(day!, time!.slice(0, 5)) / 1000, o: +r.Open!, h: +r.High!, l: +r.Low!, c: +r.Close!, v: +r.Volume!, time: time! };
    })
    .filter((r) => r.time >= '09:30:00' && r.time < '16:00:00'); // includePrePost=false
  const requests: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const url = new URL(request.url);
      requests.push(url.pathname + url.search);
      const chart = /^\/v8\/finance\/chart\/([^/]+)$/.exec(url.pathname);
      if (chart) {
        const symbol = decodeURIComponent(chart[1]!);
        if (symbol === 'AAPL' && url.searchParams.get('interval') === '1d') {
          const p1 = Number(url.searchParams.get('period1') ?? 0);
          const p2 = Number(url.searchParams.get('period2') ?? Infinity);
          return Response.json(chartJson('AAPL', daily.filter((r) => r.ts >= p1 && r.ts <= p2), '1d'));
        }
        if (symbol === 'QQQ' && url.searchParams.get('interval') === '60m') return Response.json(chartJson('QQQ', qqq, '60m'));
        if (symbol === 'BROKEN') return new Response('<html>maintenance</html>', { status: 200 });
        if (symbol === 'DOWN') return new Response('busy', { status: 503 });
        return Response.json({ chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } } }, { status: 404 });
      }
      if (url.pathname === '/v7/finance/quote') {
        const symbols = (url.searchParams.get('symbols') ?? '').split(',');
        const result = symbols.includes('AAPL')
          ? [{ symbol: 'AAPL', regularMarketPrice: 170.73, regularMarketOpen: 169, regularMarketDayHigh: 173.7, regularMarketDayLow: 168.94, regularMarketVolume: 76114600, regularMarketPreviousClose: 169, regularMarketChange: 1.73, regularMarketChangePercent: 1.0236686, regularMarketTime: 1709931600, marketState: 'CLOSED' }]
          : [];
        return Response.json({ quoteResponse: { result, error: null } });
      }
      const options = /^\/v7\/finance\/options\/([^/]+)$/.exec(url.pathname);
      if (options) {
        const c = chains[decodeURIComponent(options[1]!)];
        if (!c) return Response.json({ optionChain: { result: [], error: null } });
        const expiries = [...new Set(c.rows.map(c.expiry))].sort();
        const date = url.searchParams.get('date');
        const day = date ? new Date(Number(date) * 1000).toISOString().slice(0, 10) : expiries[0]!;
        const page = c.rows.filter((r) => c.expiry(r) === day);
        return Response.json({
          optionChain: {
            result: [
              {
                underlyingSymbol: options[1],
                expirationDates: expiries.map(epoch),
                strikes: [...new Set(c.rows.map((r) => Number(r.strike)))].sort((a, b) => a - b),
                quote: { regularMarketPrice: c.price, regularMarketTime: c.time },
                options: page.length ? [{ expirationDate: epoch(day), calls: page.filter(c.isCall).map(contractJson), puts: page.filter((r) => !c.isCall(r)).map(contractJson) }] : [],
              },
            ],
            error: null,
          },
        });
      }
      return new Response('not found', { status: 404 });
    },
  });
  return { server, requests, aapl, baseUrl: `http://127.0.0.1:${server.port}` };
}

