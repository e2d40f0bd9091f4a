/**
 * @module ledger/performance
 * Track-record figures computed from ledger entries only (DESIGN §4): counts of
 * outcomes, hit rate and mean R with weekly-clustered intervals, total R,
 * expectancy and profit factor, grouped any way.
 *
 * Definitions (the same in the monthly rollup and the scorecard):
 *
 * ```
 * closed    = entered signals with a final outcome (win, loss or scratch)
 * hitRate   = wins ÷ closed                     95% interval, trades clustered by week of detection
 * avgR      = Σ R ÷ closed                      95% interval, trades clustered by week of detection
 * totalR    = Σ R over closed
 * expectancyR, profitFactor: kernels/stats/trades (Tharp), over closed R
 * ```
 *
 * A signal that failed or expired before crossing its trigger was never
 * entered: it is counted (`neverEntered`) but is no trade, so it is in no rate
 * or R figure. Open signals are counted and in nothing else.
 *
 * Signals detected in the same week move together (one market, one news
 * flow), so intervals that treat trades as independent (Wilson, Student-t)
 * are several times too narrow on the replayed record (issue 32). The
 * intervals here are kernels/stats/clustered's, over the closed trades summed
 * per Monday-based week of detection; below two such weeks they are null.
 */
import { yieldToEventLoop } from '../db/client';
import type { LedgerFilter, LedgerRepository } from '../db/repositories/ledger';
import { brierReport, CLUSTER_N, CLUSTER_SUM, CLUSTER_WIDTH, CLUSTER_WINS, clusteredMeanInterval, clusteredRateInterval, expectancy, profitFactor, reliabilityTable } from '../kernels/stats';
import { weekOf } from '../kernels/stats/cluster-bootstrap';
import { round } from '../kernels/round';
import { ledgerEntries, type LedgerEntryView } from './serialize';

export interface Trade {
  id: string;
  symbol: string;
  patternType: string;
  scoreBand: string;
  timeframe: string;
  direction: string;
  regime: string;
  detectedAt: string;
  /** The signal's `confidence` (0–1) as surfaced; null when the record has none. */
  confidence: number | null;
  /** An entered, closed trade's levels (for a baseline): entry and its bar time, stop, target1; else null. */
  levels: { entry: number; entryAt: string; stopLoss: number; target1: number } | null;
  /** The alert policy's verdict when it was surfaced (the record's `alert`); null on records written before it was kept. */
  alert: { verdict: string; codes: string[] } | null;
  outcome: 'open' | 'win' | 'loss' | 'scratch';
  entered: boolean;
  rMultiple: number | null;
  daysHeld: number | null;
}

export interface Interval {
  lower: number | null;
  upper: number | null;
}

export interface Performance {
  signals: number;
  open: number;
  closed: number;
  wins: number;
  losses: number;
  scratches: number;
  neverEntered: number;
  hitRate: number | null;
  hitRateInterval: Interval;
  avgR: number | null;
  avgRInterval: Interval;
  totalR: number;
  expectancyR: number | null;
  profitFactor: number | null;
  avgDaysHeld: number | null;
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const finite = (x: number, digits: number): number | null => (Number.isFinite(x) ? round(x, digits) : null);

const OPEN: LedgerEntryView['outcome'] = { outcome: 'open' };

/** A record's `alert` ({verdict, codes}) when it has one in that shape. */
function alertOf(x: unknown): Trade['alert'] {
  if (typeof x !== 'object' || x === null) return null;
  const { verdict, codes } = x as { verdict?: unknown; codes?: unknown };
  return typeof verdict === 'string' && Array.isArray(codes) ? { verdict, codes: codes.filter((c): c is string => typeof c === 'string') } : null;
}

/**
 * The trade of one signal: its data as surfaced and its outcome record's data
 * so far (`{ outcome: 'open' }` without one). With `cutoff` (an ISO time), an
 * outcome whose exit came later is still open: what could be known then.
 */
export function tradeOf(s: Record<string, unknown>, outcome: Record<string, unknown> & { outcome: string }, cutoff?: string): Trade {
  const o = cutoff !== undefined && !(typeof outcome.exitAt === 'string' && outcome.exitAt <= cutoff) ? OPEN : outcome;
  return {
    id: String(s.id),
    symbol: String(s.symbol),
    patternType: String(s.patternType),
    scoreBand: String(s.scoreBand),
    timeframe: String(s.timeframe),
    direction: String(s.direction),
    regime: typeof s.regime === 'string' ? s.regime : 'unknown',
    detectedAt: String(s.detectedAt),
    confidence: num(s.confidence),
    levels:
      o.outcome !== 'open' && o.entered !== false && num(o.entry) !== null && typeof o.entryAt === 'string' && num(s.stopLoss) !== null && num(s.target1) !== null
        ? { entry: num(o.entry)!, entryAt: o.entryAt, stopLoss: num(s.stopLoss)!, target1: num(s.target1)! }
        : null,
    alert: alertOf(s.alert),
    outcome: o.outcome as Trade['outcome'],
    entered: o.outcome !== 'open' && o.entered !== false,
    rMultiple: num(o.rMultiple),
    daysHeld: num(o.daysHeld),
  };
}

/**
 * One trade per ledger entry: the signal as surfaced and its outcome so far.
 * With `knownAt`, an outcome whose exit came later is still open: the figures
 * are what could have been known then.
 */
export function tradesOf(entries: readonly LedgerEntryView[], knownAt?: Date): Trade[] {
  const cutoff = knownAt?.toISOString();
  return entries.map((e) => tradeOf(e.signal, e.outcome, cutoff));
}

/**
 * The figures of a set of trades, added one at a time (what `performance`
 * does over a list, and the trade books over their columns: one definition).
 */
export class PerformanceTally {
  private open = 0;
  private wins = 0;
  private losses = 0;
  private scratches = 0;
  private neverEntered = 0;
  private days = 0;
  private signals = 0;
  private readonly r: number[] = [];

  /** Per Monday-based week of detection: closed trades, wins, Σ R (kernels/stats/clustered's rows). */
  private readonly weeks = new Map<number, Float64Array>();

  /** One trade; `week` is its week of detection (kernels/stats/cluster-bootstrap `weekOf` of its detectedAt). */
  add(outcome: Trade['outcome'], entered: boolean, rMultiple: number | null, daysHeld: number | null, week: number): void {
    this.signals++;
    if (outcome === 'open') this.open++;
    else if (!entered) this.neverEntered++;
    else {
      if (outcome === 'win') this.wins++;
      else if (outcome === 'loss') this.losses++;
      else this.scratches++;
      this.r.push(rMultiple ?? 0);
      this.days += daysHeld ?? 0;
      let row = this.weeks.get(week);
      if (!row) this.weeks.set(week, (row = new Float64Array(CLUSTER_WIDTH)));
      row[CLUSTER_N]!++;
      if (outcome === 'win') row[CLUSTER_WINS]!++;
      row[CLUSTER_SUM]! += rMultiple ?? 0;
    }
  }

  result(): Performance {
    const { r, wins, days } = this;
    const closed = r.length;
    const rows = new Float64Array(this.weeks.size * CLUSTER_WIDTH);
    [...this.weeks.values()].forEach((row, i) => rows.set(row, i * CLUSTER_WIDTH));
    const rate = clusteredRateInterval(rows);
    const meanR = clusteredMeanInterval(rows);
    const totalR = r.reduce((a, b) => a + b, 0);
    return {
      signals: this.signals,
      open: this.open,
      closed,
      wins,
      losses: this.losses,
      scratches: this.scratches,
      neverEntered: this.neverEntered,
      hitRate: closed ? round(wins / closed, 4) : null,
      hitRateInterval: { lower: finite(rate.lower, 4), upper: finite(rate.upper, 4) },
      avgR: closed ? round(meanR.estimate, 4) : null,
      avgRInterval: { lower: finite(meanR.lower, 4), upper: finite(meanR.upper, 4) },
      totalR: round(totalR, 4),
      expectancyR: closed ? finite(expectancy(r).expectancyR, 4) : null,
      profitFactor: closed ? finite(profitFactor(r), 4) : null,
      avgDaysHeld: closed ? round(days / closed, 2) : null,
    };
  }
}

/** The figures of a set of trades (see the module comment). */
export function performance(trades: readonly Trade[]): Performance {
  const tally = new PerformanceTally();
  for (const t of trades) tally.add(t.outcome, t.entered, t.rMultiple, t.daysHeld, weekOf(t.detectedAt));
  return tally.result();
}

export interface ConfidenceCheck {
  /** Closed trades with a confidence: the cases judged. */
  trades: number;
  /** Mean (confidence − win)², win = 1 for a win, 0 for a loss or scratch; null without trades. */
  brier: number | null;
  /** The reference: the trades' own hit rate predicted for every one, and its Brier score. */
  baseRate: number | null;
  referenceBrier: number | null;
  /** 1 − brier ÷ referenceBrier: above 0 the confidence tells more than the hit rate alone. */
  skill: number | null;
  /** Predicted vs observed by decile of confidence (ties kept together), the observed rate with its Wilson 95% interval. */
  reliability: { from: number; to: number; trades: number; predicted: number; observed: number; lower: number; upper: number }[];
}

/** How well `confidence` predicted a win over the closed trades (kernels/stats/calibration). */
export function confidenceCheck(trades: readonly Trade[]): ConfidenceCheck {
  const judged = trades.filter((t) => t.outcome !== 'open' && t.entered && t.confidence !== null);
  return confidenceOf(
    judged.map((t) => t.confidence!),
    judged.map((t) => (t.outcome === 'win' ? 1 : 0)),
  );
}

/** The confidence check of closed trades' confidences `p` and wins `y` (1 a win, 0 a loss or scratch), in trade order. */
export function confidenceOf(p: ArrayLike<number>, y: ArrayLike<number>): ConfidenceCheck {
  if (p.length === 0) return { trades: 0, brier: null, baseRate: null, referenceBrier: null, skill: null, reliability: [] };
  const b = brierReport(p, y);
  return {
    trades: p.length,
    brier: round(b.brier, 4),
    baseRate: round(b.baseRate, 4),
    referenceBrier: round(b.reference, 4),
    skill: finite(b.skill, 4),
    reliability: reliabilityTable(p, y, 10).map((bin) => ({
      from: round(bin.from, 4),
      to: round(bin.to, 4),
      trades: bin.n,
      predicted: round(bin.predicted, 4),
      observed: round(bin.observed, 4),
      lower: round(bin.lower, 4),
      upper: round(bin.upper, 4),
    })),
  };
}

/** `performance` per value of `key`, keys sorted. */
export function performanceBy(trades: readonly Trade[], key: (t: Trade) => string): Record<string, Performance> {
  const groups = Map.groupBy(trades, key);
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, performance(groups.get(k)!)]));
}

const PAGE = 5000;

/**
 * The trades of the signal records matching `filter`, read in pages of
 * `pageSize` (less on PGlite, which reads and decodes in the server's thread:
 * a turn of the loop comes between a page's reads and their parsing — 5,000
 * records at once held it ~50 ms for a cold `/api/forecast?asOf`, issue 27).
 * With `knownAt`, only signals detected by then, and outcomes exited by then.
 */
export async function tradesWhere(ledger: LedgerRepository, filter: LedgerFilter, knownAt?: Date, pageSize = PAGE): Promise<Trade[]> {
  const scoped = knownAt && (!filter.until || filter.until > knownAt) ? { ...filter, until: knownAt } : filter;
  const trades: Trade[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const { rows } = await ledger.signalRecords(scoped, pageSize, offset);
    if (rows.length === 0) break;
    await yieldToEventLoop();
    const followUps = await ledger.followUps(rows.map((r) => r.signalId));
    await yieldToEventLoop();
    trades.push(...tradesOf(ledgerEntries(rows, followUps), knownAt));
    if (rows.length < pageSize) break;
  }
  return trades;
}
