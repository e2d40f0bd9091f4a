/**
 * @module ledger/book-snapshot
 * A trade book's columns (ledger/trade-columns) as bytes and back (issue 27):
 * what a chain's figures are computed from, kept with the head it holds
 * (db/repositories/ledger-figures `keepSnapshot`), so a restart resumes the
 * book from it and reads only the facts appended after that head, instead
 * of every signal's and outcome's facts of the chain (a boot replay's 478k
 * records: 16–28 s of pages on the server's thread).
 *
 * Layout: a JSON header (the layout's name, the trade count, the words the
 * codes stand for, the byte length of each part), then the signal ids as
 * JSON lists of `IDS_PER_PART`, then each typed array's bytes as they are
 * (a copy each, no text). The ids are written and read a part per turn of
 * the event loop: a boot replay's 128k ids and columns made as one text
 * (base64 inside JSON) held the thread 137 ms, and read back 186 ms, at
 * load 9 (bench/book-fold).
 *
 * @example
 * const bytes = await snapshotBytes(book.columns);
 * const columns = await columnsOf(bytes); // the same trades, codes and order
 */
import { TradeColumns } from './trade-columns';

/** The layout's name: a snapshot of another layout is not read (its book is loaded from the facts instead). */
export const SNAPSHOT_FORMAT = 'trade-columns-2';

const F64 = ['seq', 'detectedMs', 'confidence', 'rMultiple', 'daysHeld', 'entry', 'stopLoss', 'target1', 'signalStop', 'signalTarget'] as const;
const I32 = ['symbol', 'patternType', 'scoreBand', 'timeframe', 'direction', 'regime', 'detectedAt', 'entryAt', 'alert'] as const;
const U8 = ['outcome', 'entered', 'hasLevels'] as const;
const ARRAYS = [...F64, ...I32, ...U8] as const;

/** Signal ids per JSON part (each a turn of the event loop: ~10k ids are a few ms to write or read). */
const IDS_PER_PART = 10_000;

interface Header {
  format: string;
  n: number;
  words: string[];
  /** Byte length of each ids part, then of each array (in ARRAYS order). */
  parts: number[];
}

/** A turn of the event loop (this module runs on the server's thread; db/client's is not importable from here). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The columns' trades as bytes (see the module comment), a turn of the event
 * loop between the ids' parts. The trades held when it starts: a fold
 * meanwhile may add trades after them (left out) or close one of them (its
 * outcome is in, and folding it again from the facts after the snapshot's
 * head gives the same trade), and the arrays and words are taken together,
 * after the last turn.
 */
export async function snapshotBytes(c: TradeColumns): Promise<Uint8Array> {
  const { n } = c;
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (let at = 0; at < n; at += IDS_PER_PART) {
    parts.push(encoder.encode(JSON.stringify(c.id.slice(at, Math.min(n, at + IDS_PER_PART)))));
    await turn();
  }
  for (const name of ARRAYS) {
    const a = c[name];
    parts.push(new Uint8Array(a.buffer, a.byteOffset, n * a.BYTES_PER_ELEMENT));
  }
  const header = encoder.encode(JSON.stringify({ format: SNAPSHOT_FORMAT, n, words: c.words, parts: parts.map((p) => p.length) } satisfies Header));
  const size = 4 + header.length + parts.reduce((sum, p) => sum + p.length, 0);
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, header.length);
  out.set(header, 4);
  let at = 4 + header.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A typed array of `capacity` whose first bytes are `bytes` (copied: the part may sit unaligned). */
function filled<T extends Float64Array | Int32Array | Uint8Array>(make: new (n: number) => T, capacity: number, bytes: Uint8Array): T {
  const out = new make(capacity);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

/** The columns `snapshotBytes` made; undefined for another layout. A turn of the event loop between the ids' parts. */
export async function columnsOf(bytes: Uint8Array): Promise<TradeColumns | undefined> {
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  const decoder = new TextDecoder();
  const header = JSON.parse(decoder.decode(bytes.subarray(4, 4 + headerLength))) as Header;
  if (header.format !== SNAPSHOT_FORMAT) return undefined;
  const idParts = header.parts.length - ARRAYS.length;
  let at = 4 + headerLength;
  const next = (length: number) => bytes.subarray(at, (at += length));
  const c = new TradeColumns();
  const ids: string[] = [];
  for (let p = 0; p < idParts; p++) {
    for (const id of JSON.parse(decoder.decode(next(header.parts[p]!))) as string[]) ids.push(id);
    await turn();
  }
  const capacity = Math.max(64, header.n);
  ARRAYS.forEach((name, k) => {
    const part = next(header.parts[idParts + k]!);
    if ((F64 as readonly string[]).includes(name)) c[name as (typeof F64)[number]] = filled(Float64Array, capacity, part);
    else if ((I32 as readonly string[]).includes(name)) c[name as (typeof I32)[number]] = filled(Int32Array, capacity, part);
    else c[name as (typeof U8)[number]] = filled(Uint8Array, capacity, part);
  });
  c.id = ids;
  c.restore(header.n, header.words);
  return c;
}
