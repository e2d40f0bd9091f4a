/**
 * bench/calibration-record: bench/calibration's record tables — by band,
 * direction × band, pattern, market regime and year — each group's ledger hit
 * rate and mean R, its price-label hit rate, and the lift over both matched
 * baselines (same-day and year-matched), every interval a weekly cluster
 * bootstrap (ledger/record-figures, the scorecard's own definitions). The
 * README's calibration table is written from here (`--readme README.md`
 * replaces the text between its markers), never by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { SCORE_BANDS } from '../src/domain/signal';
import { recordFigures, recordFiguresBy, type Estimate, type RecordFigures } from '../src/ledger/record-figures';
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

export const README_BEGIN = '<!-- bench/calibration record tables: begin (written by `bun run bench/calibration.ts --reuse --trades trades.json --readme README.md`; do not edit by hand) -->';
export const README_END = '<!-- bench/calibration record tables: end -->';

/** The README's block: the band × direction table and the regime table, out of sample, with the command and range. */
export function readmeBlock(tables: RecordTables, meta: { from: string; to: string; trades: number }): string {
  const bandRows = recordRows({ ...tables.bands, all: tables.all, ...tables.directionBands });
  return [
    README_BEGIN,
    '',
    `Out of sample: the ${tables.all.trades.toLocaleString('en-US')} entered trades detected after ${tables.split} (of ${meta.trades.toLocaleString('en-US')} replayed ${meta.from} .. ${meta.to}); intervals are 95% weekly cluster-bootstrap intervals (1,000 resamples over the ${tables.all.weeks} entry weeks, seed 32).`,
    '',
    markdownTable(bandRows),
    '',
    'By the market regime when the signal was surfaced (out of sample):',
    '',
    markdownTable(recordRows(tables.regimes)),
    '',
    README_END,
  ].join('\n');
}

/** Replaces the README's block between the markers; throws when the markers are missing. */
export function writeReadme(path: string, block: string): void {
  const text = readFileSync(path, 'utf8');
  const a = text.indexOf(README_BEGIN);
  const b = text.indexOf(README_END);
  if (a < 0 || b < a) throw new Error(`${path}: the calibration markers are missing (${README_BEGIN} … ${README_END})`);
  writeFileSync(path, text.slice(0, a) + block + text.slice(b + README_END.length));
}
