/**
 * @module ledger/book-snapshot
 * A trade book's columns (ledger/trade-columns) as one string and back
 * (issue 27): what a chain's figures are computed from, kept with the head
 * it holds (db/repositories/ledger-figures `keepSnapshot`), so a restart
 * resumes the book from it and reads only the facts appended after that
 * head, instead of every signal's and outcome's facts of the chain (a boot
 * replay's 478k records: 16–28 s of pages on the server's thread). The
 * numbers travel as base64 of their typed arrays (one native copy each),
 * the words and ids as JSON lists.
 *
 * @example
 * const text = snapshotText(book.columns);
 * const columns = columnsOf(text); // the same trades, codes and order
 */
import { TradeColumns } from './trade-columns';

/** The layout's name: a snapshot of another layout is not read (its book is loaded from the facts instead). */
export const SNAPSHOT_FORMAT = 'trade-columns-1';

const F64 = ['seq', 'detectedMs', 'confidence', 'rMultiple', 'daysHeld', 'entry', 'stopLoss', 'target1', 'signalStop', 'signalTarget'] as const;
const I32 = ['symbol', 'patternType', 'scoreBand', 'timeframe', 'direction', 'regime', 'detectedAt', 'entryAt', 'alert'] as const;
const U8 = ['outcome', 'entered', 'hasLevels'] as const;

interface Snapshot {
  format: string;
  n: number;
  arrays: Record<string, string>;
  id: string[];
  words: string[];
}

const base64 = (a: Float64Array | Int32Array | Uint8Array, n: number) => Buffer.from(a.buffer, a.byteOffset, n * a.BYTES_PER_ELEMENT).toString('base64');

/** The columns' first `n` trades as a string (see the module comment). */
export function snapshotText(c: TradeColumns): string {
  const arrays: Record<string, string> = {};
  for (const name of [...F64, ...I32, ...U8]) arrays[name] = base64(c[name], c.n);
  const snapshot: Snapshot = { format: SNAPSHOT_FORMAT, n: c.n, arrays, id: c.id.slice(0, c.n), words: c.words };
  return JSON.stringify(snapshot);
}

/** A typed array of `capacity` whose first bytes are the base64 `text`'s (copied: a decoded Buffer may sit unaligned in a pool). */
function decoded<T extends Float64Array | Int32Array | Uint8Array>(make: new (n: number) => T, capacity: number, text: string): T {
  const out = new make(capacity);
  new Uint8Array(out.buffer).set(Buffer.from(text, 'base64'));
  return out;
}

/** The columns a `snapshotText` holds; undefined for another layout. */
export function columnsOf(text: string): TradeColumns | undefined {
  const s = JSON.parse(text) as Snapshot;
  if (s.format !== SNAPSHOT_FORMAT) return undefined;
  const c = new TradeColumns();
  const capacity = Math.max(64, s.n);
  for (const name of F64) c[name] = decoded(Float64Array, capacity, s.arrays[name]!);
  for (const name of I32) c[name] = decoded(Int32Array, capacity, s.arrays[name]!);
  for (const name of U8) c[name] = decoded(Uint8Array, capacity, s.arrays[name]!);
  c.id = s.id;
  c.restore(s.n, s.words);
  return c;
}
