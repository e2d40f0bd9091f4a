/**
 * @module providers/csv/files
 * Which symbol and timeframe a history file holds, read from its name, and the
 * directory listing built from those names.
 *
 * - `AAPL.csv`, `AAPL.csv.gz`, `aapl.CSV` → `AAPL` daily
 * - `BRK_B.csv.gz`, `BRK-B.csv` → `BRK.B` (share classes: `_` or `-` becomes the
 *   dot the index lists use)
 * - `aapl_1h.csv`, `SPY_60m.csv.gz` → `AAPL`/`SPY` 1h; `_4h`/`_240m` → 4h;
 *   `_1d`/`_daily` → daily
 * - an interval Breakline has no timeframe for (`SPY_1m`, `XLK_5m`, `_1wk`) → skipped
 *
 * @example
 * describeFile('BRK_B.csv.gz'); // => { symbol: 'BRK.B', timeframe: 'daily' }
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Timeframe } from '../../domain/signal';

const TIMEFRAME_SUFFIX: Readonly<Record<string, Timeframe>> = {
  '1d': 'daily',
  daily: 'daily',
  '1h': '1h',
  '60m': '1h',
  '60min': '1h',
  '4h': '4h',
  '240m': '4h',
  '240min': '4h',
};
/** Looks like a bar interval (`1m`, `15min`, `2h`, `1wk`, `3mo`), not a share class. */
const INTERVAL = /^\d+(s|m|min|h|d|w|wk|mo)$/i;
const SYMBOL = /^[A-Z0-9^=]+(\.[A-Z0-9]+)*$/;

/** The series a file name denotes, or `null` for a file that is not a supported OHLCV file. */
export function describeFile(fileName: string): { symbol: string; timeframe: Timeframe } | null {
  const lower = fileName.toLowerCase();
  const ext = lower.endsWith('.csv.gz') ? 7 : lower.endsWith('.csv') ? 4 : 0;
  if (ext === 0 || fileName.startsWith('.')) return null;
  let base = fileName.slice(0, -ext);
  let timeframe: Timeframe = 'daily';
  const cut = Math.max(base.lastIndexOf('_'), base.lastIndexOf('-'));
  if (cut > 0) {
    const suffix = base.slice(cut + 1).toLowerCase();
    const named = TIMEFRAME_SUFFIX[suffix];
    if (named) {
      timeframe = named;
      base = base.slice(0, cut);
    } else if (INTERVAL.test(suffix)) return null;
  }
  const symbol = base.toUpperCase().replace(/[_-]/g, '.');
  return SYMBOL.test(symbol) ? { symbol, timeframe } : null;
}

/** symbol → timeframe → absolute file path. */
export type FileIndex = Map<string, Map<Timeframe, string>>;

/**
 * Lists the OHLCV files of `dir`; `null` when the directory does not exist or
 * cannot be read. When two files denote the same series (`AAPL.csv` and
 * `AAPL.csv.gz`) the first in name order is used.
 */
export function indexDirectory(dir: string): FileIndex | null {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return null;
  }
  const index: FileIndex = new Map();
  for (const name of names) {
    const series = describeFile(name);
    if (!series) continue;
    let byTimeframe = index.get(series.symbol);
    if (!byTimeframe) index.set(series.symbol, (byTimeframe = new Map()));
    if (!byTimeframe.has(series.timeframe)) byTimeframe.set(series.timeframe, join(dir, name));
  }
  return index;
}
