/**
 * @module jobs/outcomes
 * The outcome resolution job: every ledger signal without an outcome record is
 * resolved in the worker pool against the bars after its entry
 * (kernels/outcome), and each final outcome (`win`, `loss`, `scratch`) is
 * appended to the ledger once. `open` ones are left for a later run. The entry
 * rule (a record whose entry left no trade — past its target or stop, or
 * without a stop — resolves at once as a scratch never entered) and the
 * record's fields are ledger/outcome-plan's (the replay applies the same).
 */
import type { LedgerEntry, LedgerRepository } from '../db/repositories/ledger';
import { storedAs } from '../domain/check';
import { SignalRecordSchema, type OutcomeItem, type SignalRecord } from '../domain/signal';
import { enteredOutcome, notEnteredOutcome, planOutcome } from '../ledger/outcome-plan';
import { ledgerEntries, type LedgerEntryView } from '../ledger/serialize';
import type { Logger } from '../log';
import type { MarketData } from '../market-data';
import { batches, type KernelPool } from '../pool';
import type { BarStore } from '../store';
import { yieldToEventLoop } from '../db/client';

export interface OutcomeDeps {
  ledger: LedgerRepository;
  marketData: MarketData;
  barStore: BarStore;
  pool: KernelPool;
  log: Logger;
}

export interface OutcomeRun {
  checked: number;
  resolved: number;
  stillOpen: number;
  /** Signals whose bars could not be read (none for the symbol, or ending before the entry) or that the kernel refused; left unresolved, named in the log. */
  unresolvable: number;
}

const signalRecordOf = storedAs(SignalRecordSchema);
/** Ledger records read (JSON parsed, checked) and planned between two turns of the event loop. */
export const PLAN_SLICE = 100;
const recordOf = (view: LedgerEntryView): SignalRecord => signalRecordOf(view.signal, `ledger record ${view.seq}`);

/** The entry rule (ledger/outcome-plan) for a ledger entry. */
const plan = (view: LedgerEntryView) => planOutcome(recordOf(view), view.events);

function outcomeEntry(view: LedgerEntryView, data: Record<string, unknown>): LedgerEntry {
  const s = recordOf(view);
  return {
    kind: 'outcome',
    signalId: String(view.signal.id),
    patternType: s.patternType,
    scoreBand: s.scoreBand,
    finalScore: s.finalScore,
    detectedAt: new Date(s.detectedAt),
    data,
  };
}

/**
 * Resolves what can be resolved as of `asOfTs` (default: the latest bars) and
 * appends the outcomes. Safe to run concurrently or twice: an outcome is
 * written once per signal (the ledger skips duplicates).
 */
export async function resolveOutcomes(deps: OutcomeDeps, options: { asOfTs?: number; limit?: number } = {}): Promise<OutcomeRun> {
  const pending = await deps.ledger.unresolved(options.limit);
  const run: OutcomeRun = { checked: pending.length, resolved: 0, stillOpen: 0, unresolvable: 0 };
  if (pending.length === 0) return run;
  // Each signal's follow-ups in chain order, so a slice is joined with its own only.
  const followUps = Map.groupBy(await deps.ledger.followUps(pending.map((r) => r.signalId)), (r) => r.signalId);
  const byId = new Map<string, LedgerEntryView>();
  const appends: LedgerEntry[] = [];
  const items: OutcomeItem[] = [];
  // A slice of records read and planned per turn of the event loop: a first start's ~500 at once were ~40 ms of the main thread (issue 27).
  for (let i = 0; i < pending.length; i += PLAN_SLICE) {
    if (i > 0) await yieldToEventLoop();
    const slice = pending.slice(i, i + PLAN_SLICE);
    for (const view of ledgerEntries(slice, slice.flatMap((r) => followUps.get(r.signalId) ?? []))) {
      byId.set(String(view.signal.id), view);
      const planned = plan(view);
      if (planned === null) {
        run.stillOpen++;
      } else if ('notEntered' in planned) {
        appends.push(outcomeEntry(view, notEnteredOutcome(planned.notEntered)));
      } else items.push(planned.item);
    }
  }

  const series = new Map(items.map((i) => [`${i.symbol}:${i.timeframe}`, i]));
  await Promise.all([...series.values()].map((i) => deps.marketData.bars(i.symbol, i.timeframe)));
  const handle = deps.barStore.handle();
  const asOfTs = options.asOfTs ?? Number.MAX_SAFE_INTEGER;
  const parts = batches(items, deps.pool.threads * 2);
  const resolved = (await Promise.all(parts.map((part) => deps.pool.run('outcomes', { handle, items: part, asOfTs })))).flat();
  const itemsById = new Map(items.map((i) => [i.signalId, i]));
  for (const r of resolved) {
    if ('error' in r) {
      run.unresolvable++;
      deps.log.warn('outcome unresolvable', { signalId: r.signalId, reason: r.error });
      continue;
    }
    const o = r.result;
    if (o.outcome === 'open') {
      run.stillOpen++;
      continue;
    }
    const item = itemsById.get(r.signalId)!;
    appends.push(outcomeEntry(byId.get(r.signalId)!, enteredOutcome(item, o)));
  }
  if (appends.length > 0) run.resolved = (await deps.ledger.append(appends)).length;
  return run;
}
