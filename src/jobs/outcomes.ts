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
 *
 * An entry that is not strictly between the record's stop and target1 (a long
 * entered at or above its target or at or below its stop; a record without a
 * stop) left no trade to take: the setup had already ended when a follower
 * could act. Such a record resolves at once as a scratch that was never
 * entered, at its entry price and time, R 0, with a note naming the level it
 * had passed. It counts in no hit rate or R figure (as a forming signal that
 * expired before its trigger), and is neither a win credited with a move no
 * follower could take nor a loss never risked. Issue 14 found 61 such records
 * in a replay of 2022–24 (signals surfaced `triggered`/`confirmed` with the
 * close already past target1); the scan no longer surfaces them (kernels/scan
 * `stillATrade`), but a forming signal can still trigger on a close past its
 * target, and ledgers written before keep theirs: the job appends their
 * outcome the same way, never touching the record itself.
 */
import type { LedgerEntry, LedgerRepository } from '../db/repositories/ledger';
import { storedAs } from '../domain/check';
import { SignalRecordSchema, type BreakoutState, type OutcomeItem, type SignalRecord } from '../domain/signal';
import { insideLevels } from '../kernels/levels';
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
  /** Signals whose bars could not be read (none for the symbol, or ending before the entry) or that the kernel refused; left unresolved, named in the log. */
  unresolvable: number;
}

const TERMINAL_SCRATCH: ReadonlySet<BreakoutState> = new Set(['failed', 'expired']);
const iso = (ts: number) => new Date(ts).toISOString();
const signalRecordOf = storedAs(SignalRecordSchema);
const recordOf = (view: LedgerEntryView): SignalRecord => signalRecordOf(view.signal, `ledger record ${view.seq}`);

/** A signal resolved without a trade: never entered, at `at`, at `price` (R 0). */
interface NotEntered {
  at: string;
  price: number;
  note: string;
}

/** The entry rule above: an item for the pool, a record that was never entered, or null while still pending. */
function plan(view: LedgerEntryView): { item: OutcomeItem } | { notEntered: NotEntered } | null {
  const s = recordOf(view);
  const terminal = view.events.find((e) => TERMINAL_SCRATCH.has(e.to));
  let entry = s.priceAtDetection;
  let entryAt = s.surfacedAt;
  if (s.state === 'forming') {
    const triggered = view.events.find((e) => e.to === 'triggered');
    if (!triggered) {
      return terminal ? { notEntered: { at: terminal.at, price: s.triggerPrice, note: `${terminal.to} before crossing its trigger: never entered` } } : null;
    }
    entry = triggered.price;
    entryAt = triggered.at;
  }
  const stopLoss = s.stopLoss ?? Number.NaN;
  if (!insideLevels(s.direction, entry, stopLoss, s.target1)) return { notEntered: { at: entryAt, price: entry, note: passedLevelNote(s, entry) } };
  return {
    item: {
      signalId: String(view.signal.id),
      symbol: s.symbol,
      timeframe: s.timeframe,
      direction: s.direction,
      entry,
      entryTs: Date.parse(entryAt),
      target1: s.target1,
      stopLoss,
      ...(terminal ? { state: terminal.to, stateTs: Date.parse(terminal.at) } : {}),
    },
  };
}

/** Why an entry outside the levels left no trade: "entry 55.97 already at or beyond target1 53.93: no trade to take". */
function passedLevelNote(s: SignalRecord, entry: number): string {
  if (s.stopLoss === null) return `no stop: no risk to measure R by`;
  const long = s.direction === 'long';
  const pastTarget = long ? entry >= s.target1 : entry <= s.target1;
  const level = pastTarget ? `target1 ${s.target1}` : `its stop ${s.stopLoss}`;
  return `entry ${round(entry, 4)} already at or ${pastTarget ? 'beyond' : 'through'} ${level}: the setup had ended, no trade to take`;
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
    } else if ('notEntered' in planned) {
      const { at, price, note } = planned.notEntered;
      appends.push(
        outcomeEntry(view, {
          outcome: 'scratch',
          entered: false,
          note,
          entry: price,
          exitPrice: price,
          exitAt: at,
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
