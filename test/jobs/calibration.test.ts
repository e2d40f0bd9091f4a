/**
 * bench/calibration's pipeline on a small committed real-data fixture (four
 * symbols of test/fixtures/daily_yf_dieperdev, 2022-06 .. 2023-09, NVDA as the
 * benchmark): the replay's entered trades, their price labels checked against
 * a naive first-touch loop, the matched baseline, the out-of-sample
 * judgement's counts, and its Brier score against a hand sum. The full run
 * over shared/data is `bun run bench/calibration.ts`.
 */
import { beforeAll, describe, expect, it } from 'bun:test';
import { evaluate, gatherTrades, type Trade } from '../../bench/calibration';
import { markers, README_BLOCKS, readmeBlocks, recordTables, writeReadme } from '../../bench/calibration-record';
import { fixture } from '../helpers/fixtures';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SPLIT = '2022-12-31';
let trades: Trade[];

/** The fixture's bars of `symbol`: date → [open, high, low, close]. */
function barsOf(symbol: string) {
  const lines = readFileSync(join(fixture('daily_yf_dieperdev'), `${symbol}.csv`), 'utf8').trim().split('\n').slice(1);
  return lines.map((l) => {
    const [date, open, high, low, close] = l.split(',');
    return { date: date!, open: Number(open), high: Number(high), low: Number(low), close: Number(close) };
  });
}

beforeAll(async () => {
  ({ trades } = await gatherTrades({ dir: fixture('daily_yf_dieperdev'), from: '2022-06-01', to: '2023-09-29', matches: 3, symbols: ['META', 'KO', 'SMCI', 'NVDA'], benchmark: 'NVDA' }));
});

describe('calibration on the fixture', () => {
  it('gathers entered trades with both labels, each price label as a naive first-touch loop finds it', () => {
    expect(trades.length).toBeGreaterThan(30);
    const bars = new Map(['META', 'KO', 'SMCI', 'NVDA'].map((s) => [s, barsOf(s)]));
    let checked = 0;
    for (const t of trades) {
      expect(['win', 'loss', 'scratch']).toContain(t.outcome);
      const series = bars.get(t.symbol)!;
      const at = series.findIndex((b) => b.date === t.entryAt.slice(0, 10));
      expect(at).toBeGreaterThanOrEqual(0);
      const long = t.direction === 'long';
      let label: 0 | 1 | null = null;
      for (let i = at + 1; i < series.length && label === null; i++) {
        const b = series[i]!;
        const stopped = long ? b.low <= t.stopLoss : b.high >= t.stopLoss;
        const reached = long ? b.high >= t.target1 : b.low <= t.target1;
        if (stopped) label = 0; // a bar touching both counts as the stop
        else if (reached) label = 1;
      }
      expect(t.priceHit).toBe(label);
      checked++;
    }
    expect(checked).toBe(trades.length);
    // A win in the ledger reached target1 first by prices too.
    for (const t of trades.filter((x) => x.outcome === 'win')) expect(t.priceHit).toBe(1);
  });

  it('matches every trade with random entries resolved by prices', () => {
    const matched = trades.filter((t) => t.baseN > 0);
    expect(matched.length).toBeGreaterThan(trades.length / 2);
    for (const t of matched) {
      expect(t.baseN).toBeLessThanOrEqual(3);
      expect(t.baseHits).toBeLessThanOrEqual(t.baseN);
    }
  });

  it('judges out of sample only, its counts and Brier score adding up', () => {
    const report = evaluate(trades, SPLIT);
    const labelled = trades.filter((t) => t.priceHit !== null);
    const test = labelled.filter((t) => t.detectedAt.slice(0, 10) > SPLIT);
    expect(report.trainTrades + report.testTrades).toBe(labelled.length);
    expect(report.testTrades).toBe(test.length);
    for (const bins of Object.values(report.reliability)) expect(bins.reduce((s, b) => s + b.n, 0)).toBe(test.length);
    const byHand = test.reduce((s, t) => s + (t.confidence - t.priceHit!) ** 2, 0) / test.length;
    expect(report.brier.confidence!.brier).toBeCloseTo(byHand, 12);
    const outOfSample = trades.filter((t) => t.detectedAt.slice(0, 10) > SPLIT).length;
    expect(Object.values(report.bands.outOfSample).reduce((s, f) => s + f.n, 0)).toBe(outOfSample);
    expect(report.all.outOfSample.n).toBe(outOfSample);
  });

  it('writes the record tables into a README between their markers, and nowhere else', () => {
    const record = recordTables(trades, SPLIT);
    const report = evaluate(trades, SPLIT);
    expect(record.all.trades).toBe(trades.filter((t) => t.detectedAt.slice(0, 10) > SPLIT).length);
    expect(Object.values(record.bands).reduce((s, f) => s + f.trades, 0)).toBe(record.all.trades);
    const confidence = { ...report.ledgerLabel.brier.confidence!, baseRate: report.ledgerLabel.trainBaseRate, testTrades: report.ledgerLabel.testTrades, reliability: report.ledgerLabel.reliability.confidence! };
    const blocks = readmeBlocks(record, { from: '2022-06-01', to: '2023-09-29', trades, confidence });
    const dir = mkdtempSync(join(tmpdir(), 'readme-'));
    try {
      const path = join(dir, 'README.md');
      const text = ['# A', ...README_BLOCKS.flatMap((name) => ['before', ...markers(name), 'after'])].join('\n');
      writeFileSync(path, text);
      writeReadme(path, blocks);
      const written = readFileSync(path, 'utf8');
      expect(written).toContain('| group | N | weeks | hit rate (ledger) | mean R |');
      expect(written).toContain(`| all | ${record.all.trades} | ${record.all.weeks} |`);
      expect(written).toContain('decile of confidence (out of sample)');
      expect(written).toContain('| pattern | N | hit rate | mean R |');
      expect(written.split('before').length).toBe(4);
      // A second run replaces, never repeats.
      writeReadme(path, blocks);
      expect(readFileSync(path, 'utf8')).toBe(written);
      writeFileSync(path, '# no markers');
      expect(() => writeReadme(path, blocks)).toThrow('markers of the record block are missing');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
