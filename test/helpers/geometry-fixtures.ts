/**
 * The committed real-bar windows of issue 14's geometry defects
 * (test/fixtures/geometry-defects, SOURCES.md there): daily bars of a few
 * symbols, read through the csv provider, so the default suite needs nothing
 * beside the clone.
 *
 * @example
 * const kr = await fixtureHistory('KR');
 * kr.at('2024-03-08'); // => the index of KR's last fixture bar
 */
import { resolve } from 'node:path';
import { computeIndicators } from '../../src/kernels/indicators';
import { createCsvProvider } from '../../src/providers/csv';
import type { History } from '../kernels/patterns/builders';

/** The fixture directory: one `<SYMBOL>.csv` a series (SPY from daily_marketlab, the stocks from daily_yf_dieperdev). */
export const GEOMETRY_FIXTURES = resolve(import.meta.dir, '../fixtures/geometry-defects');

/** The stock windows (every file but SPY): what each holds is in SOURCES.md. */
export const GEOMETRY_STOCKS = ['AMCR', 'IFF', 'KEY', 'KR', 'SMCI', 'VRSN'] as const;

const provider = createCsvProvider({ dir: GEOMETRY_FIXTURES });

/** A fixture series with its indicators and a date → bar index lookup. */
export async function fixtureHistory(symbol: string): Promise<History> {
  const bars = await provider.bars({ symbol, timeframe: 'daily' });
  const date = (i: number) => new Date(bars.ts[i]!).toISOString().slice(0, 10);
  return {
    symbol,
    bars,
    ind: computeIndicators(bars),
    date,
    at(day) {
      const i = bars.ts.indexOf(Date.parse(`${day}T00:00:00Z`));
      if (i < 0) throw new Error(`${symbol} has no fixture bar dated ${day}`);
      return i;
    },
  };
}
