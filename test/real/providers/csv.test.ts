/**
 * The `csv` provider against real history in shared/data (read in place, never
 * copied into the repository). Expected numbers come from the files themselves
 * and from the spot checks and row counts in shared/data/SOURCES.md and
 * MANIFEST.csv. Layouts and faults written to a temporary directory are in
 * csv-formats.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { createCsvProvider, parseOhlcvCsv } from '../../../src/providers/csv';
import { ProviderError, type BarSeries } from '../../../src/providers/types';
import { sharedData } from '../../helpers/shared-data';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const isoDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);
/** The bar of a session, or undefined. */
function barOn(series: BarSeries, iso: string) {
  const i = series.ts.indexOf(day(iso));
  return i < 0 ? undefined : { open: series.open[i]!, high: series.high[i]!, low: series.low[i]!, close: series.close[i]!, volume: series.volume[i]! };
}
function expectStrictlyAscending(ts: Float64Array) {
  for (let i = 1; i < ts.length; i++) if (!(ts[i]! > ts[i - 1]!)) throw new Error(`ts not ascending at ${i}: ${isoDay(ts[i]!)}`);
}

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

describe('csv provider on daily_marketlab (lower-case headers, gzip, BRK_B)', () => {
  const provider = createCsvProvider({ dir: sharedData('daily_marketlab') });

  it('reads AAPL.csv.gz whole: 11,515 sessions 1980-12-12..2026-08-21 (MANIFEST.csv)', async () => {
    const aapl = await provider.bars({ symbol: 'AAPL', timeframe: 'daily' });
    expect(aapl.ts.length).toBe(11_515);
    expect(isoDay(aapl.ts[0]!)).toBe('1980-12-12');
    expect(isoDay(aapl.ts.at(-1)!)).toBe('2026-08-21');
    expect(aapl.source).toBe('csv');
    expectStrictlyAscending(aapl.ts);
  });

  it('matches the adjusted 2023-06-30 closes SOURCES.md quotes: AAPL 191.29, SPY 428.16', async () => {
    const aapl = await provider.bars({ symbol: 'AAPL', timeframe: 'daily' });
    const spy = await provider.bars({ symbol: 'SPY', timeframe: 'daily' });
    expect(barOn(aapl, '2023-06-30')!.close).toBeCloseTo(191.29, 2);
    expect(barOn(spy, '2023-06-30')!.close).toBeCloseTo(428.16, 2);
    expect(barOn(spy, '2023-06-30')!.volume).toBe(104_964_000);
  });

  it('names BRK_B.csv.gz BRK.B and fills name and sector from the instrument list', async () => {
    const universe = await provider.universe();
    expect(universe.length).toBe(124);
    expect(universe.find((i) => i.symbol === 'BRK.B')).toMatchObject({ name: 'Berkshire Hathaway', sector: 'Financials', kind: 'stock' });
    expect(universe.find((i) => i.symbol === 'GSPC')).toEqual({ symbol: 'GSPC', name: 'GSPC', sector: null, kind: 'stock', indices: [] });
    const brk = await provider.bars({ symbol: 'BRK.B', timeframe: 'daily' });
    expect(brk.ts.length).toBe(7_620);
    expect(barOn(brk, '2026-08-21')!.close).toBe(495.82000732421875);
  });

  it('bounds bars inclusively by from/to and never returns a bar after to', async () => {
    const june = await provider.bars({ symbol: 'SPY', timeframe: 'daily', from: day('2023-06-01'), to: day('2023-06-30') });
    expect(june.ts.length).toBe(21); // June 2023 had 21 NYSE sessions (Juneteenth closed)
    expect(isoDay(june.ts[0]!)).toBe('2023-06-01');
    expect(isoDay(june.ts.at(-1)!)).toBe('2023-06-30');
    const weekend = await provider.bars({ symbol: 'SPY', timeframe: 'daily', to: day('2023-07-02') + 12 * 3_600_000 });
    expect(isoDay(weekend.ts.at(-1)!)).toBe('2023-06-30');
    const point = await provider.bars({ symbol: 'SPY', timeframe: 'daily', to: day('2023-06-30') - 1 });
    expect(isoDay(point.ts.at(-1)!)).toBe('2023-06-29');
    const none = await provider.bars({ symbol: 'SPY', timeframe: 'daily', from: day('2030-01-01') });
    expect(none.ts.length).toBe(0);
  });

  it('parses a file once and serves later reads from the cache', async () => {
    const a = await provider.bars({ symbol: 'QQQ', timeframe: 'daily' });
    const b = await provider.bars({ symbol: 'QQQ', timeframe: 'daily', from: day('2020-01-01') });
    expect(b.close.buffer).toBe(a.close.buffer);
  });

  it('answers an empty series for a timeframe it has no file for', async () => {
    const hourly = await provider.bars({ symbol: 'AAPL', timeframe: '1h' });
    expect(hourly.ts.length).toBe(0);
  });

  it('throws unknown_symbol naming the provider and the symbol', async () => {
    const error = await providerError(provider.bars({ symbol: 'ZZZZ', timeframe: 'daily' }));
    expect(error.code).toBe('unknown_symbol');
    expect(error.provider).toBe('csv');
    expect(error.symbol).toBe('ZZZZ');
    expect(error.message).toContain('csv (ZZZZ)');
  });

  it('snapshots the last bar at or before `at` against the previous close', async () => {
    const snap = await provider.snapshot({ symbol: 'SPY', at: day('2023-06-30') + 20 * 3_600_000 });
    expect(snap.price).toBe(428.155517578125);
    expect(snap.previousClose).toBe(423.1618957519531); // the 2023-06-29 row
    expect(snap.change).toBeCloseTo(428.155517578125 - 423.1618957519531, 10);
    expect(snap.changePercent).toBeCloseTo(1.18007, 4);
    expect(snap).toMatchObject({ ts: '2023-06-30T00:00:00.000Z', marketOpen: false, source: 'csv', volume: 104_964_000 });
    expect((await provider.snapshot({ symbol: 'SPY' })).ts).toBe('2026-08-21T00:00:00.000Z');
  });

  it('self-checks SPY as ok', async () => {
    expect(provider.testSymbol).toBe('SPY');
    expect(await provider.selfCheck()).toMatchObject({ status: 'ok', provider: 'csv', symbol: 'SPY' });
  });
});

describe('csv provider on daily_yf_dieperdev (Adj Close, plain and gzip, no trailing newline)', () => {
  const provider = createCsvProvider({ dir: sharedData('daily_yf_dieperdev') });

  it('keeps the unadjusted Close, not Adj Close: SOURCES.md 2023-06-30 spot checks', async () => {
    const aapl = await provider.bars({ symbol: 'AAPL', timeframe: 'daily' });
    // the file row: 2023-06-30,191.630005,194.479996,191.259995,193.970001,193.207031,85069600
    expect(barOn(aapl, '2023-06-30')).toEqual({ open: 191.630005, high: 194.479996, low: 191.259995, close: 193.970001, volume: 85_069_600 });
    expect(barOn(await provider.bars({ symbol: 'MSFT', timeframe: 'daily' }), '2023-06-30')!.close).toBeCloseTo(340.54, 2);
    expect(barOn(await provider.bars({ symbol: 'NVDA', timeframe: 'daily' }), '2023-06-30')!.close).toBeCloseTo(423.02, 2);
  });

  it('reads the last line although the file ends without a newline', async () => {
    const msft = await provider.bars({ symbol: 'MSFT', timeframe: 'daily' });
    expect(isoDay(msft.ts.at(-1)!)).toBe('2024-03-08');
    expect(msft.close.at(-1)).toBe(406.220001);
    expect(msft.volume.at(-1)).toBe(17_971_700);
  });

  it('reads the AAPL history in full: 6,084 sessions 2000-01-03..2024-03-08 (MANIFEST.csv)', async () => {
    const aapl = await provider.bars({ symbol: 'AAPL', timeframe: 'daily' });
    expect(aapl.ts.length).toBe(6_084);
    expect(isoDay(aapl.ts[0]!)).toBe('2000-01-03');
    expectStrictlyAscending(aapl.ts);
  });

  it('lists 499 symbols and picks the first as test symbol when there is no SPY', async () => {
    expect((await provider.universe()).length).toBe(499);
    expect(provider.testSymbol).toBe('A');
  });
});

describe('csv provider on daily_etf_recent_av (newest-first timestamp column)', () => {
  const provider = createCsvProvider({ dir: sharedData('daily_etf_recent_av') });

  it('reverses the newest-first rows: 100 sessions 2026-03-31..2026-08-21', async () => {
    const spy = await provider.bars({ symbol: 'SPY', timeframe: 'daily' });
    expect(spy.ts.length).toBe(100);
    expectStrictlyAscending(spy.ts);
    expect(isoDay(spy.ts[0]!)).toBe('2026-03-31');
    expect(isoDay(spy.ts.at(-1)!)).toBe('2026-08-21');
    expect(spy.close.at(-1)).toBe(765.62);
    expect(barOn(spy, '2026-08-20')).toEqual({ open: 765.96, high: 768.15, low: 762.04, close: 762.6, volume: 45_520_302 });
  });

  it('ignores the JSON file beside the CSVs', async () => {
    expect((await provider.universe()).map((i) => i.symbol)).toHaveLength(20);
  });
});

describe('csv provider on daily_sector_etfs_merlin (tz-aware dates, extra columns)', () => {
  const provider = createCsvProvider({ dir: sharedData('daily_sector_etfs_merlin') });

  it('dates each bar by its New York session, not the UTC instant of midnight ET', async () => {
    const xlk = await provider.bars({ symbol: 'XLK', timeframe: 'daily' });
    expect(xlk.ts.length).toBe(6_823);
    expect(xlk.ts[0]).toBe(day('1998-12-22'));
    expect(isoDay(xlk.ts.at(-1)!)).toBe('2026-02-06');
    expect(xlk.close.at(-1)).toBe(141.1300048828125);
  });

  it('ignores Dividends, Stock Splits, Capital Gains and ticker (XLK split day 2025-12-05)', async () => {
    const xlk = await provider.bars({ symbol: 'XLK', timeframe: 'daily' });
    expect(barOn(xlk, '2025-12-05')).toEqual({
      open: 145.9885667414107,
      high: 147.0868916130084,
      low: 145.46935003290903,
      close: 146.3779754638672,
      volume: 6_628_000,
    });
  });

  it('knows the sector funds from the instrument list', async () => {
    const universe = await provider.universe();
    expect(universe.find((i) => i.symbol === 'XLK')).toMatchObject({ kind: 'etf', sector: 'Information Technology' });
  });
});

/** A plain reference parser for ISO-dated, ascending, well-formed files: split and Number(), nothing clever. */
function referenceParse(text: string) {
  const [head, ...rows] = text.trim().split('\n');
  const names = head!.split(',').map((n) => n.trim().toLowerCase());
  const at = (name: string) => names.indexOf(name);
  const dateAt = names.findIndex((n) => n === 'date' || n === 'timestamp');
  const cells = rows.map((r) => r.split(','));
  const col = (name: string) => cells.map((c) => Number(c[at(name)]));
  return { ts: cells.map((c) => Date.parse(`${c[dateAt]!.slice(0, 10)}T00:00:00Z`)), open: col('open'), high: col('high'), low: col('low'), close: col('close'), volume: col('volume') };
}

describe('parseOhlcvCsv against a plain reference parser', () => {
  for (const file of ['daily_marketlab/SPY.csv', 'daily_yf_dieperdev/AAPL.csv', 'daily_sector_etfs_merlin/XLE.csv']) {
    it(`agrees value for value on ${file}`, async () => {
      const text = await Bun.file(sharedData(file)).text();
      const fast = parseOhlcvCsv(text, { daily: true });
      const slow = referenceParse(text);
      for (const key of ['ts', 'open', 'high', 'low', 'close', 'volume'] as const) expect([...fast[key]]).toEqual(slow[key]);
    });
  }
});
