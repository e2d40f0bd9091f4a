/**
 * FINRA short-interest files: the settlement calendar and the parser of
 * `shrtYYYYMMDD.csv` in FINRA's pipe-delimited layout (hand-written rows in the
 * documented columns). The adapter against a loopback server replaying the real
 * 2026-05-15 file is in the real-data run: test/real/providers/finra.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { parseShortInterestFile, settlementDates } from '../../src/providers/finra';

const HEADER = 'accountingYearMonthNumber|symbolCode|issueName|issuerServicesGroupExchangeCode|marketClassCode|currentShortPositionQuantity|previousShortPositionQuantity|stockSplitFlag|averageDailyVolumeQuantity|daysToCoverQuantity|revisionFlag|changePercent|changePreviousNumber|settlementDate';

describe('FINRA settlement dates', () => {
  it('are the 15th and month-end, or the business day before', () => {
    expect(settlementDates('2026-06-13', 6)).toEqual(['2026-05-29', '2026-05-15', '2026-04-30', '2026-04-15', '2026-03-31', '2026-03-13']);
    expect(settlementDates('2026-03-02', 2)).toEqual(['2026-02-27', '2026-02-13']);
  });
});

describe('FINRA short-interest files', () => {
  it('parse the documented columns, both date spellings and class-share slashes', () => {
    const rows = parseShortInterestFile(`${HEADER}\n20260430|BRK/B|x|A|N|9100200|9400300| |3900100|2.33| |-3.19|-300100|20260430\n`, '2026-04-30');
    expect(rows.get('BRK.B')).toEqual({ symbol: 'BRK.B', settlementDate: '2026-04-30', sharesShort: 9100200, previousSharesShort: 9400300, avgDailyVolume: 3900100, daysToCover: 2.33, source: 'finra' });
    expect(() => parseShortInterestFile('<html>', '2026-04-30')).toThrow();
  });
});
