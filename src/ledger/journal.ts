/**
 * @module ledger/journal
 * A user's journal trades as figures, by the ledger's own definitions where
 * they apply (ledger/performance, kernels/stats):
 *
 * ```
 * pnl          = (exit − entry) × size × (+1 long, −1 short) − fees
 * returnPct    = 100 × (exit − entry) ÷ entry × (+1 long, −1 short)        (before fees)
 * initialRisk  = |entry − stop| × size        stop: the linked signal's stopLoss
 * rMultiple    = pnl ÷ initialRisk            (fees count against R)
 * holdingDays  = calendar days from entry to exit (UTC days, as the ledger's daysHeld)
 * ```
 *
 * The summary: win rate (pnl > 0) over closed entries with its Wilson
 * interval; P&L total, mean (Student-t interval), expectancy per trade and
 * profit factor (kernels/stats over P&L instead of R); and, over the entries
 * whose linked signal gives a stop, the scorecard's R figures
 * (`performance` of ledger/performance, so the same definitions as
 * /api/scorecard). An entry without an exit is open and in no figure.
 */
import type { StoredJournalEntry } from '../db/repositories/journal';
import { expectancy, meanInterval, profitFactor, wilsonInterval } from '../kernels/stats';
import { round } from '../kernels/round';
import { performance, type Performance, type Trade } from './performance';
import { csvLine } from './serialize';

const DAY_MS = 86_400_000;

export interface JournalFigures {
  status: 'open' | 'closed';
  pnl: number | null;
  returnPct: number | null;
  /** The linked signal's stop, when there is one. */
  stopLoss: number | null;
  initialRisk: number | null;
  rMultiple: number | null;
  holdingDays: number | null;
}

export type JournalTrade = StoredJournalEntry & JournalFigures;

const finite = (x: number, digits: number): number | null => (Number.isFinite(x) ? round(x, digits) : null);

/** An entry's figures; `stopLoss` is its linked signal's stop (null without one). */
export function journalFigures(entry: StoredJournalEntry, stopLoss: number | null): JournalFigures {
  const sign = entry.side === 'long' ? 1 : -1;
  const initialRisk = stopLoss === null ? null : Math.abs(entry.entryPrice - stopLoss) * entry.size;
  const risk = initialRisk !== null && initialRisk > 0 ? round(initialRisk, 6) : null;
  if (entry.exitPrice === null || entry.exitAt === null) {
    return { status: 'open', pnl: null, returnPct: null, stopLoss, initialRisk: risk, rMultiple: null, holdingDays: null };
  }
  const pnl = (entry.exitPrice - entry.entryPrice) * entry.size * sign - entry.fees;
  return {
    status: 'closed',
    pnl: round(pnl, 6),
    returnPct: finite((100 * sign * (entry.exitPrice - entry.entryPrice)) / entry.entryPrice, 4),
    stopLoss,
    initialRisk: risk,
    rMultiple: risk === null ? null : finite(pnl / risk, 4),
    holdingDays: Math.floor(entry.exitAt.getTime() / DAY_MS) - Math.floor(entry.entryAt.getTime() / DAY_MS),
  };
}

export interface JournalSummary {
  entries: number;
  open: number;
  closed: number;
  wins: number;
  losses: number;
  breakeven: number;
  winRate: number | null;
  winRateInterval: { lower: number | null; upper: number | null };
  pnl: {
    total: number;
    fees: number;
    average: number | null;
    averageInterval: { lower: number | null; upper: number | null };
    averageWin: number | null;
    averageLoss: number | null;
    expectancy: number | null;
    profitFactor: number | null;
  };
  avgHoldingDays: number | null;
  /** Closed entries without a linked signal's stop (in the P&L figures, not in `r`). */
  withoutStop: number;
  /** The scorecard's figures over entries whose linked signal gives a stop. */
  r: Performance;
}

/** The ledger's trade shape of a journal entry (for `performance`). */
function asTrade(t: JournalTrade): Trade {
  const outcome = t.status === 'open' ? 'open' : t.pnl! > 0 ? 'win' : t.pnl! < 0 ? 'loss' : 'scratch';
  return {
    id: t.id,
    symbol: t.symbol,
    patternType: 'journal',
    scoreBand: 'journal',
    timeframe: 'journal',
    direction: t.side,
    regime: 'unknown',
    alert: null,
    confidence: null,
    levels: null,
    detectedAt: t.entryAt.toISOString(),
    outcome,
    entered: true,
    rMultiple: t.rMultiple,
    daysHeld: t.holdingDays,
  };
}

export function journalSummary(trades: readonly JournalTrade[]): JournalSummary {
  const closed = trades.filter((t) => t.status === 'closed');
  const pnls = closed.map((t) => t.pnl!);
  const wins = pnls.filter((p) => p > 0).length;
  const losses = pnls.filter((p) => p < 0).length;
  const rate = wilsonInterval(wins, closed.length);
  const mean = meanInterval(pnls);
  const shape = expectancy(pnls);
  const n = closed.length;
  return {
    entries: trades.length,
    open: trades.length - n,
    closed: n,
    wins,
    losses,
    breakeven: n - wins - losses,
    winRate: n ? round(wins / n, 4) : null,
    winRateInterval: n ? { lower: round(rate.lower, 4), upper: round(rate.upper, 4) } : { lower: null, upper: null },
    pnl: {
      total: round(pnls.reduce((a, b) => a + b, 0), 6),
      fees: round(trades.reduce((a, t) => a + t.fees, 0), 6),
      average: n ? finite(mean.mean, 6) : null,
      averageInterval: { lower: finite(mean.lower, 6), upper: finite(mean.upper, 6) },
      averageWin: finite(shape.averageWinR, 6),
      averageLoss: finite(shape.averageLossR, 6),
      expectancy: n ? finite(shape.expectancyR, 6) : null,
      profitFactor: n ? finite(profitFactor(pnls), 4) : null,
    },
    avgHoldingDays: n ? round(closed.reduce((a, t) => a + t.holdingDays!, 0) / n, 2) : null,
    withoutStop: closed.filter((t) => t.rMultiple === null).length,
    r: performance(trades.filter((t) => t.initialRisk !== null).map(asTrade)),
  };
}

export const JOURNAL_CSV_COLUMNS = [
  'id', 'symbol', 'side', 'entry_price', 'entry_at', 'exit_price', 'exit_at', 'size', 'fees', 'status', 'pnl', 'return_pct',
  'stop_loss', 'initial_risk', 'r_multiple', 'holding_days', 'signal_id', 'tags', 'notes',
] as const;

/** Journal trades as CSV lines (RFC 4180, as the ledger's CSV); tags joined with `;`. */
export function journalCsvRows(trades: readonly JournalTrade[]): string {
  let out = '';
  for (const t of trades) {
    out += csvLine([
      t.id, t.symbol, t.side, t.entryPrice, t.entryAt.toISOString(), t.exitPrice, t.exitAt?.toISOString(), t.size, t.fees, t.status, t.pnl, t.returnPct,
      t.stopLoss, t.initialRisk, t.rMultiple, t.holdingDays, t.signalId, t.tags.join(';'), t.notes,
    ]);
  }
  return out;
}
