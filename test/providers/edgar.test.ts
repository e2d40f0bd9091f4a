/**
 * The SEC EDGAR source against a loopback server that answers like EDGAR:
 * company_tickers.json, submissions JSON, Form 4 ownership XML and company
 * facts. The Form 4 documents are written from the real parsed Form 4 lines of
 * TSLA and AAPL (2025–2026; the committed excerpt in test/fixtures/insider_form4),
 * one document per owner and filing date, so the adapter must give those lines back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Static } from 'elysia';
import { readFileSync } from 'node:fs';
import type { FilingsPage, InsiderResponse } from '../../src/modules/altdata/model';
import type { FloatResponse } from '../../src/modules/fundamentals/model';
import { composeProvider } from '../../src/providers/compose';
import { createEdgarSource, type EdgarSource } from '../../src/providers/edgar';
import { parseForm4 } from '../../src/providers/edgar/parse';
import { RateLimiter } from '../../src/providers/http';
import { parseCsvLine } from '../../src/providers/universe';
import { ProviderError } from '../../src/providers/types';
import { createTestContext, errorBody, syntheticMarket, type TestContext } from '../helpers/app';
import { fixture } from '../helpers/fixtures';

const UA = 'Breakline tests ops@example.com';
const CIKS: Record<string, number> = { TSLA: 1318605, AAPL: 320193 };

interface Line {
  ticker: string;
  owner: string;
  title: string;
  director: boolean;
  officer: boolean;
  date: string;
  shares: number;
  price: number | null;
  ad: 'A' | 'D';
  code: string;
  filed: string;
}

const lines: Line[] = readFileSync(fixture('insider_form4', 'tsla_aapl_form4_2025-2026.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map(parseCsvLine)
  .filter((c) => c[0] === 'TSLA' || c[0] === 'AAPL')
  .map((c) => ({
    ticker: c[0]!,
    owner: c[1]!,
    title: c[2]!,
    director: c[3] === 'True',
    officer: c[4] === 'True',
    date: c[5]!.slice(0, 10),
    shares: Number(c[6]),
    price: c[7] === '' ? null : Number(c[7]),
    ad: c[8] as 'A' | 'D',
    code: c[9]!,
    filed: c[10]!,
  }));

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const v = (x: string | number) => `<value>${esc(String(x))}</value>`;

/** One Form 4 ownership document (schema X0508) holding `group`'s lines. */
function form4Xml(group: Line[], flagStyle: '1' | 'true'): string {
  const first = group[0]!;
  const yes = flagStyle === '1' ? '1' : 'true';
  const no = flagStyle === '1' ? '0' : 'false';
  const rows = group
    .map(
      (l) => `
    <nonDerivativeTransaction>
      <securityTitle>${v('Common Stock')}</securityTitle>
      <transactionDate>${v(l.date)}</transactionDate>
      <transactionCoding><transactionFormType>4</transactionFormType><transactionCode>${l.code}</transactionCode><equitySwapInvolved>0</equitySwapInvolved></transactionCoding>
      <transactionAmounts>
        <transactionShares>${v(l.shares)}</transactionShares>
        <transactionPricePerShare>${l.price === null ? '<footnoteId id="F1"/>' : v(l.price)}</transactionPricePerShare>
        <transactionAcquiredDisposedCode>${v(l.ad)}</transactionAcquiredDisposedCode>
      </transactionAmounts>
      <postTransactionAmounts><sharesOwnedFollowingTransaction>${v(1_000_000)}</sharesOwnedFollowingTransaction></postTransactionAmounts>
      <ownershipNature><directOrIndirectOwnership>${v('D')}</directOrIndirectOwnership></ownershipNature>
    </nonDerivativeTransaction>`,
    )
    .join('');
  return `<?xml version="1.0"?>
<ownershipDocument>
  <schemaVersion>X0508</schemaVersion>
  <documentType>4</documentType>
  <periodOfReport>${first.date}</periodOfReport>
  <issuer><issuerCik>${String(CIKS[first.ticker]).padStart(10, '0')}</issuerCik><issuerName>${first.ticker} Inc</issuerName><issuerTradingSymbol>${first.ticker}</issuerTradingSymbol></issuer>
  <reportingOwner>
    <reportingOwnerId><rptOwnerCik>0000000001</rptOwnerCik><rptOwnerName>${esc(first.owner)}</rptOwnerName></reportingOwnerId>
    <reportingOwnerRelationship><isDirector>${first.director ? yes : no}</isDirector><isOfficer>${first.officer ? yes : no}</isOfficer><isTenPercentOwner>${no}</isTenPercentOwner><isOther>${no}</isOther>${first.title ? `<officerTitle>${esc(first.title)}</officerTitle>` : ''}</reportingOwnerRelationship>
  </reportingOwner>
  <nonDerivativeTable>${rows}
  </nonDerivativeTable>
  <derivativeTable><derivativeTransaction><securityTitle>${v('Stock Option')}</securityTitle></derivativeTransaction></derivativeTable>
  <footnotes><footnote id="F1">Exercise price not applicable.</footnote></footnotes>
</ownershipDocument>`;
}

function replayServer() {
  const documents = new Map<string, string>();
  const recent: Record<string, Record<string, string[]>> = {};
  for (const ticker of Object.keys(CIKS)) {
    const groups = new Map<string, Line[]>();
    for (const l of lines.filter((x) => x.ticker === ticker)) {
      const key = `${l.filed}|${l.owner}`;
      groups.set(key, [...(groups.get(key) ?? []), l]);
    }
    const r: Record<string, string[]> = { accessionNumber: [], filingDate: [], reportDate: [], form: [], primaryDocument: [], primaryDocDescription: [] };
    let n = 0;
    const add = (form: string, filed: string, doc: string, description: string) => {
      const accession = `${String(CIKS[ticker]).padStart(10, '0')}-${filed.slice(2, 4)}-${String(++n).padStart(6, '0')}`;
      r.accessionNumber!.push(accession);
      r.filingDate!.push(filed);
      r.reportDate!.push(filed);
      r.form!.push(form);
      r.primaryDocument!.push(doc);
      r.primaryDocDescription!.push(description);
      return accession;
    };
    for (const [key, group] of [...groups].sort((a, b) => b[0].localeCompare(a[0]))) {
      const accession = add('4', key.slice(0, 10), `xslF345X05/wk-form4_${n + 1}.xml`, 'FORM 4');
      documents.set(`/Archives/edgar/data/${CIKS[ticker]}/${accession.replaceAll('-', '')}/wk-form4_${n}.xml`, form4Xml(group, n % 2 ? '1' : 'true'));
    }
    add('10-Q', '2026-04-30', `${ticker.toLowerCase()}-20260331.htm`, '10-Q');
    add('8-K', '2026-05-01', `${ticker.toLowerCase()}-8k.htm`, 'Current report');
    recent[ticker] = r;
  }
  const requests: { path: string; userAgent: string | null }[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const path = new URL(request.url).pathname;
      const userAgent = request.headers.get('user-agent');
      requests.push({ path, userAgent });
      if (!userAgent || !userAgent.includes('@')) return new Response('Undeclared Automated Tool', { status: 403 });
      if (path === '/files/company_tickers.json') {
        return Response.json({
          0: { cik_str: 320193, ticker: 'AAPL', title: 'Apple Inc.' },
          1: { cik_str: 1318605, ticker: 'TSLA', title: 'Tesla, Inc.' },
          2: { cik_str: 1067983, ticker: 'BRK-B', title: 'BERKSHIRE HATHAWAY INC' },
        });
      }
      const sub = /^\/submissions\/CIK(\d{10})\.json$/.exec(path);
      if (sub) {
        const ticker = Object.keys(CIKS).find((t) => CIKS[t] === Number(sub[1]));
        if (!ticker) return new Response('not found', { status: 404 });
        return Response.json({ cik: String(CIKS[ticker]), name: ticker, tickers: [ticker], filings: { recent: recent[ticker], files: [] } });
      }
      const facts = /^\/api\/xbrl\/companyfacts\/CIK(\d{10})\.json$/.exec(path);
      if (facts && Number(facts[1]) === CIKS.TSLA) {
        return Response.json({
          cik: CIKS.TSLA,
          entityName: 'Tesla, Inc.',
          facts: {
            dei: {
              EntityCommonStockSharesOutstanding: {
                label: 'Entity Common Stock, Shares Outstanding',
                units: {
                  shares: [
                    { end: '2026-01-20', val: 3_216_000_000, accn: 'a', fy: 2025, fp: 'FY', form: '10-K', filed: '2026-01-29' },
                    { end: '2026-04-17', val: 3_221_000_000, accn: 'b', fy: 2026, fp: 'Q1', form: '10-Q', filed: '2026-04-23' },
                    { end: '2025-10-15', val: 3_210_000_000, accn: 'c', fy: 2025, fp: 'Q3', form: '10-Q', filed: '2025-10-23' },
                  ],
                },
              },
            },
          },
        });
      }
      const doc = documents.get(path);
      if (doc) return new Response(doc, { headers: { 'content-type': 'text/xml' } });
      return new Response('not found', { status: 404 });
    },
  });
  return { server, requests, url: `http://127.0.0.1:${server.port}` };
}

let replay: ReturnType<typeof replayServer>;
let edgar: EdgarSource;
beforeAll(() => {
  replay = replayServer();
  edgar = createEdgarSource({ userAgent: UA, baseUrl: replay.url, dataUrl: replay.url, ratePerSecond: 10 });
});
afterAll(() => replay.server.stop(true));

describe('EDGAR Form 4 → insider transactions', () => {
  it("gives back TSLA's real Form 4 lines of September 2025, Musk's ~$1B open-market purchase among them", async () => {
    const got = await edgar.insiderTransactions('TSLA', { from: '2025-09-01', to: '2025-09-30' });
    const expected = lines.filter((l) => l.ticker === 'TSLA' && l.date >= '2025-09-01' && l.date <= '2025-09-30');
    expect(got.length).toBe(expected.length);
    const musk = got.filter((t) => t.insider === 'Musk Elon' && t.code === 'P');
    const shares = musk.reduce((a, t) => a + t.shares, 0);
    const value = musk.reduce((a, t) => a + t.value!, 0);
    expect(shares).toBe(expected.filter((l) => l.owner === 'Musk Elon' && l.code === 'P').reduce((a, l) => a + l.shares, 0));
    expect(value).toBeGreaterThan(0.9e9);
    expect(value).toBeLessThan(1.1e9);
    expect(musk[0]).toMatchObject({ symbol: 'TSLA', role: 'CEO, Director', isDirector: true, isOfficer: true, acquiredDisposed: 'A', transactionDate: '2025-09-12', filingDate: '2025-09-15', source: 'edgar' });
    expect(musk[0]!.filingUrl).toMatch(/\/Archives\/edgar\/data\/1318605\/\d{18}\/xslF345X05\/wk-form4_\d+\.xml$/);
    // newest first
    for (let i = 1; i < got.length; i++) expect(got[i - 1]!.transactionDate >= got[i]!.transactionDate).toBe(true);
  });

  it('reads lines without a price (a footnote instead) as price null, value null', async () => {
    const got = await edgar.insiderTransactions('AAPL', { from: '2026-03-01', to: '2026-04-30' });
    const exercise = got.find((t) => t.insider === 'Newstead Jennifer' && t.code === 'M')!;
    expect(exercise).toMatchObject({ shares: 60208, price: null, value: null, role: 'SVP, GC and Secretary', isDirector: false });
    const withheld = got.find((t) => t.insider === 'Newstead Jennifer' && t.code === 'F')!;
    expect(withheld.value!).toBeCloseTo(32528 * 250.12, 6);
  });

  it('sends the User-Agent on every request and reads each Form 4 once', async () => {
    expect(replay.requests.length).toBeGreaterThan(0);
    expect(replay.requests.every((r) => r.userAgent === UA)).toBe(true);
    const before = replay.requests.length;
    await edgar.insiderTransactions('TSLA', { from: '2025-09-01', to: '2025-09-30' });
    expect(replay.requests.length).toBe(before); // submissions and documents cached
  });

  it('refuses to run without a User-Agent, and maps unknown tickers to unknown_symbol', async () => {
    const anonymous = createEdgarSource({ userAgent: '  ', baseUrl: replay.url, dataUrl: replay.url });
    await expect(anonymous.filings('AAPL', { limit: 5 })).rejects.toMatchObject({ code: 'missing_credential', provider: 'edgar' });
    await expect(edgar.filings('ZZZZ', { limit: 5 })).rejects.toMatchObject({ code: 'unknown_symbol' });
    await expect(edgar.float('BRK.B')).rejects.toBeInstanceOf(ProviderError); // in the ticker map (BRK-B), no facts here → 404 upstream
  });

  it('parses a document with several reporting owners and skips derivative lines', () => {
    const doc = `<ownershipDocument><reportingOwner><reportingOwnerId><rptOwnerName>Fund A</rptOwnerName></reportingOwnerId><reportingOwnerRelationship><isTenPercentOwner>1</isTenPercentOwner></reportingOwnerRelationship></reportingOwner><reportingOwner><reportingOwnerId><rptOwnerName>Fund B</rptOwnerName></reportingOwnerId><reportingOwnerRelationship><isDirector>1</isDirector></reportingOwnerRelationship></reportingOwner><nonDerivativeTable><nonDerivativeTransaction><transactionDate><value>2026-01-05</value></transactionDate><transactionCoding><transactionCode>P</transactionCode></transactionCoding><transactionAmounts><transactionShares><value>1,000</value></transactionShares><transactionPricePerShare><value>10.5</value></transactionPricePerShare><transactionAcquiredDisposedCode><value>A</value></transactionAcquiredDisposedCode></transactionAmounts></nonDerivativeTransaction></nonDerivativeTable><derivativeTable><derivativeTransaction/></derivativeTable></ownershipDocument>`;
    const [t, ...rest] = parseForm4(doc, { symbol: 'X', filingDate: '2026-01-06', filingUrl: 'u' });
    expect(rest).toEqual([]);
    expect(t).toMatchObject({ insider: 'Fund A; Fund B', role: '10% Owner, Director', isDirector: true, isOfficer: false, shares: 1000, value: 10500, sharesOwnedAfter: null });
    expect(() => parseForm4('<html>not a filing', { symbol: 'X', filingDate: '', filingUrl: '' })).toThrow(ProviderError);
  });
});

describe('EDGAR submissions and company facts', () => {
  it('lists recent filings newest first with archive links', async () => {
    const filings = await edgar.filings('TSLA', { limit: 3 });
    expect(filings).toHaveLength(3);
    expect(filings[0]!.filedAt >= filings[1]!.filedAt).toBe(true);
    const quarterly = (await edgar.filings('TSLA', { limit: 500 })).find((f) => f.form === '10-Q')!;
    expect(quarterly).toMatchObject({ filedAt: '2026-04-30', title: '10-Q', source: 'edgar' });
    expect(quarterly.url).toMatch(/\/Archives\/edgar\/data\/1318605\/\d{18}\/tsla-20260331\.htm$/);
  });

  it('takes shares outstanding from the latest cover page', async () => {
    expect(await edgar.float('TSLA')).toEqual({ symbol: 'TSLA', sharesOutstanding: 3_221_000_000, freeFloat: null, asOf: '2026-04-17', source: 'edgar', estimated: false });
  });
});

describe('EDGAR through the app (composed with the synthetic market)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ provider: composeProvider(syntheticMarket(), [edgar]) });
  });
  afterAll(() => ctx.close());

  it('/api/altdata/insider and /api/filings come from EDGAR and say so', async () => {
    const insider = (await ctx.json<Static<typeof InsiderResponse>>('/api/altdata/insider?symbol=TSLA&windowDays=730')).body;
    expect(insider.source).toBe('edgar');
    // Every line served is a real TSLA line of the window (the newest 40 Form 4s are read).
    const real = new Set(lines.filter((l) => l.ticker === 'TSLA' && l.date >= insider.from && l.date <= insider.to).map((l) => `${l.owner}|${l.date}|${l.shares}`));
    expect(insider.transactions.length).toBeGreaterThan(20);
    for (const t of insider.transactions) expect(real.has(`${t.insider}|${t.date}|${t.shares}`)).toBe(true);
    const filings = await ctx.json<Static<typeof FilingsPage>>('/api/filings/TSLA');
    expect(filings.status).toBe(200);
    expect(filings.body.items[0]!.source).toBe('edgar');
    const flt = (await ctx.json<FloatResponse>('/api/float?symbol=TSLA')).body;
    expect(flt.float).toMatchObject({ shareOutstanding: 3_221_000_000, freeFloat: null, source: 'edgar' });
    const unknown = await ctx.request('/api/filings/ZZZZ');
    expect(unknown.status).toBe(404);
    expect((await errorBody(unknown)).code).toBe('not_found');
  });
});

describe('rate limiter', () => {
  it('spaces request starts 1000/rate ms apart, in arrival order (EDGAR: 10/s)', async () => {
    let now = 0;
    const slept: number[] = [];
    const limiter = new RateLimiter(10, () => now, async (ms) => void slept.push(ms));
    const starts = await Promise.all(Array.from({ length: 25 }, () => limiter.acquire()));
    expect(starts).toEqual(Array.from({ length: 25 }, (_, i) => i * 100));
    // 25 requests need 2.4 s: never more than 10 starts in any second.
    for (const t of starts) expect(starts.filter((s) => s >= t && s < t + 1000).length).toBeLessThanOrEqual(10);
    now = 5000; // idle: no wait
    expect(await limiter.acquire()).toBe(5000);
    expect(slept.length).toBe(24);
  });

  it('EDGAR never goes above 10/s, whatever is configured', () => {
    expect(createEdgarSource({ userAgent: UA, ratePerSecond: 50 }).ratePerSecond).toBe(10);
  });
});
