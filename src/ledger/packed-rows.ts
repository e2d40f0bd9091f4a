/**
 * @module ledger/packed-rows
 * Rows as columns, for a worker task's input (issue 27; jobs/record sends the
 * ledger's trades, workers/record unpacks them). A task's input
 * crosses to its thread as a structured clone, made on the sending thread in
 * one stretch: the 68k closed trades of a boot replay's scorecard as objects
 * held the server's thread 155 ms (their symbols and entry times, for the
 * quintile cuts) and 250–760 ms (the summary's trades, each with its alert
 * verdict) at load 12. As columns — numbers in one Float64Array, strings and
 * small objects as codes into one table of distinct words — the clone is a
 * copy of two buffers and a short list, and the packing gives the event loop
 * back every `PACK_SLICE` rows. The worker unpacks them into the same rows.
 *
 * A number field's null (or undefined) comes back null, and so would a NaN;
 * a `json` field is a plain JSON value (an object, array, or null), written
 * once per distinct value.
 *
 * @example
 * const packed = await packRows(trades, { r: 'number', outcome: 'word', alert: 'json' });
 * const rows = unpackRows<typeof trades[number]>(packed); // in the worker
 */

/** How a field is carried: a number, a string (one of few distinct ones), or a JSON value. */
export type FieldKind = 'number' | 'word' | 'json';

export interface PackedRows {
  n: number;
  /** Field → kind, in the order the columns hold them. */
  fields: Record<string, FieldKind>;
  /** Row-major: n × the number fields. */
  numbers: Float64Array;
  /** Row-major: n × the word and json fields; an index into `words`, −1 for null or undefined. */
  codes: Int32Array;
  words: string[];
}

/** Rows packed between two turns of the event loop. */
const PACK_SLICE = 4_000;

/**
 * A turn of the event loop: db/client's `yieldToEventLoop`, which this module
 * cannot import: the worker threads load it, and db/client would load the
 * embedded database's module into every one of them.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));


function split(fields: Record<string, FieldKind>): { numeric: string[]; coded: string[] } {
  const names = Object.keys(fields);
  return { numeric: names.filter((f) => fields[f] === 'number'), coded: names.filter((f) => fields[f] !== 'number') };
}

/** `rows` as columns (see the module comment), a turn of the event loop every `PACK_SLICE` rows. */
export async function packRows(rows: readonly object[], fields: Record<string, FieldKind>): Promise<PackedRows> {
  const { numeric, coded } = split(fields);
  const n = rows.length;
  const numbers = new Float64Array(n * numeric.length);
  const codes = new Int32Array(n * coded.length);
  const words: string[] = [];
  const index = new Map<string, number>();
  const codeOf = (word: string): number => {
    let code = index.get(word);
    if (code === undefined) index.set(word, (code = words.push(word) - 1));
    return code;
  };
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % PACK_SLICE === 0) await yieldToEventLoop();
    const row = rows[i] as Record<string, unknown>;
    for (let f = 0; f < numeric.length; f++) {
      const x = row[numeric[f]!];
      numbers[i * numeric.length + f] = typeof x === 'number' ? x : Number.NaN;
    }
    for (let f = 0; f < coded.length; f++) {
      const name = coded[f]!;
      const x = row[name];
      codes[i * coded.length + f] = x === null || x === undefined ? -1 : codeOf(fields[name] === 'json' ? JSON.stringify(x) : String(x));
    }
  }
  return { n, fields, numbers, codes, words };
}

/** The rows `packRows` packed (each json value parsed once and shared by the rows that carry it: read, not changed). */
export function unpackRows<T>({ n, fields, numbers, codes, words }: PackedRows): T[] {
  const { numeric, coded } = split(fields);
  const parsed = new Map<number, unknown>();
  const valueOf = (name: string, code: number): unknown => {
    if (code < 0) return null;
    if (fields[name] !== 'json') return words[code];
    if (!parsed.has(code)) parsed.set(code, JSON.parse(words[code]!));
    return parsed.get(code);
  };
  const out: T[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const row: Record<string, unknown> = {};
    for (let f = 0; f < numeric.length; f++) {
      const x = numbers[i * numeric.length + f]!;
      row[numeric[f]!] = Number.isNaN(x) ? null : x;
    }
    for (let f = 0; f < coded.length; f++) row[coded[f]!] = valueOf(coded[f]!, codes[i * coded.length + f]!);
    out[i] = row as T;
  }
  return out;
}
