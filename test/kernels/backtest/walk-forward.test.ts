/**
 * The walk-forward evaluation on hand-made candidates (purge and learning
 * exact) and on real history (the committed dieperdev excerpts, 2022–2024):
 * signals are the live scan's, and truncating the data after a test window
 * changes nothing inside it.
 */
import { describe, expect, it } from 'bun:test';
import {
  candidateTrades,
  evaluateWalkForward,
  learnFromTraining,
  signalsAtEachBar,
  walkForwardFolds,
  type CandidateTrade,
  type Fold,
} from '../../../src/kernels/backtest';
import { headBars, ohlcvFrom, type Ohlcv } from '../../../src/kernels/ohlcv';
import { scanBars } from '../../../src/kernels/scan';
import { createCsvProvider } from '../../../src/providers/csv';
import { fixture } from '../../helpers/fixtures';

const costs = { slippageBps: 5, commissionPerShare: 0.005 };
const options = { costs, capital: 100_000, maxPositions: 1 };
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);

/** A candidate on a calendar of one bar a day from T0: entry and exit bar indices, net R. */
function candidate(key: string, entry: number, exit: number, r: number, band: CandidateTrade['band'] = 'strong'): CandidateTrade {
  const pathTs = Array.from({ length: exit - entry + 1 }, (_, i) => T0 + (entry + i) * DAY);
  return {
    symbol: 'TEST',
    key,
    patternType: 'flat_base',
    patternFamily: 'base',
    direction: 'long',
    band,
    finalScore: 75,
    signalTs: T0 + (entry - 1) * DAY,
    entryKind: 'stop',
    entryTs: T0 + entry * DAY,
    entryPrice: 100,
    trigger: 100,
    stopLoss: 95,
    target1: 110,
    exitTs: T0 + exit * DAY,
    exitPrice: 100 + 5 * r,
    exitReason: 'target',
    r,
    pathTs,
    pathClose: pathTs.map(() => 100),
  };
}

describe('purging inside the evaluation', () => {
  const calendar = Array.from({ length: 100 }, (_, i) => T0 + i * DAY);
  // one fold: train 18–57, purge 58–59, test 60–74
  const folds = walkForwardFolds({ length: 100, evalStart: 60, train: 40, test: 15, purge: 2, embargo: 2 }).slice(0, 1);

  it('learns only from trades that entered in the train window and exited before the test window', () => {
    const candidates = [
      candidate('kept', 20, 30, 1),
      candidate('resolved-in-purge', 55, 59, 1),
      candidate('reaches-test', 50, 60, -1), // purged: its label overlaps the test window
      candidate('entered-in-purge', 58, 59, -1), // not a training trade
      candidate('before-train', 10, 15, -1),
      candidate('tested', 61, 65, 2),
    ];
    const e = evaluateWalkForward(calendar, folds, candidates, options);
    const fold = e.folds[0]!;
    expect(fold.model.trainingTrades).toBe(2);
    expect(fold.purged).toBe(1);
    expect(fold.model).toEqual(learnFromTraining([candidates[0]!, candidates[1]!]));
    expect(fold.candidates).toBe(1);
    expect(e.trades.map((t) => t.key)).toEqual(['tested']);
  });

  it('is deterministic', () => {
    const candidates = [candidate('a', 20, 30, 1), candidate('b', 61, 70, 1.5), candidate('c', 62, 80, -1)];
    expect(evaluateWalkForward(calendar, folds, candidates, options)).toEqual(evaluateWalkForward(calendar, folds, [...candidates].reverse(), options));
  });
});

const provider = createCsvProvider({ dir: fixture('daily_yf_dieperdev') });
const load = async (symbol: string) => provider.bars({ symbol, timeframe: 'daily' });
/** A copy of the first `n` bars, sharing nothing with the original. */
const copyHead = (bars: Ohlcv, n: number): Ohlcv => ohlcvFrom((name) => bars[name].slice(0, n));

describe('walk-forward on real history (fixtures)', () => {
  it('lists at each bar exactly what the live scan lists standing on that bar', async () => {
    const bars = await load('NVDA');
    const n = bars.ts.length;
    const perBar = signalsAtEachBar(bars, n - 40, n - 1);
    let listed = 0;
    for (let k = 0; k < perBar.length; k += 3) {
      const asOf = n - 40 + k;
      const live = scanBars(bars, { asOf, rsRank: null, regime: null });
      expect(perBar[k]!.map((s) => [s.patternType, s.state, s.pivot, s.finalScore])).toEqual(live.map((f) => [f.match.patternType, f.state, f.match.pivot, f.score.finalScore]));
      listed += live.length;
    }
    expect(listed).toBeGreaterThan(0);
  });

  for (const symbol of ['AAPL', 'NVDA', 'JPM']) {
    it(`${symbol}: truncating the data after a test window changes nothing inside it`, async () => {
      const bars = await load(symbol);
      const n = bars.ts.length;
      const folds: Fold[] = walkForwardFolds({ length: n, evalStart: n - 130, train: 60, test: 20, purge: 2, embargo: 2 });
      expect(folds.length).toBeGreaterThanOrEqual(5);
      const from = folds[0]!.trainStart - 1;
      // A strong RS rank, so that signals band high enough to be taken.
      const context = { rsRankAt: () => 90 };
      const full = signalsAtEachBar(bars, from, n - 1, context);
      const fullCandidates = candidateTrades(symbol, bars, full, from, { maxHold: 20, costs });
      let taken = 0;
      for (const k of [1, 3]) {
        const cut = folds[k]!.testEnd;
        const head = copyHead(bars, cut + 1);
        const truncated = signalsAtEachBar(head, from, cut, context);
        expect(truncated).toEqual(full.slice(0, cut - from + 1));
        const cutCandidates = candidateTrades(symbol, head, truncated, from, { maxHold: 20, costs });
        const kept = folds.slice(0, k + 1);
        const a = evaluateWalkForward(Array.from(bars.ts), kept, fullCandidates, options, { [symbol]: bars.close });
        const b = evaluateWalkForward(Array.from(head.ts), kept, cutCandidates, options, { [symbol]: head.close });
        expect(b.folds).toEqual(a.folds);
        expect(b.metrics).toEqual(a.metrics);
        expect(b.equity).toEqual(a.equity);
        expect(b.benchmarks).toEqual(a.benchmarks);
        expect(b.scoreBands).toEqual(a.scoreBands);
        expect(b.patterns).toEqual(a.patterns);
        taken += a.trades.length;
      }
      expect(taken).toBeGreaterThan(0);
    });
  }

  it('accounts every test candidate once in the band and pattern tables, and deflates over four trials', async () => {
    const bars = await load('AAPL');
    const n = bars.ts.length;
    const folds = walkForwardFolds({ length: n, evalStart: n - 250, train: 60, test: 20, purge: 2, embargo: 2 });
    const from = folds[0]!.trainStart - 1;
    const candidates = candidateTrades('AAPL', bars, signalsAtEachBar(bars, from, n - 1, { rsRankAt: () => 90 }), from, { maxHold: 20, costs });
    const e = evaluateWalkForward(Array.from(bars.ts), folds, candidates, options, { AAPL: bars.close });
    const tested = e.folds.reduce((sum, f) => sum + f.candidates, 0);
    expect(tested).toBeGreaterThan(0);
    expect(Object.values(e.scoreBands).reduce((sum, g) => sum + g.candidates, 0)).toBe(tested);
    expect(Object.values(e.patterns).reduce((sum, g) => sum + g!.candidates, 0)).toBe(tested);
    expect(e.variants.map((v) => v.name)).toEqual(['learned', 'watchlist', 'strong', 'elite']);
    expect(e.metrics.bars).toBe(e.folds.reduce((sum, f) => sum + f.metrics.bars, 0));
    expect(e.trades.length).toBeGreaterThan(0);
    for (const t of e.trades) {
      const fold = e.folds.find((f) => t.entryTs >= bars.ts[f.fold.testStart]! && t.entryTs <= bars.ts[f.fold.testEnd]!)!;
      expect(t.exitTs).toBeLessThanOrEqual(bars.ts[fold.fold.testEnd]!); // never crosses its window's end
    }
    // headBars views of the same buffers give the same answer as copies
    expect(signalsAtEachBar(headBars(bars, n - 10), n - 20, n - 11)).toEqual(signalsAtEachBar(copyHead(bars, n - 10), n - 20, n - 11));
  });
});
