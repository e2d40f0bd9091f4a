/**
 * @module jobs/replay/ordered
 * A chunk's ledger entries as the workers packed them (workers/replay-entries),
 * put in the order a live run appends them (jobs/replay/engine's module
 * comment) without unpacking them: the order is two arrays of (symbol's pack,
 * entry) pairs, sorted a session at a time with the event loop free between
 * sessions, and a slice of entries is unpacked only when the appender takes
 * it (issue 27: the server's thread holds a chunk as a few hundred strings and
 * typed arrays, not an object graph per record).
 */
import type { EntryText } from '../../db/repositories/ledger-text';
import { yieldToEventLoop } from '../../db/client';
import { compareKeys, packed, type PackedEntries } from '../../../workers/replay-entries';

/** A chunk's entries in ledger order. */
export class OrderedEntries {
  constructor(
    private readonly parts: readonly PackedEntries[],
    private readonly part: Uint32Array,
    private readonly index: Uint32Array,
  ) {}

  get length(): number {
    return this.part.length;
  }

  /** Entries [from, to) as the appender takes them, in `replayId`. */
  slice(from: number, to: number, replayId: string): EntryText[] {
    const out: EntryText[] = [];
    for (let k = from; k < Math.min(to, this.length); k++) out.push(packed.entry(this.parts[this.part[k]!]!, this.index[k]!, replayId));
    return out;
  }

  /** How many of entries [from, to) are signals. */
  signals(from = 0, to = this.length): number {
    let n = 0;
    for (let k = from; k < Math.min(to, this.length); k++) if (packed.isSignal(this.parts[this.part[k]!]!, this.index[k]!)) n++;
    return n;
  }
}

/**
 * The entries of `parts` (each symbol's, in the order the records came from
 * the workers) for sessions [from, to), in ledger order: by session, then
 * phase, the key's number and text, then the order they came in — the
 * comparison `ledgerOrder` makes of the records themselves.
 */
export async function orderEntries(parts: readonly PackedEntries[], from: number, to: number): Promise<OrderedEntries> {
  const sessions = to - from;
  const counts = new Uint32Array(sessions + 1);
  parts.forEach((p) => {
    for (let i = 0; i < p.count; i++) counts[packed.session(p, i) - from + 1]!++;
  });
  for (let s = 1; s <= sessions; s++) counts[s]! += counts[s - 1]!;
  const total = counts[sessions]!;
  const byPart = new Uint32Array(total);
  const byIndex = new Uint32Array(total);
  const fill = counts.slice(0, sessions);
  parts.forEach((p, j) => {
    for (let i = 0; i < p.count; i++) {
      const at = fill[packed.session(p, i) - from]!++;
      byPart[at] = j;
      byIndex[at] = i;
    }
  });
  const part = new Uint32Array(total);
  const index = new Uint32Array(total);
  for (let s = 0; s < sessions; s++) {
    const start = counts[s]!;
    const n = counts[s + 1]! - start;
    const phases = new Float64Array(n);
    const ranks = new Float64Array(n);
    const keys: string[] = [];
    for (let x = 0; x < n; x++) {
      const p = parts[byPart[start + x]!]!;
      const i = byIndex[start + x]!;
      phases[x] = packed.phase(p, i);
      ranks[x] = packed.rank(p, i);
      keys.push(packed.key(p, i));
    }
    const order = Array.from({ length: n }, (_, x) => x).sort((a, b) => compareKeys(phases[a]!, ranks[a]!, keys[a]!, a, phases[b]!, ranks[b]!, keys[b]!, b));
    order.forEach((x, k) => {
      part[start + k] = byPart[start + x]!;
      index[start + k] = byIndex[start + x]!;
    });
    if (n > 0) await yieldToEventLoop();
  }
  return new OrderedEntries(parts, part, index);
}
