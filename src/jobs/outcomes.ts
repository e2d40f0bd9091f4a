/**
 * @module jobs/outcomes
 * The outcome resolution job: every ledger signal without an outcome record is
 * resolved in the worker pool against the bars after its entry
 * (kernels/outcome), and each final outcome (`win`, `loss`, `scratch`) is
 * appended to the ledger once. `open` ones are left for a later run.
 *
 * Entry (our rule, so the track record only counts what a follower could have
 * done after reading the signal):
 * - a signal surfaced `triggered` or `confirmed` is entered at the close of the
 *   bar it was surfaced on (`priceAtDetection`), resolution from the next bar;
 * - one surfaced `forming` is entered when its lifecycle records `triggered`,
 *   at that bar's close; if it fails or expires before, it is a scratch that
 *   was never entered (R 0).
 * A `failed` or `expired` state after entry makes a scratch at that bar's close.
 */
import type { LedgerEntry, LedgerRepository } from '../db/repositories/ledger';
import { storedAs } from '../domain/check';
import { SignalRecordSchema, type BreakoutState, type OutcomeItem, type SignalRecord } from '../domain/signal';
import { round } from '../kernels/round';
import { ledgerEntries, type LedgerEntryView } from '../ledger/serialize';
import type { Logger } from '../log';
import type { MarketData } from '../market-data';
import { batches, type KernelPool } from '../pool';
import type { BarStore } from '../store';

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
  /** Signals the kernel refused (e.g. an entry already beyond its target); left unresolved, named in the log. */
  unresolvable: number;
}

const TERMINAL_SCRATCH: ReadonlySet<BreakoutState> = new Set(['failed', 'expired']);
const iso = (ts: number) => new Date(ts).toISOString();
const signalRecordOf = storedAs(SignalRecordSchema);
const recordOf = (view: LedgerEntryView): SignalRecord => signalRecordOf(view.signal, `ledger record ${view.seq}`);

/** The entry rule above: an item for the pool, a never-entered scratch, or null while still pending. */
function plan(view: LedgerEntryView): { item: OutcomeItem } | { neverEntered: { at: string; state: string } } | null {
  const s = recordOf(view);
  if (s.stopLoss === null) return null;
  const terminal = view.events.find((e) => TERMINAL_SCRATCH.has(e.to));
  let entry = s.priceAtDetection;
  let entryTs = Date.parse(s.surfacedAt);
  if (s.state === 'forming') {
    const triggered = view.events.find((e) => e.to === 'triggered');
    if (!triggered) return terminal ? { neverEntered: { at: terminal.at, state: terminal.to } } : null;
    entry = triggered.price;
    entryTs = Date.parse(triggered.at);
  }
  return {
    item: {
      signalId: String(view.signal.id),
      symbol: s.symbol,
      timeframe: s.timeframe,
      direction: s.direction,
      entry,
      entryTs,
      target1: s.target1,
      stopLoss: s.stopLoss,
      ...(terminal ? { state: terminal.to, stateTs: Date.parse(terminal.at) } : {}),
    },
  };
}

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
  const views = ledgerEntries(pending, await deps.ledger.followUps(pending.map((r) => r.signalId)));
  const byId = new Map(views.map((v) => [String(v.signal.id), v]));
  const appends: LedgerEntry[] = [];
  const items: OutcomeItem[] = [];
  for (const view of views) {
    const planned = plan(view);
    if (planned === null) {
      run.stillOpen++;
    } else if ('neverEntered' in planned) {
      const s = recordOf(view);
      appends.push(
        outcomeEntry(view, {
          outcome: 'scratch',
          entered: false,
          note: `${planned.neverEntered.state} before crossing its trigger: never entered`,
          entry: s.triggerPrice,
          exitPrice: s.triggerPrice,
          exitAt: planned.neverEntered.at,
          rMultiple: 0,
          mfeR: 0,
          maeR: 0,
          mfePct: 0,
          maePct: 0,
          barsHeld: 0,
          daysHeld: 0,
        }),
      );
    } else items.push(planned.item);
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
    appends.push(
      outcomeEntry(byId.get(r.signalId)!, {
        outcome: o.outcome,
        entered: true,
        entry: item.entry,
        entryAt: iso(item.entryTs),
        exitPrice: round(o.exitPrice, 4),
        exitAt: iso(o.exitTs),
        rMultiple: round(o.rMultiple, 4),
        mfeR: round(o.mfeR, 4),
        maeR: round(o.maeR, 4),
        mfePct: round(o.mfePct, 4),
        maePct: round(o.maePct, 4),
        barsHeld: o.barsHeld,
        daysHeld: o.daysHeld,
      }),
    );
  }
  if (appends.length > 0) run.resolved = (await deps.ledger.append(appends)).length;
  return run;
}
