/**
 * A replay's records as ledger entries, made in the worker that computed them
 * (issue 27): each record's data as canonical JSON and its facts
 * (db/repositories/ledger-text), packed per symbol into one string and two
 * typed arrays. The server's thread then holds a chunk of ~20,000 records as
 * a few hundred strings and arrays instead of an object graph per record
 * (signals, their components, geometry and reasons: well over half a million
 * objects for a chunk in flight and the next), which every collection of its
 * heap had to mark; it orders them (`phase`, `keyOf`: the order a live run
 * appends) and hands them to the appender as they are.
 */
import type { EntryText, LedgerEntry } from '../src/db/repositories/ledger-text';
import { entryText } from '../src/db/repositories/ledger-text';
import { eventEntry, signalEntry } from '../src/db/repositories/scan-entries';
import type { BookRecord } from './replay-book';

/** What names a replay in every one of its records (jobs/replay/run `tagOf`). */
export interface ReplayTag {
  id: string;
  source: string;
  timeframe: string;
  from: string;
  to: string;
  universe: string;
  benchmark: string;
}

/** A book record as a replay ledger entry (the live record's fields, marked as a replay's). */
export function replayEntry(r: BookRecord, runId: string, tag: ReplayTag): LedgerEntry {
  const marks = { mode: 'replay', replay: tag };
  if (r.kind === 'signal') {
    const s = r.signal;
    const base = signalEntry(s, runId, tag.source, r.surfacedAt, r.regime, r.alert);
    return {
      ...base,
      replayId: runId,
      data: {
        ...base.data,
        ...marks,
        components: s.components,
        geometry: s.geometry,
        rsRank: s.rsRank,
        avgDollarVolume: s.avgDollarVolume,
        distancePct: s.distancePct,
        breakoutVolumeRatio: s.breakoutVolumeRatio,
      },
    };
  }
  if (r.kind === 'event') {
    const base = eventEntry(r.signalId, runId, r.from, r.to, r.price, r.at);
    return { ...base, replayId: runId, data: { ...base.data, ...marks } };
  }
  return {
    kind: 'outcome',
    signalId: r.signalId,
    patternType: r.patternType,
    scoreBand: r.scoreBand,
    finalScore: r.finalScore,
    detectedAt: new Date(r.detectedAt),
    replayId: runId,
    data: { ...r.data, ...marks },
  };
}

/** Phases of a session's records, in the order a live run appends them. */
export function phase(r: BookRecord): number {
  return r.kind === 'signal' ? 0 : r.kind === 'event' ? (r.phase === 'listed' ? 1 : 2) : 3;
}

/** A record's place within its session and phase (jobs/replay/engine's module comment). */
export function keyOf(r: BookRecord): [number, string] {
  if (r.kind === 'signal') return [-r.signal.finalScore, r.signal.id];
  if (r.kind === 'event') return r.phase === 'listed' ? [-r.rankScore, r.signalId] : [0, r.signalId];
  return [0, `${r.surfacedAt}\u0000${String(1e6 - r.finalScore).padStart(12, '0')}\u0000${r.signalId}`];
}

/** Ledger order within a session: phase, then the key's number, then its text, then the order they came in. */
export function compareKeys(pa: number, na: number, ta: string, ia: number, pb: number, nb: number, tb: string, ib: number): number {
  return pa - pb || na - nb || (ta < tb ? -1 : ta > tb ? 1 : 0) || ia - ib;
}

/** Strings a packed entry keeps, in this order, in `text` (ends in `ends`). */
const TEXTS = ['signalId', 'data', 'facts', 'patternType', 'scoreBand', 'key'] as const;
/** Numbers a packed entry keeps, in this order, in `numbers` (NaN: null). */
const NUMBERS = ['session', 'phase', 'rank', 'kind', 'finalScore', 'detectedAt'] as const;
const T = TEXTS.length;
const N = NUMBERS.length;
const KINDS = ['signal', 'event', 'outcome', 'replay'] as const;

/** One symbol's entries of a chunk, packed: every string end to end in `text`, where each ends in `ends`, and the numbers. */
export interface PackedEntries {
  count: number;
  text: string;
  ends: Uint32Array;
  numbers: Float64Array;
}

/** `records` (one symbol's, in the order made) as the replay `tag`'s ledger entries, packed. */
export function packEntries(records: readonly BookRecord[], tag: ReplayTag): PackedEntries {
  const texts: string[] = [];
  const ends = new Uint32Array(records.length * T);
  const numbers = new Float64Array(records.length * N);
  let length = 0;
  records.forEach((r, i) => {
    const e = entryText(replayEntry(r, tag.id, tag), 'replay');
    const [rank, key] = keyOf(r);
    const strings = [e.signalId, e.data, e.facts ?? '', e.patternType ?? '', e.scoreBand ?? '', key];
    strings.forEach((s, j) => {
      texts.push(s);
      length += s.length;
      ends[i * T + j] = length;
    });
    numbers.set([r.session, phase(r), rank, KINDS.indexOf(e.kind), e.finalScore ?? NaN, e.detectedAt ?? NaN], i * N);
  });
  return { count: records.length, text: texts.join(''), ends, numbers };
}

/** Field `j` (TEXTS) of entry `i`. */
function textOf(p: PackedEntries, i: number, j: number): string {
  const at = i * T + j;
  return p.text.slice(at === 0 ? 0 : p.ends[at - 1]!, p.ends[at]!);
}

const orNull = (s: string) => (s === '' ? null : s);
const numberOrNull = (x: number) => (Number.isNaN(x) ? null : x);

/** Reads packed entries: the ordering keys, and an entry as the appender takes it. */
export const packed = {
  session: (p: PackedEntries, i: number) => p.numbers[i * N]!,
  phase: (p: PackedEntries, i: number) => p.numbers[i * N + 1]!,
  rank: (p: PackedEntries, i: number) => p.numbers[i * N + 2]!,
  key: (p: PackedEntries, i: number) => textOf(p, i, 5),
  isSignal: (p: PackedEntries, i: number) => p.numbers[i * N + 3] === 0,
  entry(p: PackedEntries, i: number, replayId: string): EntryText {
    const o = i * N;
    return {
      kind: KINDS[p.numbers[o + 3]!]!,
      signalId: textOf(p, i, 0),
      data: textOf(p, i, 1),
      facts: orNull(textOf(p, i, 2)),
      patternType: orNull(textOf(p, i, 3)),
      scoreBand: orNull(textOf(p, i, 4)),
      finalScore: numberOrNull(p.numbers[o + 4]!),
      detectedAt: numberOrNull(p.numbers[o + 5]!),
      replayId,
    };
  },
};
