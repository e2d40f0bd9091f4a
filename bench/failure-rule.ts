/**
 * bench/failure-rule: the lifecycle's failure rule decided by evidence, by
 * the protocol of docs/research-protocol.md (criterion in
 * docs/failure-rule.md, committed before any candidate was judged).
 *
 * Candidates (kernels/lifecycle `FailureRule`):
 *   trigger-1%   today's rule: a close more than 1% back through the trigger
 *   atr-1.5      a close more than 1.5 ATR(14) (of the pattern's last bar) back through the trigger
 *   base-0.5     a close back inside the base, past its middle (half its depth below the trigger)
 *   none         no failure rule: only the stop or target1 ends a trade
 *
 *   bun run bench/failure-rule.ts --gather atr-1.5 --trades fr-atr.json     # replay 2005-01-01..2017-12-29 under the rule
 *   bun run bench/failure-rule.ts --choose --trades fr-trigger.json,fr-atr.json,fr-base.json,fr-none.json
 *   bun run bench/failure-rule.ts --judge --trades … (the same files)        # once, after the choice is committed
 *
 * `--gather` replays the real daily history (S&P 500 members of each date,
 * SPY benchmark) from 2005-01-01 to 2017-12-29 only: 2017–2024 is not used
 * for this decision (the last year is there so that trades detected in 2016
 * can resolve). `--choose` reads trades detected 2005-01-01..2012-12-31 and
 * drops the rest as the files are read; `--judge` reads those detected
 * 2013-01-01..2016-12-31 only. Both print each candidate's figures (ledger
 * hit rate, mean R, scratch share, same-day lift) with weekly cluster-bootstrap
 * intervals and apply the criterion of docs/failure-rule.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { atr1d } from '../src/kernels/indicators/atr';
import { failureLevel, type FailureRule } from '../src/kernels/lifecycle';
import type { Ohlcv } from '../src/kernels/ohlcv';
import { differenceOf, statisticOf, type Estimate, type StatisticName } from '../src/ledger/record-figures';
import { indexAtOrBefore } from '../workers/store';
import { attachBaselines, csvSymbols, gatherTrades, loadSeries, type Gathered, type Trade } from './calibration-trades';
import { printTable, realCsvDir } from './lib';

/** The candidates, by name (docs/failure-rule.md). */
export const CANDIDATES: Readonly<Record<string, FailureRule>> = {
  'trigger-1%': { kind: 'trigger', buffer: 0.01 },
  'atr-1.5': { kind: 'atr', multiple: 1.5 },
  'base-0.5': { kind: 'base', fraction: 0.5 },
  none: { kind: 'none' },
};

/** The incumbent: today's rule. */
export const INCUMBENT = 'trigger-1%';

/** The replay's range: training and validation years, and one more year for their trades to resolve. */
export const GATHER_FROM = '2005-01-01';
export const GATHER_TO = '2017-12-29';

/** The periods of the decision (by detection date): the choice, then the one judgement. */
export const CHOOSE = { from: '2005-01-01', to: '2012-12-31' } as const;
export const JUDGE = { from: '2013-01-01', to: '2016-12-31' } as const;

/** The bootstrap of the decision (docs/failure-rule.md). */
export const DECISION_BOOTSTRAP = { resamples: 2000, seed: 32 } as const;

/** Draws per trade of the same-day baseline. */
const MATCHES = 5;

/**
 * The failure level's distance from each trade's entry as a fraction of it
 * under `rule` (kernels/lifecycle `failureLevel`, with the ATR(14) of the
 * pattern's last bar and its depth), for random entries held the same way;
 * null without a failure rule.
 */
export function failFractions(trades: readonly Trade[], rule: FailureRule, series: ReadonlyMap<string, Ohlcv>): (number | null)[] {
  const atr = new Map<string, Float64Array>();
  return trades.map((t) => {
    const bars = series.get(t.symbol);
    let a = atr.get(t.symbol);
    if (bars && !a) {
      atr1d(bars.high, bars.low, bars.close, (a = new Float64Array(bars.close.length)));
      atr.set(t.symbol, a);
    }
    const end = bars ? indexAtOrBefore(bars.ts, Date.parse(t.patternEnd)) : -1;
    const level = failureLevel(rule, { direction: t.direction, trigger: t.trigger }, { atr: end >= 0 ? a![end] : undefined, depthPct: t.depthPct });
    return level === null ? null : Math.max(0, (t.direction === 'long' ? t.entry - level : level - t.entry) / t.entry);
  });
}

/** One candidate's figures on a period (docs/failure-rule.md "Figures"). */
export interface CandidateFigures {
  name: string;
  trades: number;
  hitRate: Estimate;
  meanR: Estimate;
  scratchShare: Estimate;
  sameDayLiftR: Estimate;
  sameDayLift: Estimate;
  /** Mean R minus the incumbent's, over the same resampled weeks. */
  deltaMeanR: Estimate | null;
}

export function candidateFigures(name: string, trades: readonly Trade[], incumbent: readonly Trade[] | null): CandidateFigures {
  const stat = (s: StatisticName) => statisticOf(trades, s, DECISION_BOOTSTRAP);
  return {
    name,
    trades: trades.length,
    hitRate: stat('hitRate'),
    meanR: stat('meanR'),
    scratchShare: stat('scratchShare'),
    sameDayLiftR: stat('sameDayLedgerLiftR'),
    sameDayLift: stat('sameDayLedgerLift'),
    deltaMeanR: incumbent ? differenceOf(incumbent, trades, 'meanR', DECISION_BOOTSTRAP) : null,
  };
}

/** The criterion's step 1 and 2 (docs/failure-rule.md): eligible candidates, and the chosen one (the incumbent when none is). */
export function choose(figures: readonly CandidateFigures[]): { eligible: string[]; chosen: string } {
  const incumbent = figures.find((f) => f.name === INCUMBENT);
  if (!incumbent) throw new Error(`failure-rule: the incumbent ${INCUMBENT} is not among the candidates`);
  const eligible = figures.filter((f) => f.name !== INCUMBENT && (f.deltaMeanR?.lower ?? -Infinity) > 0 && (f.sameDayLiftR.value ?? -Infinity) >= (incumbent.sameDayLiftR.value ?? Infinity));
  const best = [...eligible].sort((a, b) => (b.meanR.value ?? -Infinity) - (a.meanR.value ?? -Infinity))[0];
  return { eligible: eligible.map((f) => f.name), chosen: best?.name ?? INCUMBENT };
}

const cell = (e: Estimate | null, digits = 3, scale = 1) =>
  e && e.value !== null ? `${(scale * e.value).toFixed(digits)} [${(scale * (e.lower ?? NaN)).toFixed(digits)}, ${(scale * (e.upper ?? NaN)).toFixed(digits)}]` : '—';

/** The figures as the table docs/failure-rule.md quotes. */
export function figuresTable(title: string, figures: readonly CandidateFigures[]): void {
  printTable(
    title,
    figures.map((f) => ({
      rule: f.name,
      N: f.trades,
      'hit rate %': cell(f.hitRate, 1, 100),
      'mean R': cell(f.meanR),
      'scratch %': cell(f.scratchShare, 1, 100),
      'same-day lift R': cell(f.sameDayLiftR),
      'same-day lift hit (pp)': cell(f.sameDayLift, 1, 100),
      'Δ mean R vs trigger-1%': cell(f.deltaMeanR),
    })),
  );
}

/** Reads a candidate's trades file, keeping only trades detected in [from, to] (the rest is dropped as it is read). */
function readCandidate(file: string, period: { from: string; to: string }): { name: string; trades: Trade[] } {
  const gathered = JSON.parse(readFileSync(file, 'utf8')) as Gathered;
  const name = Object.entries(CANDIDATES).find(([, rule]) => JSON.stringify(rule) === JSON.stringify(gathered.failure ?? CANDIDATES[INCUMBENT]))?.[0];
  if (!name) throw new Error(`${file}: not a candidate's trades (failure rule ${JSON.stringify(gathered.failure)})`);
  return { name, trades: gathered.trades.filter((t) => t.detectedAt.slice(0, 10) >= period.from && t.detectedAt.slice(0, 10) <= period.to) };
}

/** Every candidate's figures on `period`, their trades' same-day draws held by their own rule. */
export async function periodFigures(dir: string, files: readonly string[], period: { from: string; to: string }, only?: readonly string[]): Promise<CandidateFigures[]> {
  const read = files.map((f) => readCandidate(f, period)).filter((c) => !only || only.includes(c.name));
  // The universe random entries are drawn from: every symbol of the data, members of the S&P 500 on the day (attachBaselines).
  const universe = csvSymbols(dir);
  const series = await loadSeries(dir, universe);
  for (const c of read) {
    const fractions = failFractions(c.trades, CANDIDATES[c.name]!, series);
    c.trades.forEach((t, k) => Object.assign(t, { failFrac: fractions[k] }));
    await attachBaselines(c.trades, { dir, matches: MATCHES, series, universe });
  }
  const incumbent = read.find((c) => c.name === INCUMBENT)?.trades ?? null;
  return read.map((c) => candidateFigures(c.name, c.trades, c.name === INCUMBENT ? null : incumbent));
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      gather: { type: 'string' },
      choose: { type: 'boolean', default: false },
      judge: { type: 'string' },
      trades: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const real = realCsvDir();
  if (!real) {
    console.log('bench/failure-rule: shared/data is not here; nothing to measure');
    process.exit(0);
  }
  if (values.gather) {
    const failure = CANDIDATES[values.gather];
    if (!failure || !values.trades) throw new Error(`--gather needs a candidate (${Object.keys(CANDIDATES).join(', ')}) and --trades <file>`);
    const gathered: Gathered = await gatherTrades({ dir: real.dir, from: GATHER_FROM, to: GATHER_TO, matches: 0, failure, onProgress: (line) => process.stderr.write(`\r${values.gather} ${line}   `) });
    writeFileSync(values.trades, JSON.stringify(gathered));
    console.log(`\n${values.gather}: ${gathered.trades.length} entered trades in ${(gathered.replayMs / 1000).toFixed(0)} s; written ${values.trades}`);
    process.exit(0);
  }
  const files = (values.trades ?? '').split(',').filter(Boolean);
  if (files.length === 0) throw new Error('--choose and --judge need --trades <file,file,…> (bench/failure-rule --gather)');
  if (values.choose) {
    const figures = await periodFigures(real.dir, files, CHOOSE);
    figuresTable(`Failure rules on the trades detected ${CHOOSE.from} .. ${CHOOSE.to} (the choice; weekly cluster bootstrap, 95%)`, figures);
    const { eligible, chosen } = choose(figures);
    console.log(`\neligible: ${eligible.length ? eligible.join(', ') : 'none'}; chosen: ${chosen}`);
    if (values.out) writeFileSync(values.out, JSON.stringify({ period: CHOOSE, figures, eligible, chosen }, null, 1));
  } else if (values.judge) {
    if (!CANDIDATES[values.judge]) throw new Error(`--judge <the chosen candidate> (${Object.keys(CANDIDATES).join(', ')})`);
    const figures = await periodFigures(real.dir, files, JUDGE, [INCUMBENT, values.judge]);
    figuresTable(`The one judgement: trades detected ${JUDGE.from} .. ${JUDGE.to} (weekly cluster bootstrap, 95%)`, figures);
    const judged = figures.find((f) => f.name === values.judge)!;
    const replaces = values.judge !== INCUMBENT && (judged.deltaMeanR?.lower ?? -Infinity) > 0;
    console.log(`\n${values.judge} ${replaces ? 'replaces' : values.judge === INCUMBENT ? 'is today\'s rule: it stays' : 'does not replace'} ${INCUMBENT}${judged.deltaMeanR ? ` (Δ mean R ${cell(judged.deltaMeanR)})` : ''}`);
    if (values.out) writeFileSync(values.out, JSON.stringify({ period: JUDGE, figures, judged: values.judge, replaces }, null, 1));
  }
}
