/**
 * bench/calibration-record: bench/calibration's record tables — by band,
 * direction × band, pattern, market regime and year — each group's ledger hit
 * rate and mean R, its price-label hit rate, and the lift over both matched
 * baselines (same-day and year-matched), every interval a weekly cluster
 * bootstrap (ledger/record-figures, the scorecard's own definitions). The
 * calibration tables of docs/calibration.md are written from here (`--readme docs/calibration.md`
 * replaces the text between its markers), never by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { SCORE_BANDS } from '../src/domain/signal';
import { recordFigures, recordFiguresBy, statisticOf, type Estimate, type RecordFigures } from '../src/ledger/record-figures';
import type { Trade } from './calibration-trades';

const day = (t: Trade) => t.detectedAt.slice(0, 10);

/** Band order of the direction × band rows: long bands, then short bands. */
const DIRECTION_BANDS = ['long', 'short'].flatMap((d) => SCORE_BANDS.map((b) => `${d} ${b}`));

/** The record tables of the trades detected after `split` (out of sample); years over every trade. */
export function recordTables(trades: readonly Trade[], split: string) {
  const out = trades.filter((t) => day(t) > split);
  return {
    split,
    all: recordFigures(out),
    bands: recordFiguresBy(out, (t) => t.band, SCORE_BANDS),
    directionBands: recordFiguresBy(out, (t) => `${t.direction} ${t.band}`, DIRECTION_BANDS),
    directions: recordFiguresBy(out, (t) => t.direction),
    patterns: recordFiguresBy(out, (t) => t.patternType),
    regimes: recordFiguresBy(out, (t) => t.regime ?? 'unknown'),
    years: recordFiguresBy(trades, (t) => t.detectedAt.slice(0, 4)),
  };
}

export type RecordTables = ReturnType<typeof recordTables>;

const num = (x: number | null, digits: number, scale = 1) => (x === null ? '—' : (scale * x).toFixed(digits).replace('-', '−'));
const signed = (x: number | null, digits: number, scale = 1) => (x === null ? '—' : `${x >= 0 ? '+' : ''}${num(x, digits, scale)}`);
const interval = (e: Estimate, digits: number, scale: number, sign: boolean) => {
  const f = sign ? signed : num;
  return `${f(e.value, digits, scale)} [${f(e.lower, digits, scale)}, ${f(e.upper, digits, scale)}]`;
};
const pctCell = (e: Estimate) => `${interval(e, 1, 100, false).replace(' [', '% [')}`;

/** One table row per group: the columns of the README's table. */
export function recordRows(groups: Readonly<Record<string, RecordFigures>>): Record<string, string | number>[] {
  return Object.entries(groups).map(([group, f]) => ({
    group,
    N: f.trades,
    weeks: f.weeks,
    'hit rate (ledger)': pctCell(f.hitRate),
    'mean R': interval(f.meanR, 3, 1, true),
    scratches: f.scratchShare === null ? '—' : `${num(f.scratchShare, 1, 100)}%`,
    'hit (prices)': f.priceHitRate.value === null ? '—' : `${num(f.priceHitRate.value, 1, 100)}%`,
    'same-day hit': f.sameDay.hitRate === null ? '—' : `${num(f.sameDay.hitRate, 1, 100)}%`,
    'same-day lift (pp)': interval(f.sameDay.lift, 1, 100, true),
    'year-matched hit': f.yearMatched.hitRate === null ? '—' : `${num(f.yearMatched.hitRate, 1, 100)}%`,
    'year-matched lift (pp)': interval(f.yearMatched.lift, 1, 100, true),
  }));
}

/** Rows as a markdown table. */
export function markdownTable(rows: readonly Record<string, string | number>[]): string {
  if (rows.length === 0) return '';
  const cols = Object.keys(rows[0]!);
  const line = (cells: (string | number)[]) => `| ${cells.map((c) => (typeof c === 'number' ? c.toLocaleString('en-US') : c)).join(' | ')} |`;
  return [line(cols), `|${cols.map(() => '---').join('|')}|`, ...rows.map((r) => line(cols.map((c) => r[c] ?? '')))].join('\n');
}

/** Bulkowski's published bull-market figures beside our per-pattern base rates, each with the page it was read from (docs/calibration.md). */
export const BULKOWSKI: Readonly<Record<string, [figures: string, source: string]>> = {
  ascending_triangle: ['up breakouts: break-even failure 13%, average rise 35%, 75% meet target (2nd ed.); 1st ed. (725 patterns, 1991–96): 89% meet target', 'wealthv.com/charting/Patterns/at.html (a copy of thepatternsite.com\'s page); wealthv.com/charting/bpt/AscendTrig.html'],
  bear_flag: ['flags, down breakouts: break-even failure 2%, average decline 16%, 47% meet target', 'wealthv.com/charting/Patterns/flags.html (copy of thepatternsite.com\'s)'],
  bull_flag: ['flags, up breakouts: break-even failure 4%, average rise 23%, 64% meet target', 'same page'],
  cup_with_handle: ['break-even failure 5%, average rise 54%, 61% meet target (913 trades; 3rd ed.)', 'thepatternsite.com/cup.html'],
  descending_triangle: ['down breakouts: break-even failure 23%, average decline 15%, 50% meet target (statistics of 4/22/2019)', 'thepatternsite.com/dt.html'],
  donchian_55: ['— (not a Bulkowski pattern)', ''],
  double_bottom: ['Adam & Adam: break-even failure 16%, average rise 39%, 73% meet target (1,154 trades; 3rd ed.). He splits double bottoms four ways; ours is not split', 'thepatternsite.com/aadb.html'],
  flat_base: ["— (O'Neil's base; no Bulkowski page with figures for it was found)", ''],
  gap_and_go: ['— (not a Bulkowski chart pattern; his gap statistics are for other gap types and were not found in a comparable form)', ''],
  high_tight_flag: ['break-even failure 0%, average rise 69%, 90% meet target (2nd ed.); his later update ranks it 43 of 56, "not nearly as good"', 'wealthv.com/charting/Patterns/htf.html (copy of thepatternsite.com\'s); thepatternsite.com/HTFStudy.html'],
  new_high_52w: ['— (not a Bulkowski pattern)', ''],
  range_breakdown: ['rectangle top, down breakouts: break-even failure 11%, average decline 17%, 63% meet target; rectangle bottom, down: 16%, 14%, 50% (2nd ed.)', 'wealthv.com/charting/Patterns/recttops.html, rectbots.html (copies of thepatternsite.com\'s)'],
  range_breakout: ['rectangle top, up breakouts: break-even failure 9%, average rise 39%, 80% meet target; rectangle bottom, up: 10%, 46%, 85% (2nd ed.)', 'same pages'],
  vcp: ["— (Minervini's pattern, not a Bulkowski one)", ''],
};

/** The per-pattern base rates over every trade (ledger outcomes, prices, both baselines) beside Bulkowski's figures. */
export function patternRows(trades: readonly Trade[]): Record<string, string | number>[] {
  const groups = Map.groupBy(trades, (t) => t.patternType);
  return [...groups.keys()].sort().map((pattern) => {
    const ts = groups.get(pattern)!;
    const f = recordFigures(ts);
    const days = ts.map((t) => t.daysHeld).sort((a, b) => a - b);
    const [bulkowski, source] = BULKOWSKI[pattern] ?? ['—', ''];
    return {
      pattern,
      N: f.trades,
      'hit rate': `${num(f.hitRate.value, 1, 100)}%`,
      'mean R': signed(f.meanR.value, 3),
      'median days held': days[Math.floor((days.length - 1) / 2)]!,
      'hit (prices)': `${num(f.priceHitRate.value, 1, 100)}%`,
      'same-day hit': `${num(f.sameDay.hitRate, 1, 100)}%`,
      'year-matched hit': `${num(f.yearMatched.hitRate, 1, 100)}%`,
      'Bulkowski (bull market)': bulkowski,
      source,
    };
  });
}

/** What bench/calibration hands the README blocks besides the record tables. */
export interface ReadmeInputs {
  from: string;
  to: string;
  trades: readonly Trade[];
  /** `confidence` judged out of sample against the ledger's win (bench/calibration `evaluate().ledgerLabel`). */
  confidence: { brier: number; reference: number; skill: number; baseRate: number; testTrades: number; reliability: { from: number; to: number; n: number; predicted: number; observed: number; lower: number; upper: number }[] };
}

/** The README's blocks, by name: the record tables, the confidence check, the per-pattern base rates. */
export function readmeBlocks(tables: RecordTables, inputs: ReadmeInputs): Record<ReadmeBlock, string> {
  const bandRows = recordRows({ ...tables.bands, all: tables.all, ...tables.directionBands });
  const c = inputs.confidence;
  const outOfSample = inputs.trades.filter((t) => day(t) > tables.split);
  const two = (x: number) => x.toFixed(2);
  return {
    record: [
      `Out of sample: the ${tables.all.trades.toLocaleString('en-US')} entered trades detected after ${tables.split} (of ${inputs.trades.length.toLocaleString('en-US')} replayed ${inputs.from} .. ${inputs.to}); every interval is a 95% weekly cluster-bootstrap interval (1,000 resamples over the ${tables.all.weeks} entry weeks, seed 32).`,
      '',
      markdownTable(bandRows),
      '',
      'By the market regime when the signal was surfaced (out of sample):',
      '',
      markdownTable(recordRows(tables.regimes)),
    ].join('\n'),
    confidence: [
      `\`confidence\` (P(win) of the fitted model) out of sample, against the ledger's win: Brier ${c.brier.toFixed(4)} against ${c.reference.toFixed(4)} for the training base rate ${num(c.baseRate, 1, 100)}% predicted for all (skill ${signed(c.skill, 3)}; ${c.testTrades.toLocaleString('en-US')} trades). Reliability, by decile of \`confidence\` (ties at 2 decimals make the deciles uneven):`,
      '',
      markdownTable(
        c.reliability.map((b, i) => {
          // The bin's trades (bins keep ties together, so [from, to] ranges do not overlap), for a weekly cluster interval.
          const observed = statisticOf(
            outOfSample.filter((t) => t.confidence >= b.from && t.confidence <= b.to),
            'hitRate',
          );
          return {
            'decile of confidence (out of sample)': `${i + 1} (${b.from === b.to ? two(b.from) : `${two(b.from)}–${two(b.to)}`})`,
            N: b.n,
            predicted: `${num(b.predicted, 1, 100)}%`,
            'observed [weekly cluster 95%]': `${num(observed.value, 1, 100)}% [${num(observed.lower, 1, 100)}, ${num(observed.upper, 1, 100)}]`,
          };
        }),
      ),
    ].join('\n'),
    patterns: markdownTable(patternRows(inputs.trades)),
  };
}

export const README_BLOCKS = ['record', 'confidence', 'patterns'] as const;
export type ReadmeBlock = (typeof README_BLOCKS)[number];

/** The markers around block `name` in the README. */
export const markers = (name: ReadmeBlock) =>
  [`<!-- bench/calibration ${name}: begin (written by \`bun run bench/calibration.ts --reuse --trades trades.json --readme docs/calibration.md\`; do not edit by hand) -->`, `<!-- bench/calibration ${name}: end -->`] as const;

/** Replaces each block between its markers in the README; throws when a pair of markers is missing. */
export function writeReadme(path: string, blocks: Readonly<Record<ReadmeBlock, string>>): void {
  let text = readFileSync(path, 'utf8');
  for (const name of README_BLOCKS) {
    const [begin, end] = markers(name);
    const a = text.indexOf(begin);
    const b = text.indexOf(end);
    if (a < 0 || b < a) throw new Error(`${path}: the markers of the ${name} block are missing (${begin} … ${end})`);
    text = `${text.slice(0, a)}${begin}\n\n${blocks[name]}\n\n${text.slice(b)}`;
  }
  writeFileSync(path, text);
}
