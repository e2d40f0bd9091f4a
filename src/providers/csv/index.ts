/**
 * @module providers/csv
 * The `csv` provider (`MARKET_DATA_PROVIDER=csv`, `CSV_DIR=<dir>`): daily and
 * intraday OHLCV history from a directory of per-symbol `.csv` / `.csv.gz`
 * files in the common vendor layouts (Yahoo download, yfinance/pandas,
 * Alpha Vantage, Stooq-style). See `parse.ts` for the columns and rows it
 * accepts, `files.ts` for file names and `timestamps.ts` for date formats.
 *
 * @example
 * const provider = createCsvProvider({ dir: '/data/daily' });
 * const aapl = await provider.bars({ symbol: 'AAPL', timeframe: 'daily', to: Date.UTC(2023, 5, 30) });
 * aapl.close.at(-1); // the 2023-06-30 close as the file has it
 */
import { CsvProvider, type CsvProviderOptions } from './provider';

export { CsvProvider, type CsvProviderOptions } from './provider';
export { describeFile } from './files';
export { CsvFormatError, parseOhlcvCsv } from './parse';
export { parseTimestamp, zoneOffsetReader } from './timestamps';

/** A `csv` provider over `options.dir`; nothing is read until the first call. */
export function createCsvProvider(options: CsvProviderOptions): CsvProvider {
  return new CsvProvider(options);
}
