/**
 * @module ledger/record-summary
 * The record section of the scorecard and the monthly rollup, from closed
 * daily trades that carry both baselines (kernels/baseline-match): the
 * figures of ledger/record-figures overall and by band, pattern, direction,
 * year and market regime; the alert policy's record (per block reason, the
 * signals it blocked beside those it let through); and the `edge` statement,
 * one plain sentence computed from the same-day lifts of the bands.
 *
 * Pure and synchronous: it runs in the worker pool (workers/record), never on
 * a request's thread.
 */
import { ALERT_BLOCKS, SCORE_BANDS, type AlertBlock } from '../domain/signal';
import type { FieldKind } from './packed-rows';
import { differenceOf, recordFigures, recordFiguresBy, type Estimate, type RecordFigures, type RecordTrade } from './record-figures';

/** How a summary trade crosses to the worker (ledger/packed-rows): every field of `SummaryTrade`. */
export const SUMMARY_FIELDS = {
  priceHit: 'number', priceR: 'number', baseHits: 'number', baseN: 'number', baseSumR: 'number', sameHits: 'number', sameN: 'number', sameSumR: 'number', r: 'number',
  entryAt: 'word', outcome: 'word', scoreBand: 'word', patternType: 'word', direction: 'word', regime: 'word', alert: 'json',
} as const satisfies Record<keyof SummaryTrade, FieldKind>;

/** A closed daily trade with what the record is grouped by. */
export interface SummaryTrade extends RecordTrade {
  scoreBand: string;
  patternType: string;
  direction: string;
  regime: string;
  /** The alert policy's verdict when it was surfaced; null when its record does not say (records written before it was kept). */
  alert: { verdict: string; codes: string[] } | null;
}

/**
 * What each block reason is, as the record judged it (docs/alert-policy.md:
 * the replay 2005–2012 and, once, 2013–2016): none is an edge rule, so each is
 * served as a risk rule with what it limits.
 */
export const ALERT_RULE_KINDS: Readonly<Record<AlertBlock, { kind: 'edge rule' | 'risk rule'; note: string }>> = {
  earnings: { kind: 'risk rule', note: 'limits exposure to the gap a report can bring; the replayed record has no report dates, so it has never been judged as an edge rule' },
  illiquid: { kind: 'risk rule', note: 'limits trading where spreads and slippage the record does not charge are large; too few blocked trades in the replay to judge it as an edge rule' },
  extended: { kind: 'risk rule', note: 'limits chasing a move already made; the replayed signals it blocked did as well as those let through' },
  regime: { kind: 'risk rule', note: 'limits exposure to longs in a risk-off market; the replayed longs it blocked did as well (2005–2012) or better (2013–2016) than those let through' },
  cooldown: { kind: 'risk rule', note: 'limits repeated exposure to one name; the replayed signals it blocked did as well as those let through' },
};

export interface AlertReasonRecord {
  kind: 'edge rule' | 'risk rule';
  note: string;
  blocked: RecordFigures;
  /** Let through minus blocked: mean R, and the same-day lift (over the same resampled weeks). */
  meanRDifference: Estimate;
  liftDifference: Estimate;
}

export interface AlertPolicyRecord {
  /** Closed daily trades whose signal was alert-eligible when surfaced, and those whose record carries no verdict. */
  eligible: number;
  withoutVerdict: number;
  letThrough: RecordFigures;
  byReason: Record<string, AlertReasonRecord>;
}

/** The fewest trades a band needs for the edge statement to speak of it. */
export const EDGE_MIN_TRADES = 30;

export interface EdgeStatement {
  /** edge: some band's same-day lift interval lies above zero; none: no band's does; insufficient: too few trades. */
  verdict: 'edge' | 'none' | 'insufficient';
  statement: string;
  basis: string;
}

const pp = (x: number | null) => (x === null ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`);
const liftText = (e: Estimate) => `lift ${pp(e.value)} pp [${pp(e.lower)}, ${pp(e.upper)}]`;

/**
 * The edge statement from the bands' same-day lifts: the bands whose interval
 * lies wholly above zero, or else the best band's lift and every trade's, in
 * one sentence.
 */
export function edgeStatement(byBand: Readonly<Record<string, RecordFigures>>, all: RecordFigures): EdgeStatement {
  const basis = `same-day random entries (other index members on the entry date, same ATR(14)% quintile that day, the trade's direction and stop/target1 distances), weekly cluster-bootstrap 95% intervals; bands with at least ${EDGE_MIN_TRADES} price-labelled closed daily trades`;
  const judged = SCORE_BANDS.flatMap((band) => {
    const f = byBand[band];
    return f && f.priced >= EDGE_MIN_TRADES && f.sameDay.lift.value !== null ? [{ band, f }] : [];
  });
  if (judged.length === 0) {
    return { verdict: 'insufficient', statement: `too few closed daily trades to judge edge: no band has ${EDGE_MIN_TRADES} price-labelled trades with same-day draws (${all.priced} in all)`, basis };
  }
  const beating = judged.filter(({ f }) => (f.sameDay.lift.lower ?? -Infinity) > 0);
  const overall = `all closed daily trades ${liftText(all.sameDay.lift)} (${all.trades} trades, ${all.weeks} weeks)`;
  if (beating.length > 0) {
    return { verdict: 'edge', statement: `${beating.map(({ band, f }) => `${band} beats same-day random entries: ${liftText(f.sameDay.lift)}`).join('; ')}; ${overall}`, basis };
  }
  const best = [...judged].sort((a, b) => b.f.sameDay.lift.value! - a.f.sameDay.lift.value!)[0]!;
  return { verdict: 'none', statement: `no band beats same-day random entries: the best, ${best.band}, ${liftText(best.f.sameDay.lift)}; ${overall}`, basis };
}

/** The alert policy's record: let through vs blocked by each reason. */
export function alertPolicyRecord(trades: readonly SummaryTrade[]): AlertPolicyRecord {
  const known = trades.filter((t) => t.alert !== null);
  const eligible = known.filter((t) => t.alert!.verdict !== 'not_eligible');
  const letThrough = eligible.filter((t) => t.alert!.verdict === 'candidate');
  const byReason = Object.fromEntries(
    ALERT_BLOCKS.map((reason) => {
      const blocked = eligible.filter((t) => t.alert!.verdict === 'blocked' && t.alert!.codes.includes(reason));
      return [reason, { ...ALERT_RULE_KINDS[reason], blocked: recordFigures(blocked), meanRDifference: differenceOf(blocked, letThrough, 'meanR'), liftDifference: differenceOf(blocked, letThrough, 'sameDayLift') }];
    }),
  );
  return { eligible: eligible.length, withoutVerdict: trades.length - known.length, letThrough: recordFigures(letThrough), byReason };
}

export interface RecordSummary {
  all: RecordFigures;
  byBand: Record<string, RecordFigures>;
  byPattern: Record<string, RecordFigures>;
  byDirection: Record<string, RecordFigures>;
  byYear: Record<string, RecordFigures>;
  byRegime: Record<string, RecordFigures>;
  alertPolicy: AlertPolicyRecord;
  edge: EdgeStatement;
}

/** The whole section (see the module comment). */
export function recordSummary(trades: readonly SummaryTrade[]): RecordSummary {
  const all = recordFigures(trades);
  const byBand = recordFiguresBy(trades, (t) => t.scoreBand, SCORE_BANDS);
  return {
    all,
    byBand,
    byPattern: recordFiguresBy(trades, (t) => t.patternType),
    byDirection: recordFiguresBy(trades, (t) => t.direction),
    byYear: recordFiguresBy(trades, (t) => t.entryAt.slice(0, 4)),
    byRegime: recordFiguresBy(trades, (t) => t.regime),
    alertPolicy: alertPolicyRecord(trades),
    edge: edgeStatement(byBand, all),
  };
}
