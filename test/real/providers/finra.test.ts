/**
 * The FINRA short-interest source against a loopback server serving
 * `shrtYYYYMMDD.csv` files in FINRA's pipe-delimited layout. The 2026-05-15
 * file is written from the real FINRA positions in shared/data
 * (finra_short_interest_shares_latest.parquet: 13,626 symbols settled that day):
 * the real-data run (the snapshot carries no licence that lets the repository
 * hold it). The file parser and settlement dates are in test/providers/finra.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { daysToCoverFromBars } from '../../../src/modules/altdata/short-interest';
import { composeProvider } from '../../../src/providers/compose';
import { createCsvProvider } from '../../../src/providers/csv';
import { createFinraSource } from '../../../src/providers/finra';
import { createTestContext, type TestContext } from '../../helpers/app';
import { sharedData } from '../../helpers/shared-data';

const HEADER = 'accountingYearMonthNumber|symbolCode|issueName|issuerServicesGroupExchangeCode|marketClassCode|currentShortPositionQuantity|previousShortPositionQuantity|stockSplitFlag|averageDailyVolumeQuantity|daysToCoverQuantity|revisionFlag|changePercent|changePreviousNumber|settlementDate';

let real: Map<string, number>;
let server: ReturnType<typeof Bun.serve>;
let base = '';
const asked: string[] = [];

beforeAll(async () => {
  const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(sharedData('short_interest_float', 'finra_short_interest_shares_latest.parquet')) })) as { ticker: string; date: Date; current: bigint }[];
  real = new Map(rows.filter((r) => r.date.toISOString().startsWith('2026-05-15')).map((r) => [r.ticker, Number(r.current)]));
  // FINRA leaves previous/ADV/days to cover to the file; the sample has positions only, so those cells are blank.
  const may15 = [HEADER, ...[...real].map(([t, q]) => `20260515|${t}|${t} Inc|A|N|${q}||||||||2026-05-15`)].join('\n');
  const apr30 = [
    HEADER,
    '20260430|AAPL|Apple Inc. Common Stock|A|S|131200345|129990001| |49876543|2.63| |0.93|1210344|20260430',
    '20260430|BRK/B|Berkshire Hathaway Inc. Class B|A|N|9100200|9400300| |3900100|2.33| |-3.19|-300100|20260430',
  ].join('\r\n');
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const path = new URL(request.url).pathname;
      asked.push(path);
      if (path === '/equity/otcmarket/biweekly/shrt20260515.csv') return new Response(may15);
      if (path === '/equity/otcmarket/biweekly/shrt20260430.csv') return new Response(apr30);
      if (path === '/equity/otcmarket/biweekly/shrt20260529.csv') return new Response('AccessDenied', { status: 403 }); // not published yet
      return new Response('not found', { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

describe('FINRA short-interest files', () => {
  it('give a symbol its reports of the recent files, oldest first, skipping unpublished dates', async () => {
    const finra = createFinraSource({ baseUrl: base, ratePerSecond: 1000, today: () => '2026-06-13' });
    const aapl = await finra.shortInterest('AAPL');
    expect(aapl.map((r) => r.settlementDate)).toEqual(['2026-04-30', '2026-05-15']);
    expect(aapl[1]).toMatchObject({ sharesShort: 138_782_718, previousSharesShort: null, daysToCover: null, source: 'finra' });
    expect(aapl[0]).toMatchObject({ sharesShort: 131_200_345, previousSharesShort: 129_990_001, daysToCover: 2.63 });
    expect((await finra.shortInterest('NVDA'))[0]!.sharesShort).toBe(real.get('NVDA')!); // 296,966,425
    expect(real.get('NVDA')).toBe(296_966_425);
    await expect(finra.shortInterest('ZZZZZ')).rejects.toMatchObject({ code: 'unknown_symbol', provider: 'finra' });
    // Each published file was fetched once; unpublished dates are asked again later.
    expect(asked.filter((p) => p.endsWith('shrt20260515.csv'))).toHaveLength(1);
  });

  it('without any published file the data is unavailable, not unknown', async () => {
    const finra = createFinraSource({ baseUrl: base, ratePerSecond: 1000, today: () => '2025-01-10' });
    await expect(finra.shortInterest('AAPL')).rejects.toMatchObject({ code: 'unavailable' });
  });
});

describe('FINRA through the app, with real bars (csv provider)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    const finra = createFinraSource({ baseUrl: base, ratePerSecond: 1000, today: () => '2026-06-13' });
    ctx = await createTestContext({ provider: composeProvider(createCsvProvider({ dir: sharedData('daily_marketlab') }), [finra]) });
  });
  afterAll(() => ctx.close());

  it("computes AAPL's days to cover from its average volume: about 2–4 days in May 2026", async () => {
    const { status, body } = await ctx.json('/api/altdata/short-interest?symbol=AAPL');
    expect(status).toBe(200);
    expect(JSON.stringify(body)).toContain('"finra"');
    const { bars } = await ctx.services.marketData.completeDaily('AAPL');
    const expected = daysToCoverFromBars(138_782_718, bars, '2026-05-15')!;
    expect(expected.daysToCover).toBeGreaterThan(1.5);
    expect(expected.daysToCover).toBeLessThan(5);
    expect(JSON.stringify(body)).toContain(`"daysToCover":${expected.daysToCover}`);
  });
});
