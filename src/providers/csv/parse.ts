/**
 * @module providers/csv/parse
 * Turns one OHLCV text file into columns, oldest first. Fields follow RFC 4180
 * (comma separated, a quoted cell may hold commas and doubled quotes; a row is
 * one line, so a quoted line break is not supported); the header names the
 * columns and is matched case-insensitively:
 *
 * | field  | header names |
 * |--------|--------------|
 * | time   | `date`, `timestamp`, `datetime`, `time` (or an unnamed first column when none of these exists) |
 * | prices | `open`, `high`, `low`, `close` |
 * | volume | `volume` (optional, 0 when absent or blank) |
 *
 * Everything else (`Adj Close`, `Dividends`, `Stock Splits`, `ticker`, a pandas
 * row-number column…) is ignored. When a name appears twice (yfinance frames
 * concatenated with `open` and `Open` column sets) a row takes the first
 * non-blank cell.
 *
 * Adjusted data: OHLC are kept exactly as the file has them. Where an
 * `Adj Close` column exists (Yahoo's download layout) the other four prices are
 * the traded (split-adjusted, not dividend-adjusted) prices; mixing in the
 * dividend-adjusted close would give bars whose close lies outside their own
 * high/low, so that column is not read.
 *
 * Rows are kept only when all four prices are finite and positive and the time
 * parses. Newest-first files are reversed; any other order is sorted. Of rows
 * sharing a timestamp the one written last in the file wins.
 *
 * @example
 * const bars = parseOhlcvCsv('Date,Open,High,Low,Close,Volume\n2024-01-02,1,2,0.5,1.5,100', { daily: true });
 * bars.close[0]; // => 1.5
 */
import { newOhlcv, ohlcvFrom, type Ohlcv } from '../../kernels/ohlcv';
import { parseCsvLine } from '../universe';
import { decimalIn } from './decimal';
import { parseTimestamp, timestampIn, utc, type ZoneOffset } from './timestamps';

export interface ParseOptions {
  /** Daily bars keep the written session date (00:00 UTC); intraday bars keep the instant. */
  daily: boolean;
  /** Offset of naive intraday wall times; UTC by default. */
  zone?: ZoneOffset;
}

/** The file is not an OHLCV table this parser understands. */
export class CsvFormatError extends Error {
  override readonly name = 'CsvFormatError';
}

const TIME_NAMES = new Set(['date', 'timestamp', 'datetime', 'time']);
const FIELDS = ['open', 'high', 'low', 'close', 'volume'] as const;

/** Column positions per field; each may list several candidates. */
interface HeaderMap {
  time: number[];
  open: number[];
  high: number[];
  low: number[];
  close: number[];
  volume: number[];
}

function splitRow(line: string): string[] {
  return line.indexOf('"') === -1 ? line.split(',') : parseCsvLine(line);
}

function readHeader(line: string): HeaderMap {
  const names = splitRow(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line).map((n) => n.trim().toLowerCase());
  const map: HeaderMap = { time: [], open: [], high: [], low: [], close: [], volume: [] };
  names.forEach((name, i) => {
    if (TIME_NAMES.has(name)) map.time.push(i);
    else if ((FIELDS as readonly string[]).includes(name)) map[name as (typeof FIELDS)[number]].push(i);
  });
  if (map.time.length === 0 && names[0] === '') map.time.push(0); // pandas index written without a name
  const missing = (['time', 'open', 'high', 'low', 'close'] as const).filter((f) => map[f].length === 0);
  if (missing.length > 0) throw new CsvFormatError(`header "${line.slice(0, 120)}" has no ${missing.join(', ')} column`);
  return map;
}

/** The first non-blank cell among the candidates, as a number (NaN when blank or not numeric). */
function numberAt(cells: string[], at: number[]): number {
  for (let k = 0; k < at.length; k++) {
    const cell = cells[at[k]!];
    if (cell !== undefined && cell !== '') return decimalIn(cell, 0, cell.length);
  }
  return NaN;
}

function cellAt(cells: string[], at: number[]): string {
  for (let k = 0; k < at.length; k++) {
    const cell = cells[at[k]!];
    if (cell !== undefined && cell !== '') return cell;
  }
  return '';
}

/**
 * Row positions in time order (ties in file order), then the last of each tie.
 * Returns `null` when the rows are already strictly ascending.
 */
function chronologicalOrder(ts: Float64Array, n: number): Int32Array | null {
  let ascending = true;
  let descending = true;
  for (let i = 1; i < n && (ascending || descending); i++) {
    if (ts[i]! <= ts[i - 1]!) ascending = false;
    if (ts[i]! > ts[i - 1]!) descending = false;
  }
  if (ascending) return null;
  let order: Int32Array;
  if (descending) {
    // Newest first (Alpha Vantage): emit runs of equal time from the end, each run in file order.
    order = new Int32Array(n);
    let k = 0;
    let end = n;
    while (end > 0) {
      let start = end - 1;
      while (start > 0 && ts[start - 1] === ts[end - 1]) start--;
      for (let i = start; i < end; i++) order[k++] = i;
      end = start;
    }
  } else {
    order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => ts[a]! - ts[b]! || a - b);
  }
  let kept = 0;
  for (let k = 0; k < n; k++) {
    if (k + 1 < n && ts[order[k + 1]!] === ts[order[k]!]) continue; // a later row of the same time follows
    order[kept++] = order[k]!;
  }
  return order.subarray(0, kept);
}

/** Column role by position for the one-candidate-per-field fast path: 0 ignored, 1 time, 2–6 open…volume. */
function rolesOf(header: HeaderMap): Uint8Array | null {
  if (header.time.length > 1 || FIELDS.some((f) => header[f].length > 1)) return null;
  const width = Math.max(header.time[0]!, ...FIELDS.map((f) => header[f][0] ?? 0)) + 1;
  const roles = new Uint8Array(width);
  roles[header.time[0]!] = 1;
  FIELDS.forEach((f, k) => {
    if (header[f].length === 1) roles[header[f][0]!] = k + 2;
  });
  return roles;
}

/**
 * Parses an OHLCV CSV text into columns (kernels/ohlcv), oldest first.
 *
 * @throws {CsvFormatError} when the header lacks a time or price column or no row survives
 */
export function parseOhlcvCsv(text: string, options: ParseOptions): Ohlcv {
  const zone = options.zone ?? utc;
  const { daily } = options;
  // Walk the text line by line in place: no array of lines, no array of cells per row.
  let pos = 0;
  let headerEnd = -1;
  while (pos < text.length) {
    headerEnd = text.indexOf('\n', pos);
    if (headerEnd < 0) headerEnd = text.length;
    if (text.slice(pos, headerEnd).trim() !== '') break;
    pos = headerEnd + 1;
  }
  if (pos >= text.length) throw new CsvFormatError('file is empty');
  const header = readHeader(text.slice(pos, headerEnd).replace(/\r$/, ''));
  const roles = rolesOf(header);

  let capacity = 0;
  for (let at = text.indexOf('\n', headerEnd + 1); at >= 0; at = text.indexOf('\n', at + 1)) capacity++;
  capacity++; // the last line may lack its newline
  const cols = newOhlcv(capacity);
  /** The row being read, indexed by role: [unused, unused, open, high, low, close, volume]. */
  const row = new Float64Array(7);
  let n = 0;
  let rows = 0;
  let rejected = 0;
  /** The next double quote at or after the current line; -1 when there is none left. */
  let quoteAt = text.indexOf('"', headerEnd + 1);
  for (pos = headerEnd + 1; pos < text.length; ) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const next = end + 1;
    if (end > pos && text.charCodeAt(end - 1) === 13) end--; // CRLF
    if (end === pos) {
      pos = next;
      continue;
    }
    rows++;
    row.fill(NaN);
    let ts: number;
    if (quoteAt >= 0 && quoteAt < pos) quoteAt = text.indexOf('"', pos);
    if (roles && (quoteAt < 0 || quoteAt >= end)) {
      let timeFrom = pos;
      let timeTo = pos;
      for (let col = 0, from = pos; col < roles.length && from <= end; col++) {
        let to = text.indexOf(',', from);
        if (to < 0 || to > end) to = end;
        const role = roles[col]!;
        if (role === 1) {
          timeFrom = from;
          timeTo = to;
        } else if (role > 1) row[role] = decimalIn(text, from, to);
        from = to + 1;
      }
      ts = timestampIn(text, timeFrom, timeTo, daily, zone);
    } else {
      const cells = splitRow(text.slice(pos, end));
      FIELDS.forEach((f, k) => (row[k + 2] = numberAt(cells, header[f])));
      ts = parseTimestamp(cellAt(cells, header.time), daily, zone);
    }
    pos = next;
    const op = row[2]!, hi = row[3]!, lo = row[4]!, cl = row[5]!, vol = row[6]!;
    // `!(x > 0)` also rejects NaN; Infinity is caught by the sum.
    if (!(op > 0 && hi > 0 && lo > 0 && cl > 0) || !Number.isFinite(op + hi + lo + cl) || Number.isNaN(ts)) {
      rejected++;
      continue;
    }
    cols.ts[n] = ts;
    cols.open[n] = op;
    cols.high[n] = hi;
    cols.low[n] = lo;
    cols.close[n] = cl;
    cols.volume[n] = vol > 0 && vol < Infinity ? vol : 0;
    n++;
  }
  if (n === 0) throw new CsvFormatError(`no valid rows (${rejected} rejected of ${rows})`);

  const order = chronologicalOrder(cols.ts, n);
  return ohlcvFrom((name) => {
    const src = cols[name];
    if (!order) return src.slice(0, n);
    const dst = new Float64Array(order.length);
    for (let k = 0; k < order.length; k++) dst[k] = src[order[k]!]!;
    return dst;
  });
}
