/**
 * One grammar for every parameter (issue 12): dates are real calendar days
 * from 1900-01-01 to 2199-12-31, integers and numbers are decimal only, and
 * offsets are bounded — so nothing out of range ever reaches the database.
 * Each request below answered 500 (or was silently misread) before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { isDate, isDecimalInteger, isDecimalNumber } from '../../src/domain/formats';
import { echoed } from '../../src/errors';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';

describe('the parameter grammar', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  /** One test per [path, parameter] case (`it.each(cases)('%s', refused)`, named by its path): 400 invalid_parameter naming it. */
  const refused = async (path: string, parameter: string) => {
    const response = await ctx.request(path);
    expect({ path, status: response.status }).toEqual({ path, status: 400 });
    const body = await errorBody(response);
    expect(body.code).toBe('invalid_parameter');
    expect(body.error).toContain(parameter);
  };

  describe('dates out of the database range are 400, not 500', () => {
    it.each([
      ['/api/breakouts?asOf=0000-01-01', 'asOf'],
      ['/api/breakouts?asOf=0001-01-01', 'asOf'],
      ['/api/transparency/ledger?since=0000-01-01', 'since'],
      ['/api/transparency/ledger?until=0000-01-01', 'until'],
      ['/api/confluence?symbol=AAPL&asOf=1899-12-31', 'asOf'],
      ['/api/forecast?symbol=AAPL&asOf=2200-01-01', 'asOf'],
      ['/api/macro/calendar?from=0000-01-01', 'from'],
      ['/api/transparency/monthly?month=0000-01', 'month'],
    ] as const)('%s', refused);
  });

  describe('impossible dates are 400 on every date parameter', () => {
    it.each([
      ['/api/transparency/ledger?since=2023-02-30', 'since'],
      ['/api/breakouts?asOf=2023-02-30', 'asOf'],
      ['/api/transparency/ledger?since=2026-13-45', 'since'],
      ['/api/macro/calendar?to=2023-02-29', 'to'],
      ['/api/transparency/monthly?month=2026-13', 'month'],
    ] as const)('%s', refused);
    it('accepts a leap day', async () => {
      expect((await ctx.request('/api/transparency/ledger?since=2024-02-29')).status).toBe(200);
    });
  });

  describe('offsets the database cannot take are 400, not 500', () => {
    it.each([
      ['/api/transparency/ledger?offset=1e308', 'offset'],
      ['/api/transparency/ledger?offset=9223372036854775808', 'offset'],
      ['/api/transparency/ledger?offset=99999999999999999999999', 'offset'],
      ['/api/transparency/ledger?offset=2147483648', 'offset'],
      ['/api/breakouts/history?offset=1e308', 'offset'],
      ['/api/earnings?symbol=AAPL&offset=2147483648', 'offset'],
    ] as const)('%s', refused);
  });

  describe('integers and numbers are decimal only', () => {
    it.each([
      ['/api/sector-rotation/v2?limit=0x10', 'limit'],
      ['/api/sector-rotation/v2?limit=1e1', 'limit'],
      ['/api/sector-rotation/v2?limit=%2B5', 'limit'],
      ['/api/sector-rotation/v2?limit=%205', 'limit'],
      ['/api/sector-rotation/v2?limit=', 'limit'],
      ['/api/transparency/ledger?limit=1.0', 'limit'],
      ['/api/confluence?symbol=AAPL&lookback=0b11', 'lookback'],
      ['/api/options/analyze?symbol=AAPL&trigger=0x10&target=120', 'trigger'],
      ['/api/options/analyze?symbol=AAPL&trigger=1e2&target=120', 'trigger'],
      ['/api/options/analyze?symbol=AAPL&trigger=Infinity&target=120', 'trigger'],
      ['/api/options/analyze?symbol=AAPL&trigger=NaN&target=120', 'trigger'],
      ['/api/universe/scan?minAvgVolUsd=-Infinity', 'minAvgVolUsd'],
    ] as const)('%s', refused);
    it('still clamps a decimal page limit to [1, 200] (the spec rule)', async () => {
      const { status, body } = await ctx.json<{ pagination: { limit: number } }>('/api/sector-rotation/v2?limit=100000');
      expect(status).toBe(200);
      expect(body.pagination.limit).toBe(200);
      const low = await ctx.json<{ pagination: { limit: number } }>('/api/sector-rotation/v2?limit=-4');
      expect(low.body.pagination.limit).toBe(1);
    });
    it('reads decimal fractions and leading zeros', async () => {
      expect((await ctx.request('/api/options/analyze?symbol=AAPL&trigger=100.5&target=120&iv=.3')).status).toBe(200);
      const { body } = await ctx.json<{ pagination: { limit: number } }>('/api/sector-rotation/v2?limit=007');
      expect(body.pagination.limit).toBe(7);
    });
  });

  it('treats a forged keyset cursor as the first page (never a query with an invalid key)', async () => {
    for (const key of [['not a date', 'x'], ['0000-01-01T00:00:00.000Z', 'x'], [1e300, 'x'], ['2026-01-01T00:00:00.000Z', 'nul\u0000byte']]) {
      const cursor = Buffer.from(JSON.stringify({ v: 1, o: 'desc', k: key })).toString('base64url');
      const { status, body } = await ctx.json<{ pagination: { offset: number } }>(`/api/breakouts/history?cursor=${cursor}`);
      expect({ key, status }).toEqual({ key, status: 200 });
      expect(body.pagination.offset).toBe(0);
    }
  });

  it('caps how much of an API-Version header the 400 repeats', async () => {
    const response = await ctx.request('/api/health', { headers: { 'API-Version': 'v'.repeat(5000) } });
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.error.length).toBeLessThan(300);
    expect(body.error).toContain('(5000 characters)');
  });

  it('caps how much of an unknown path the 404 repeats', async () => {
    const response = await ctx.request(`/api/${'a'.repeat(5000)}`);
    expect(response.status).toBe(404);
    expect((await errorBody(response)).error.length).toBeLessThan(400);
  });
});

describe('domain/formats', () => {
  it('knows real calendar days, leap years included', () => {
    expect(['2024-02-29', '2000-02-29', '1900-01-01', '0000-02-29', '2199-12-31'].filter(isDate)).toEqual(['2024-02-29', '2000-02-29', '1900-01-01', '0000-02-29', '2199-12-31']);
    expect(['2023-02-29', '1900-02-29', '2026-04-31', '2026-00-10', '2026-1-10', '20260110', ' 2026-01-10'].filter(isDate)).toEqual([]);
  });
  it('reads decimal integers and numbers only', () => {
    expect(['0', '-12', '0042', '9007199254740991'].filter(isDecimalInteger)).toHaveLength(4);
    expect(['0x10', '1e3', '1.0', '+1', ' 1', '', '-', '9007199254740992', 'Infinity', '１'].filter(isDecimalInteger)).toEqual([]);
    expect(['0', '-1.5', '.25', '3', '0.300'].filter(isDecimalNumber)).toHaveLength(5);
    expect(['1e3', '0x10', 'Infinity', 'NaN', '1.', '', '.', '--1', '1,5'].filter(isDecimalNumber)).toEqual([]);
  });
  it('echoes at most 64 characters of input', () => {
    expect(echoed('short')).toBe('short');
    expect(echoed('x'.repeat(5000))).toBe(`${'x'.repeat(64)}… (5000 characters)`);
  });
});
