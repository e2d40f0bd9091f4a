/**
 * The `csv` provider on the layouts and faults real exports have, each written
 * to a temporary directory: file names, date formats, row order, duplicates,
 * bad rows, missing newlines, index columns, quoting (RFC 4180), gzip, and the
 * files it cannot read.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createCsvProvider, describeFile, parseOhlcvCsv, parseTimestamp, zoneOffsetReader } from '../../src/providers/csv';
import { ProviderError } from '../../src/providers/types';

const root = mkdtempSync(join(tmpdir(), 'breakline-csv-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh directory holding `files` (name → text; `.gz` names are gzipped). */
function directory(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), file.endsWith('.gz') ? gzipSync(text) : text);
  return dir;
}
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const days = (ts: Float64Array) => [...ts].map((t) => new Date(t).toISOString().slice(0, 10));

describe('file names', () => {
  it.each([
    ['AAPL.csv', { symbol: 'AAPL', timeframe: 'daily' }],
    ['AAPL.csv.gz', { symbol: 'AAPL', timeframe: 'daily' }],
    ['BRK_B.csv.gz', { symbol: 'BRK.B', timeframe: 'daily' }],
    ['BF-B.csv', { symbol: 'BF.B', timeframe: 'daily' }],
    ['aapl_1h.csv', { symbol: 'AAPL', timeframe: '1h' }],
    ['SPY_4h.csv.gz', { symbol: 'SPY', timeframe: '4h' }],
    ['BRK_B_1h.csv', { symbol: 'BRK.B', timeframe: '1h' }],
    ['msft_1d.csv', { symbol: 'MSFT', timeframe: 'daily' }],
  ])('%s is %o', (name, expected) => {
    expect(describeFile(name)).toEqual(expected as ReturnType<typeof describeFile>);
  });

  it.each(['SPY_1m.csv.gz', 'XLK_5m.csv', 'SPY_1wk.csv', 'market-data.json', 'README.md', '.AAPL.csv', 'a b.csv'])('skips %s', (name) => {
    expect(describeFile(name)).toBeNull();
  });
});

describe('timestamps', () => {
  const utc = () => 0;
  it.each([
    ['2023-06-30', '2023-06-30T00:00:00.000Z'],
    ['2023-06-30 00:00:00-04:00', '2023-06-30T00:00:00.000Z'],
    ['2023-06-30T23:00:00+09:00', '2023-06-30T00:00:00.000Z'],
    ['6/30/2023', '2023-06-30T00:00:00.000Z'],
    ['2023/06/30', '2023-06-30T00:00:00.000Z'],
    ['20230630', '2023-06-30T00:00:00.000Z'],
  ])('daily %s is the session %s', (text, iso) => {
    expect(new Date(parseTimestamp(text, true, utc)).toISOString()).toBe(iso);
  });

  it.each([
    ['2024-08-02 09:30:00-04:00', '2024-08-02T13:30:00.000Z'],
    ['2024-08-02T13:30:00Z', '2024-08-02T13:30:00.000Z'],
    ['2024-08-02 13:30:00.250', '2024-08-02T13:30:00.250Z'],
    ['1722605400', '2024-08-02T13:30:00.000Z'],
    ['1722605400000', '2024-08-02T13:30:00.000Z'],
  ])('intraday %s is the instant %s', (text, iso) => {
    expect(new Date(parseTimestamp(text, false, utc)).toISOString()).toBe(iso);
  });

  it('reads naive wall times in the configured zone across daylight saving', () => {
    const ny = zoneOffsetReader('America/New_York');
    expect(new Date(parseTimestamp('2024-03-08 09:30:00', false, ny)).toISOString()).toBe('2024-03-08T14:30:00.000Z'); // EST
    expect(new Date(parseTimestamp('2024-03-11 09:30:00', false, ny)).toISOString()).toBe('2024-03-11T13:30:00.000Z'); // EDT
  });

  it.each(['2023-02-30', '2023-13-01', '13/1/2023', 'yesterday', '', '2023-06-30 25:00', '2023-06-30 10:00+5'])('rejects %p', (text) => {
    expect(parseTimestamp(text, true, utc)).toBeNaN();
  });
});

describe('rows', () => {
  const head = 'Date,Open,High,Low,Close,Volume\n';

  it('reverses newest-first files and keeps the last of duplicated dates', () => {
    const bars = parseOhlcvCsv(`${head}2024-01-04,3,3,3,3,30\n2024-01-03,2,2,2,2,20\n2024-01-03,9,9,9,9,90\n2024-01-02,1,1,1,1,10\n`, { daily: true });
    expect(days(bars.ts)).toEqual(['2024-01-02', '2024-01-03', '2024-01-04']);
    expect([...bars.close]).toEqual([1, 9, 3]);
  });

  it('sorts rows in no order and keeps the last of duplicated dates', () => {
    const bars = parseOhlcvCsv(`${head}2024-01-03,2,2,2,2,0\n2024-01-02,1,1,1,1,0\n2024-01-04,3,3,3,3,0\n2024-01-03,5,5,5,5,0`, { daily: true });
    expect(days(bars.ts)).toEqual(['2024-01-02', '2024-01-03', '2024-01-04']);
    expect([...bars.close]).toEqual([1, 5, 3]);
  });

  it('skips rows with missing, non-numeric, zero, negative or infinite prices and unreadable dates', () => {
    const text =
      `${head}2024-01-02,1,1,1,1,10\n2024-01-03,,2,2,2,20\n2024-01-04,null,3,3,3,30\n2024-01-05,4,4,0,4,40\n` +
      `2024-01-08,5,5,5,-5,50\n2024-01-09,6,Infinity,6,6,60\nnot-a-date,7,7,7,7,70\n2024-01-10,8,8,8,8,\n`;
    const bars = parseOhlcvCsv(text, { daily: true });
    expect(days(bars.ts)).toEqual(['2024-01-02', '2024-01-10']);
    expect([...bars.volume]).toEqual([10, 0]); // a blank volume is 0, not a reason to drop the bar
  });

  it('accepts CRLF, quoted cells, a BOM, M/D/YYYY and a missing trailing newline', () => {
    const text = '\uFEFF"Date","Open","High","Low","Close","Adj Close","Volume"\r\n"1/2/2024","1.5","2","1","1.75","1.7","1,000"\r\n1/3/2024,2,3,2,2.5,2.4,2000';
    const bars = parseOhlcvCsv(text, { daily: true });
    expect(days(bars.ts)).toEqual(['2024-01-02', '2024-01-03']);
    expect([...bars.close]).toEqual([1.75, 2.5]);
    expect([...bars.volume]).toEqual([0, 2000]); // "1,000" is not a number in an RFC 4180 cell
  });

  it('ignores a leading pandas index column, and uses an unnamed first column as the date when none is named', () => {
    const indexed = parseOhlcvCsv(',Datetime,Open,High,Low,Close,Volume\n0,2024-01-02 00:00:00,1,1,1,1,5\n', { daily: true });
    expect(days(indexed.ts)).toEqual(['2024-01-02']);
    const unnamed = parseOhlcvCsv(',Open,High,Low,Close\n2024-01-02,1,1,1,1\n', { daily: true });
    expect(days(unnamed.ts)).toEqual(['2024-01-02']);
    expect([...unnamed.volume]).toEqual([0]);
  });

  it('takes the first non-blank of repeated columns (yfinance frames with open and Open)', () => {
    const text = ',Datetime,open,high,low,close,volume,Open,High,Low,Close,Volume\n0,2024-01-02 10:00,1,2,0.5,1.5,10,,,,,\n1,2024-01-02 11:00,,,,,,2,3,1.5,2.5,20\n';
    const bars = parseOhlcvCsv(text, { daily: false });
    expect([...bars.close]).toEqual([1.5, 2.5]);
    expect([...bars.volume]).toEqual([10, 20]);
  });
});

describe('csv provider on a directory it has to make sense of', () => {
  const dir = directory('mixed', {
    'SPY.csv.gz': 'timestamp,open,high,low,close,volume\n2024-01-03,2,2,2,2,200\n2024-01-02,1,1,1,1,100\n',
    'BRK-B.csv': 'Date,Open,High,Low,Close,Volume\n2024-01-02,400,401,399,400.5,7',
    'aapl_1h.csv': 'Datetime,Open,High,Low,Close,Volume\n2024-01-02 09:30:00,1,1,1,1,1\n2024-01-02 10:30:00,2,2,2,2,2\n',
    'SPY_1m.csv': 'Datetime,Open,High,Low,Close,Volume\n2024-01-02 09:30:00,1,1,1,1,1\n',
    'notes.txt': 'not market data',
  });
  const provider = createCsvProvider({ dir, intradayTimeZone: 'America/New_York' });

  it('lists the symbols of the files it can serve', async () => {
    expect((await provider.universe()).map((i) => i.symbol)).toEqual(['AAPL', 'BRK.B', 'SPY']);
  });

  it('reads intraday files by their suffix, naive times in the configured zone', async () => {
    const hourly = await provider.bars({ symbol: 'AAPL', timeframe: '1h' });
    expect([...hourly.ts].map((t) => new Date(t).toISOString())).toEqual(['2024-01-02T14:30:00.000Z', '2024-01-02T15:30:00.000Z']);
    expect((await provider.bars({ symbol: 'AAPL', timeframe: 'daily' })).ts.length).toBe(0);
  });

  it('snapshots from the intraday file when a symbol has no daily one', async () => {
    expect(await provider.snapshot({ symbol: 'AAPL' })).toMatchObject({ price: 2, previousClose: 1, change: 1, changePercent: 100 });
  });

  it('snapshots a single-bar series with no change', async () => {
    expect(await provider.snapshot({ symbol: 'BRK.B' })).toMatchObject({ price: 400.5, previousClose: 400.5, change: 0, changePercent: 0 });
  });

  it('answers unavailable for a snapshot before the first bar', async () => {
    await expect(provider.snapshot({ symbol: 'SPY', at: day('2023-12-29') })).rejects.toMatchObject({ code: 'unavailable', provider: 'csv' });
  });
});

describe('csv provider on files it cannot read', () => {
  const dir = directory('broken', {
    'SPY.csv': 'Date,Open,High,Low,Close,Volume\n',
    'NOCLOSE.csv': 'Date,Open,High,Low,Volume\n2024-01-02,1,1,1,1\n',
    'TRUNC.csv.gz': 'x',
    'EMPTY.csv': '',
    'JUNK.csv': 'Date,Open,High,Low,Close\n2024-01-02,a,b,c,d\n',
  });
  writeFileSync(join(dir, 'TRUNC.csv.gz'), gzipSync('Date,Open,High,Low,Close\n2024-01-02,1,1,1,1\n').subarray(0, 12));
  const provider = createCsvProvider({ dir });

  it.each([
    ['SPY', 'no valid rows'],
    ['NOCLOSE', 'has no close column'],
    ['TRUNC', 'TRUNC.csv.gz'],
    ['EMPTY', 'file is empty'],
    ['JUNK', 'no valid rows (1 rejected of 1)'],
  ])('%s → bad_payload naming the file (%s)', async (symbol, detail) => {
    const error = await provider.bars({ symbol, timeframe: 'daily' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'bad_payload', provider: 'csv', symbol });
    expect((error as Error).message).toContain(join(dir, symbol));
    expect((error as Error).message).toContain(detail);
  });

  it('self-checks down, naming the provider, the directory and the symbol', async () => {
    const check = await provider.selfCheck();
    expect(check).toMatchObject({ status: 'down', provider: 'csv', symbol: 'SPY' });
    expect(check.message).toContain('csv');
    expect(check.message).toContain(dir);
    expect(check.message).toContain('SPY');
  });

  it('self-checks down for a missing or an empty directory', async () => {
    const missing = join(root, 'does-not-exist');
    const gone = await createCsvProvider({ dir: missing }).selfCheck();
    expect(gone).toMatchObject({ status: 'down', provider: 'csv', symbol: 'SPY' });
    expect(gone.message).toContain(missing);
    const empty = directory('empty', {});
    const none = await createCsvProvider({ dir: empty }).selfCheck();
    expect(none.status).toBe('down');
    expect(none.message).toContain(empty);
  });

  it('answers unavailable for bars from a missing directory', async () => {
    const missing = createCsvProvider({ dir: join(root, 'nowhere') });
    await expect(missing.bars({ symbol: 'SPY', timeframe: 'daily' })).rejects.toMatchObject({ code: 'unavailable', provider: 'csv' });
    await expect(missing.universe()).rejects.toMatchObject({ code: 'unavailable' });
  });
});
