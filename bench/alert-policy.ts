/**
 * bench/alert-policy: each block reason of the alert policy judged by the
 * record (docs/alert-policy.md holds the criterion, committed before the
 * figures were looked at). Reads bench/failure-rule's trades of today's
 * lifecycle (`--gather trigger-1%`, a replay of 2005–2017): the entered
 * trades whose signal was alert-eligible when surfaced, split by the policy's
 * verdict then — let through, or blocked by each reason — on 2005–2012 and on
 * 2013–2016 (trades detected later are dropped as the file is read; 2017–2024
 * is not used). Per group: N, ledger hit rate, mean R, same-day lift (price
 * label vs same-day random entries); per reason the differences let through −
 * blocked, weekly cluster-bootstrap intervals (2,000 resamples, seed 32).
 *
 *   bun run bench/alert-policy.ts --trades fr-trigger-1.json [--out alert-policy.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { AlertBlock } from '../src/domain/signal';
import { differenceOf, statisticOf, type Estimate } from '../src/ledger/record-figures';
import { attachBaselines, csvSymbols, loadSeries, type Gathered, type Trade } from './calibration-trades';
import { CHOOSE, DECISION_BOOTSTRAP, JUDGE } from './failure-rule';
import { printTable, realCsvDir } from './lib';

export const REASONS: readonly AlertBlock[] = ['earnings', 'illiquid', 'extended', 'regime', 'cooldown'];

/** The fewest blocked trades a reason needs in a period to be an edge rule or to be changed. */
export const MIN_BLOCKED = 100;

export interface ReasonFigures {
  reason: string;
  blocked: number;
  letThrough: number;
  blockedMeanR: Estimate;
  letThroughMeanR: Estimate;
  blockedLift: Estimate;
  letThroughLift: Estimate;
  /** let through − blocked. */
  meanRDifference: Estimate;
  liftDifference: Estimate;
}

/** Each reason's figures on one period's alert-eligible trades. */
export function reasonFigures(trades: readonly Trade[]): ReasonFigures[] {
  const letThrough = trades.filter((t) => t.alert.verdict === 'candidate');
  const b = DECISION_BOOTSTRAP;
  return REASONS.map((reason) => {
    const blocked = trades.filter((t) => t.alert.verdict === 'blocked' && t.alert.codes.includes(reason));
    return {
      reason,
      blocked: blocked.length,
      letThrough: letThrough.length,
      blockedMeanR: statisticOf(blocked, 'meanR', b),
      letThroughMeanR: statisticOf(letThrough, 'meanR', b),
      blockedLift: statisticOf(blocked, 'sameDayLift', b),
      letThroughLift: statisticOf(letThrough, 'sameDayLift', b),
      meanRDifference: differenceOf(blocked, letThrough, 'meanR', b),
      liftDifference: differenceOf(blocked, letThrough, 'sameDayLift', b),
    };
  });
}

export type Verdict = 'edge rule' | 'changed' | 'risk rule';

/** The criterion (docs/alert-policy.md): edge rule, changed, or risk rule, from both periods' figures. */
export function verdictOf(periods: readonly ReasonFigures[]): Verdict {
  const enough = periods.every((p) => p.blocked >= MIN_BLOCKED);
  if (enough && periods.every((p) => (p.meanRDifference.lower ?? -Infinity) > 0)) return 'edge rule';
  if (enough && periods.every((p) => (p.meanRDifference.upper ?? Infinity) < 0)) return 'changed';
  return 'risk rule';
}

const cell = (e: Estimate, digits = 3, scale = 1) => (e.value === null ? '—' : `${(scale * e.value).toFixed(digits)} [${(scale * (e.lower ?? NaN)).toFixed(digits)}, ${(scale * (e.upper ?? NaN)).toFixed(digits)}]`);

if (import.meta.main) {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { trades: { type: 'string' }, out: { type: 'string' } } });
  const real = realCsvDir();
  if (!real || !values.trades) {
    console.log('bench/alert-policy: needs shared/data and --trades <bench/failure-rule --gather trigger-1% file>');
    process.exit(0);
  }
  const gathered = JSON.parse(readFileSync(values.trades, 'utf8')) as Gathered;
  if (gathered.failure && gathered.failure.kind !== 'trigger') throw new Error(`${values.trades}: not today's lifecycle (${JSON.stringify(gathered.failure)})`);
  // Alert-eligible trades detected to the end of the validation years; later ones are dropped here.
  const eligible = gathered.trades.filter((t) => t.alert.verdict !== 'not_eligible' && t.detectedAt.slice(0, 10) <= JUDGE.to);
  const universe = csvSymbols(real.dir);
  await attachBaselines(eligible, { dir: real.dir, matches: 5, universe, series: await loadSeries(real.dir, universe) });
  const inPeriod = (p: { from: string; to: string }) => eligible.filter((t) => t.detectedAt.slice(0, 10) >= p.from && t.detectedAt.slice(0, 10) <= p.to);
  const choose = reasonFigures(inPeriod(CHOOSE));
  const judge = reasonFigures(inPeriod(JUDGE));
  for (const [title, figures] of [[`${CHOOSE.from} .. ${CHOOSE.to}`, choose], [`${JUDGE.from} .. ${JUDGE.to}`, judge]] as const) {
    printTable(
      `Alert policy, trades detected ${title}: blocked by each reason vs let through (weekly cluster bootstrap, 95%)`,
      figures.map((f) => ({
        reason: f.reason,
        'blocked N': f.blocked,
        'let through N': f.letThrough,
        'blocked mean R': cell(f.blockedMeanR),
        'let through mean R': cell(f.letThroughMeanR),
        'let through − blocked, mean R': cell(f.meanRDifference),
        'blocked same-day lift (pp)': cell(f.blockedLift, 1, 100),
        'let through same-day lift (pp)': cell(f.letThroughLift, 1, 100),
        'let through − blocked, lift (pp)': cell(f.liftDifference, 1, 100),
      })),
    );
  }
  const verdicts = REASONS.map((reason, k) => ({ reason, verdict: verdictOf([choose[k]!, judge[k]!]) }));
  printTable('Verdicts (docs/alert-policy.md)', verdicts);
  if (values.out) writeFileSync(values.out, JSON.stringify({ choose, judge, verdicts }, null, 1));
}
