/**
 * @module db/repositories/ledger-text
 * A ledger record as text: what the appender hashes and stores, made from the
 * canonical JSON of the record's data (issue 27). The replay's workers make
 * that JSON and the record's facts in their own threads, so the server's
 * thread holds a chunk of records as strings rather than an object graph per
 * record (the collector's pauses grow with the objects it marks), and puts a
 * body together from its data's JSON without walking the data again.
 *
 * The body is `canonicalJson({ v: 1, seq, kind, signalId, recordedAt, data })`
 * (ledger/canonical: keys sorted, so `data` first and `v` last); `bodyText`
 * writes those bytes from the data's JSON, and test/ledger/ledger-text.test.ts
 * holds it to `canonicalJson` of the object.
 *
 * Pure: no database, so the worker threads import it.
 */
import { canonicalJson } from '../../ledger/canonical';

/** `replay`: a replay's parameters, once at its start (replay chain only). */
export type LedgerKind = 'signal' | 'event' | 'outcome' | 'replay';

export interface LedgerEntry {
  kind: LedgerKind;
  signalId: string;
  /** What the record says; becomes part of the hashed body. */
  data: Record<string, unknown>;
  /** Filter columns of signal records. */
  patternType?: string;
  scoreBand?: string;
  finalScore?: number;
  detectedAt?: Date;
  /** The replay the record belongs to (replay chain). */
  replayId?: string;
}

/** A ledger entry with its data as canonical JSON and its facts made: what the appender writes. */
export interface EntryText {
  kind: LedgerKind;
  signalId: string;
  /** `canonicalJson(data)`. */
  data: string;
  /** The facts kept beside the record (JSON), or null when its chain keeps none for it. */
  facts: string | null;
  patternType: string | null;
  scoreBand: string | null;
  finalScore: number | null;
  /** Milliseconds since the epoch. */
  detectedAt: number | null;
  replayId: string | null;
}

/** What the facts keep of a signal record's data: what the figures, the record's alert policy (alert), the monthly list, the CSV and the forecast read. */
export const SIGNAL_FACTS = [
  'id', 'symbol', 'timeframe', 'patternType', 'direction', 'detectedAt', 'state', 'triggerPrice', 'target1', 'stopLoss',
  'finalScore', 'scoreBand', 'confidence', 'regime', 'priceAtDetection', 'alert',
] as const;
/** What they keep of an outcome record's data. */
export const OUTCOME_FACTS = ['outcome', 'entered', 'entry', 'entryAt', 'exitAt', 'exitPrice', 'rMultiple', 'daysHeld'] as const;

/** An object's keys sorted (a stored record's body is canonical JSON: the facts of one read back match those of the data appended). */
const sortedKeys = (x: unknown): unknown =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x;

function pick(data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (data[key] !== undefined) out[key] = sortedKeys(data[key]);
  return out;
}

/**
 * The facts (JSON) kept beside a record of `kind` on chain `chain`: each
 * signal's and each outcome's, and on the live chain each state change (the
 * CSV's `state`; no reader of the replay chain needs them); null for none.
 */
export function factsText(kind: string, data: Record<string, unknown>, chain: 'live' | 'replay'): string | null {
  if (kind === 'signal') return JSON.stringify(pick(data, SIGNAL_FACTS));
  if (kind === 'outcome') return JSON.stringify(pick(data, OUTCOME_FACTS));
  if (kind === 'event' && chain === 'live' && typeof data.to === 'string') return JSON.stringify({ state: data.to });
  return null;
}

/** `entry` as the appender writes it on `chain`. */
export function entryText(entry: LedgerEntry, chain: 'live' | 'replay'): EntryText {
  return {
    kind: entry.kind,
    signalId: entry.signalId,
    data: canonicalJson(entry.data),
    facts: factsText(entry.kind, entry.data, chain),
    patternType: entry.patternType ?? null,
    scoreBand: entry.scoreBand ?? null,
    finalScore: entry.finalScore ?? null,
    detectedAt: entry.detectedAt?.getTime() ?? null,
    replayId: entry.replayId ?? null,
  };
}

/** The hashed body of a record: the bytes of `canonicalJson({ v: 1, seq, kind, signalId, recordedAt, data })`, `data` given as its canonical JSON. */
export function bodyText(seq: number, kind: LedgerKind, signalId: string, recordedAt: string, data: string): string {
  return `{"data":${data},"kind":${JSON.stringify(kind)},"recordedAt":${JSON.stringify(recordedAt)},"seq":${canonicalJson(seq)},"signalId":${JSON.stringify(signalId)},"v":1}`;
}

/**
 * `json` as a value inside a JSON parameter for `json_to_recordset`, read back
 * as text: the JSON itself (PostgreSQL's `json` type keeps the text of a value
 * as it came, so nothing is escaped here or unescaped there — checked on PGlite
 * and PostgreSQL 15 by test/ledger/ledger-text.test.ts), or, where it holds an
 * escaped NUL (`\u0000`, which PostgreSQL will not put into a json value's
 * text), as a JSON string: the caller's SQL takes whichever of the pair is set.
 */
export function rawJsonPair(json: string): { raw: string; quoted: string } {
  return json.includes('\\u0000') ? { raw: 'null', quoted: JSON.stringify(json) } : { raw: json, quoted: 'null' };
}
