/**
 * @module modules/transparency/ahead
 * The replay's figures computed ahead (issue 27): once a replay is done, its
 * scorecard (of the day) and the monthly rollup of every month it covers are
 * computed in the background (background/ahead, a pass a minute) and kept at
 * its head (`heldFigure`, in the database), so no reader pays a first
 * computation — the trade book's load of a boot replay (16–28 s at its scale,
 * more under load: one first scorecard took over 60 s, past the server's idle
 * timeout, and its callers' connections were reset). A reader asking while
 * one runs shares it (figures in flight are per server's sources and figure,
 * the key a request uses). A pass finds what is missing at the current head
 * (a finished replay, a new day's scorecard) with one read of the kept rows'
 * keys, and computes nothing when all are kept (a restart).
 *
 * Last, the replay's trade book is kept at its head (ledger/book `keep`),
 * and the live ledger's, when it is in memory (`keepLiveBook`),
 * when it is not kept there yet: a restart resumes the book from it (a new
 * day's scorecard loads nothing). The book is in memory when the replay ran
 * here (folded as its records were appended); a replay stored before (an
 * upgrade), or finished by another instance, has its book loaded from its
 * facts once, in pages, by the pass that keeps it.
 */
import { SNAPSHOT_FORMAT } from '../../ledger/book-snapshot';
import { FIGURE_DEFINITIONS, monthlyJson, scorecardJson } from './performance';
import type { LedgerSources } from './sources';

/** The months `from` … `to` (ISO dates) cover, `YYYY-MM`, oldest first. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))];
  const [ty, tm] = [Number(to.slice(0, 4)), Number(to.slice(5, 7))];
  for (; y < ty || (y === ty && m <= tm); m === 12 ? ((m = 1), y++) : m++) months.push(`${y}-${String(m).padStart(2, '0')}`);
  return months;
}

/**
 * Computes the figures of the current replay, when it is done, that are not
 * kept at its head, one after the other; ends at the next figure once
 * `stopping()` (what is left is computed at the next start, or when asked).
 */
export async function computeAhead(sources: LedgerSources, stopping: () => boolean, now = Date.now()): Promise<void> {
  const run = await sources.replays.current();
  // A replay in progress moves its head with every chunk: its figures are computed when asked, not after each chunk.
  if (!run || run.status !== 'done') return;
  const ledger = sources.replayLedger.forReplay(run.id);
  const head = await ledger.head();
  const kept = new Set((await ledger.figures.keptAt(head, FIGURE_DEFINITIONS)).map((k) => `${k.figure}|${k.variant}`));
  const query = { source: 'replay' as const, replayId: run.id };
  const today = new Date(now).toISOString().slice(0, 10);
  if (!kept.has(`scorecard|${today}`)) await scorecardJson(sources, query, now);
  for (const month of monthsOf(run.params.from, run.params.to)) {
    if (stopping()) return;
    if (!kept.has(`monthly:${month}|`)) await monthlyJson(sources, { ...query, month });
  }
  if (stopping()) return;
  if (!(await ledger.figures.snapshotAt(head, SNAPSHOT_FORMAT))) {
    await sources.replayFigures.book(run.id);
    await sources.replayFigures.keep(run.id);
  }
}

/**
 * Keeps the live ledger's trade book at its head when it is in memory (read
 * since the start, and folded as scans and outcomes are appended) and not
 * kept there yet: a restart resumes it and reads only the facts after it.
 * A book not in memory is not loaded for this.
 */
export async function keepLiveBook(sources: LedgerSources): Promise<void> {
  await sources.ledgerFigures.keep();
}
