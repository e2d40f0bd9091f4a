/**
 * The yahoo adapter against a loopback server that replays Yahoo's chart,
 * quote and options JSON, built from real samples in shared/data: AAPL daily
 * history (dieperdev, yfinance), QQQ hourly bars (moneytree, yfinance), the SPY
 * chain of 2025-08-26 (30 expiries) and the AAPL chain of 2026-07-31.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Static } from 'elysia';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import type { OptionsFlowResponse } from '../../src/modules/altdata/model';
import { newYorkToUtc, sessionOpenClose } from '../../src/providers/calendar';
import { createCsvProvider } from '../../src/providers/csv';
import { ProviderError } from '../../src/providers/types';
import { createYahooProvider, fourHourBars, type YahooProvider } from '../../src/providers/yahoo';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';
import { sharedData } from '../helpers/shared-data';

/** Rows of a small CSV without quoted fields, as objects by header. */
function readCsv(path: string): Record<string, string>[] {
  const raw = path.endsWith('.gz') ? gunzipSync(readFileSync(path)).toString('utf8') : readFileSync(path, 'utf8');
  const [header, ...lines] = raw.trim().split(/\r?\n/);
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i] || 'index', v])));
}

const epoch = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

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

/** The replay server: what Yahoo answers for the paths the adapter asks. */
function replayServer() {
  const aapl = readCsv(sharedData('daily_yf_dieperdev', 'AAPL.csv'));
  type Row = { ts: number; o: number | null; h: number | null; l: number | null; c: number | null; v: number | null };
  const daily: Row[] = aapl.map((r) => ({ ts: sessionOpenClose(r.Date!).open / 1000, o: +r.Open!, h: +r.High!, l: +r.Low!, c: +r.Close!, v: +r.Volume! }));
  // A halted day as Yahoo sends it: nulls in every column.
  daily.splice(100, 0, { ts: daily[99]!.ts + 3600, o: null, h: null, l: null, c: null, v: null });
  const qqq = readCsv(sharedData('intraday', 'yf_1h_moneytree', 'QQQ_1h.csv.gz'))
    .filter((r) => r.Open !== undefined && r.Open !== '')
    .map((r) => {
      const [day, time] = r.Datetime!.split(' ');
      return { ts: newYorkToUtc(day!, time!.slice(0, 5)) / 1000, o: +r.Open!, h: +r.High!, l: +r.Low!, c: +r.Close!, v: +r.Volume!, time: time! };
    })
    .filter((r) => r.time >= '09:30:00' && r.time < '16:00:00'); // includePrePost=false
  const spy = readCsv(sharedData('options', 'spy_chain_snapshot_20250826_yf.csv.gz'));
  const aaplChain = readCsv(sharedData('options', 'aapl_chain_snapshot_20260731_yf.csv'));
  const chains: Record<string, { price: number; time: number; rows: Record<string, string>[]; isCall: (r: Record<string, string>) => boolean; expiry: (r: Record<string, string>) => string }> = {
    SPY: { price: 645.16, time: epoch('2025-08-26') + 20 * 3600, rows: spy, isCall: (r) => r.Type === 'c', expiry: (r) => r.Expiration_Date! },
    AAPL: { price: Number(aaplChain[0]!.spot), time: epoch('2026-07-31') + 20 * 3600, rows: aaplChain, isCall: (r) => r.type === 'call', expiry: (r) => r.expiry! },
  };
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
  return { server, requests, aapl, spy, baseUrl: `http://127.0.0.1:${server.port}` };
}

let replay: ReturnType<typeof replayServer>;
let yahoo: YahooProvider;
beforeAll(() => {
  replay = replayServer();
  yahoo = createYahooProvider({ baseUrl: replay.baseUrl, ratePerSecond: 1000 });
});
afterAll(() => replay.server.stop(true));

describe('yahoo provider: chart JSON → bars', () => {
  it('reads the AAPL daily chart exactly as the csv provider reads the same history, dropping the null (halt) row', async () => {
    const bars = await yahoo.bars({ symbol: 'AAPL', timeframe: 'daily' });
    const csv = await createCsvProvider({ dir: sharedData('daily_yf_dieperdev') }).bars({ symbol: 'AAPL', timeframe: 'daily' });
    expect(bars.ts.length).toBe(replay.aapl.length);
    expect(bars.source).toBe('yahoo');
    expect([...bars.ts]).toEqual([...csv.ts]);
    expect([...bars.close]).toEqual([...csv.close]);
    expect([...bars.volume]).toEqual([...csv.volume]);
    const i = bars.ts.indexOf(Date.parse('2023-06-30T00:00:00Z'));
    expect(bars.close[i]!).toBeCloseTo(193.97, 4);
  });

  it('asks for period1/period2 when bounded', async () => {
    const from = Date.parse('2024-03-01T00:00:00Z');
    const bars = await yahoo.bars({ symbol: 'AAPL', timeframe: 'daily', from, to: Date.parse('2024-03-08T23:59:59Z') });
    expect(replay.requests.at(-1)).toContain(`period1=${from / 1000}`);
    expect(bars.ts.length).toBe(6); // 03-01, 03-04 … 03-08
  });

  it('reads 60m bars and gathers them into 09:30–13:30 and 13:30–16:00 blocks', async () => {
    const hourly = await yahoo.bars({ symbol: 'QQQ', timeframe: '1h' });
    const day = Date.parse('2023-03-15T13:30:00Z'); // 09:30 EDT
    const i = hourly.ts.indexOf(day);
    expect(i).toBeGreaterThan(0);
    expect(hourly.open[i]!).toBeCloseTo(294.71, 2);
    const blocks = await yahoo.bars({ symbol: 'QQQ', timeframe: '4h' });
    expect(blocks.timeframe).toBe('4h');
    const k = blocks.ts.indexOf(day);
    expect(blocks.ts[k + 1]! - blocks.ts[k]!).toBe(4 * 3_600_000);
    // First block: the 09:30–12:30 hours; second: 13:30–15:30 (values from the file).
    expect(blocks.open[k]!).toBeCloseTo(294.71, 2);
    expect(blocks.close[k]!).toBeCloseTo(296.342, 3);
    expect(blocks.high[k]!).toBeCloseTo(297.04, 2);
    expect(blocks.low[k]!).toBeCloseTo(293.24, 2);
    expect(blocks.volume[k]!).toBe(20065045 + 10432096 + 8189245 + 7827188);
    expect(blocks.close[k + 1]!).toBeCloseTo(298.91, 2);
    expect(blocks.volume[k + 1]!).toBe(10926952 + 12629080 + 10113936);
    expect(fourHourBars(hourly).ts.length).toBe(blocks.ts.length);
  });

  it('maps vendor failures to ProviderError codes', async () => {
    const code = async (symbol: string) => {
      try {
        await yahoo.bars({ symbol, timeframe: 'daily' });
        return 'ok';
      } catch (error) {
        return (error as ProviderError).code;
      }
    };
    expect(await code('NOPE')).toBe('unknown_symbol');
    expect(await code('BROKEN')).toBe('bad_payload');
    expect(await code('DOWN')).toBe('unavailable');
    const closed = createYahooProvider({ baseUrl: 'http://127.0.0.1:9', ratePerSecond: 1000, timeoutMs: 2000 });
    await expect(closed.bars({ symbol: 'AAPL', timeframe: 'daily' })).rejects.toMatchObject({ code: 'unavailable', provider: 'yahoo' });
    expect((await closed.selfCheck()).status).toBe('down');
  });

  it('spells class shares with a dash', async () => {
    await yahoo.bars({ symbol: 'BRK.B', timeframe: 'daily' }).catch(() => undefined);
    expect(replay.requests.at(-1)).toStartWith('/v8/finance/chart/BRK-B?');
  });
});

describe('yahoo provider: quote and options JSON', () => {
  it('reads a v7 quote into a snapshot', async () => {
    const s = await yahoo.snapshot({ symbol: 'AAPL' });
    expect(s).toMatchObject({ symbol: 'AAPL', price: 170.73, previousClose: 169, dayHigh: 173.7, volume: 76114600, marketOpen: false, source: 'yahoo' });
    expect(s.ts).toBe('2024-03-08T21:00:00.000Z');
    await expect(yahoo.snapshot({ symbol: 'NOPE' })).rejects.toMatchObject({ code: 'unknown_symbol' });
    expect((await createYahooProvider({ baseUrl: replay.baseUrl }).selfCheck()).status).toBe('down'); // no SPY quote in the replay
  });

  it('reads every expiry of the SPY chain (one request per expiry) and one expiry on request', async () => {
    const before = replay.requests.length;
    const chain = await yahoo.optionChain('SPY');
    expect(chain.expiries).toHaveLength(30);
    expect(chain.contracts).toHaveLength(replay.spy.length); // 7,011
    expect(replay.requests.length - before).toBe(30); // the first page carries the nearest expiry
    expect(chain.underlyingPrice).toBe(645.16);
    const c = chain.contracts.find((x) => x.contractSymbol === 'SPY250826C00540000')!;
    expect(c).toMatchObject({ type: 'call', strike: 540, expiry: '2025-08-26', bid: 104.27, ask: 106.98, volume: 4, openInterest: 3 });
    expect(c.impliedVolatility!).toBeCloseTo(1.71094, 5);
    // Cached: no further request.
    await yahoo.optionChain('SPY');
    expect(replay.requests.length - before).toBe(30);
    const one = await yahoo.optionChain('SPY', { expiry: '2025-12-19' });
    expect(new Set(one.contracts.map((x) => x.expiry))).toEqual(new Set(['2025-12-19']));
    await expect(yahoo.optionChain('NOPE')).rejects.toMatchObject({ code: 'unknown_symbol' });
  });

  it('serves /api/altdata/options-flow from the real AAPL chain', async () => {
    const ctx: TestContext = await createTestContext({ provider: yahoo });
    try {
      const { status, body } = await ctx.json<Static<typeof OptionsFlowResponse>>('/api/altdata/options-flow?symbol=AAPL');
      expect(status).toBe(200);
      const rows = readCsv(sharedData('options', 'aapl_chain_snapshot_20260731_yf.csv'));
      const callOi = rows.filter((r) => r.type === 'call').reduce((a, r) => a + Number(r.openInterest || 0), 0);
      expect(body.flow).toMatchObject({ source: 'yahoo', underlyingPrice: 308.9100036621094, expiries: ['2026-08-28'], contracts: rows.length });
      expect(body.flow.totals.callOpenInterest).toBe(callOi);
      const missing = await ctx.request('/api/insider?symbol=AAPL');
      expect(missing.status).toBe(404); // Yahoo has no insider data
      expect((await errorBody(missing)).error).toContain('Not available in this deployment');
    } finally {
      await ctx.close();
    }
  });
});
