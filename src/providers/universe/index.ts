/**
 * @module providers/universe
 * The real index membership Breakline scans by default: the S&P 500 and the
 * Nasdaq-100 with GICS sectors, the 11 SPDR sector ETFs and the SPY/QQQ/IWM
 * benchmarks. Source: `instruments.csv` beside this file, built from
 * datasets/s-and-p-500-companies (2026-08-08) and Gary-Strauss/NASDAQ100_Constituents
 * (2026-01-25); GICS sectors of the 14 Nasdaq-100 names outside the S&P 500 were
 * assigned from their published GICS classification.
 *
 * @example
 * const stocks = loadInstruments().filter((i) => i.indices.includes('nasdaq100'));
 */
import type { Instrument } from '../types';
import instrumentsCsv from './instruments.csv' with { type: 'text' };

/** The 11 GICS sectors and the SPDR fund that tracks each. */
export const SECTOR_ETFS: Readonly<Record<string, string>> = {
  'Information Technology': 'XLK',
  Financials: 'XLF',
  'Health Care': 'XLV',
  'Consumer Discretionary': 'XLY',
  'Consumer Staples': 'XLP',
  Energy: 'XLE',
  Industrials: 'XLI',
  Materials: 'XLB',
  Utilities: 'XLU',
  'Real Estate': 'XLRE',
  'Communication Services': 'XLC',
};

/** The broad-market benchmark every relative measure defaults to. */
export const DEFAULT_BENCHMARK = 'SPY';

let cached: Instrument[] | undefined;

/** Parses the committed instrument list once; later calls return the same array. */
export function loadInstruments(): Instrument[] {
  if (cached) return cached;
  const lines = (instrumentsCsv as string).trim().split('\n').slice(1);
  cached = lines.map((line) => {
    const cells = parseCsvLine(line);
    const [symbol = '', name = '', sector = '', kind = 'stock', indices = ''] = cells;
    return {
      symbol,
      name,
      sector: sector === '' ? null : sector,
      kind: kind as Instrument['kind'],
      indices: indices === '' ? [] : indices.split('|'),
    };
  });
  return cached;
}

/** Splits one RFC 4180 line (quoted cells may hold commas and doubled quotes). */
export function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.replace(/\r$/, ''));
  return cells;
}
