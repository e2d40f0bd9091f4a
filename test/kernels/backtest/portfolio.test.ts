import { describe, expect, it } from 'bun:test';
import { performanceMetrics, tradePortfolio, type WindowTrade } from '../../../src/kernels/backtest';

/** Trading days d0 … d4. */
const D = [1, 2, 3, 4, 5].map((d) => Date.UTC(2024, 0, d));

function trade(over: Partial<WindowTrade> & Pick<WindowTrade, 'symbol' | 'key'>): WindowTrade {
  return {
    patternType: 'flat_base',
    patternFamily: 'base',
    direction: 'long',
    band: 'strong',
    finalScore: 70,
    signalTs: D[0]! - 86_400_000,
    entryKind: 'stop',
    entryTs: D[0]!,
    entryPrice: 50,
    trigger: 50,
    stopLoss: 45,
    target1: 60,
    exitTs: D[2]!,
    exitPrice: 55,
    exitReason: 'target',
    r: 0,
    pathTs: [],
    pathClose: [],
    barsHeld: 0,
    ...over,
  };
}

// A: long X, 50 → 55 (d0–d2), closes 51, 53, 55.  B: short Y, 100 → 96 (d1–d3), closes 99, 97, 96.
// C: long Z on d1, refused (two positions open).  D: long X on d2, refused (X still held).
const A = trade({ symbol: 'X', key: 'A', finalScore: 80, pathTs: D.slice(0, 3), pathClose: [51, 53, 55] });
const B = trade({ symbol: 'Y', key: 'B', direction: 'short', entryTs: D[1]!, entryPrice: 100, stopLoss: 104, target1: 90, exitTs: D[3]!, exitPrice: 96, pathTs: D.slice(1, 4), pathClose: [99, 97, 96] });
const C = trade({ symbol: 'Z', key: 'C', finalScore: 60, entryTs: D[1]!, entryPrice: 20, exitTs: D[2]!, exitPrice: 21, pathTs: D.slice(1, 3), pathClose: [20.5, 21] });
const Dx = trade({ symbol: 'X', key: 'D', entryTs: D[2]!, entryPrice: 60, exitTs: D[3]!, exitPrice: 61, pathTs: D.slice(2, 4), pathClose: [60.5, 61] });

describe('the account', () => {
  // By hand, capital 10,000, two slots, $0.01 a share:
  // d0: A 100 sh (⌊10,000/2/50⌋): cash 10,000 − 5,000 − 1 = 4,999; marked 100 × 51 → equity 10,099
  // d1: B 50 sh short (⌊10,099/2/100⌋): cash 4,999 + 5,000 − 0.5 = 9,998.5; C refused (limit);
  //     marks A 5,300, B −4,950 → 10,348.5
  // d2: D refused (X held); A exits 55: cash + 5,500 − 1 = 15,497.5; B −4,850 → 10,647.5
  // d3: B buys back at 96: cash − 4,800 − 0.5 = 10,697 → 10,697;  d4: flat, 10,697
  const run = tradePortfolio(D, [Dx, C, B, A], { capital: 10_000, maxPositions: 2, commissionPerShare: 0.01 });

  it('marks equity to market at every close (hand computation)', () => {
    expect(run.equity).toEqual([10_099, 10_348.5, 10_647.5, 10_697, 10_697]);
    expect(run.returns[1]).toBeCloseTo(10_348.5 / 10_099 - 1, 15);
    expect(run.returns[4]).toBe(0);
    expect([...run.held]).toEqual([1, 1, 1, 1, 0]);
  });

  it('sizes by equal slots of the last close’s equity, and nets commission both ways', () => {
    const byKey = Object.fromEntries(run.trades.map((t) => [t.key, t]));
    expect(byKey.A).toMatchObject({ shares: 100, pnl: 498 }); // 100 × 5 − 2 × 0.01 × 100
    expect(byKey.B).toMatchObject({ shares: 50, pnl: 199 }); // 50 × 4 − 2 × 0.01 × 50
    expect(10_000 + 498 + 199).toBe(run.equity.at(-1)!);
  });

  it('refuses past the position limit, a symbol already held, and a position under one share', () => {
    expect(run.refused).toEqual({ position_limit: 1, symbol_held: 1, too_small: 0 });
    const tiny = tradePortfolio(D, [trade({ symbol: 'Q', key: 'Q', entryPrice: 20_000, exitPrice: 20_001, pathTs: D.slice(0, 3), pathClose: [1, 1, 1] })], { capital: 10_000, maxPositions: 1, commissionPerShare: 0 });
    expect(tiny.refused.too_small).toBe(1);
    expect(tiny.equity.every((e) => e === 10_000)).toBe(true);
  });

  it('gives the figures of its returns and trades', () => {
    const m = performanceMetrics({ returns: run.returns, held: run.held, trades: run.trades, startEquity: 10_000 });
    expect(m.totalReturn).toBeCloseTo(0.0697, 12);
    expect(m.exposure).toBe(0.8);
    expect(m.tradeCount).toBe(2);
    expect(m.winRate).toBe(1);
    expect(m.profitFactor).toBeNull(); // no losers
    expect(m.maxDrawdown).toBe(0);
  });

  it('refuses bad options', () => {
    expect(() => tradePortfolio(D, [], { capital: 0, maxPositions: 1, commissionPerShare: 0 })).toThrow(RangeError);
    expect(() => tradePortfolio(D, [], { capital: 1, maxPositions: 0, commissionPerShare: 0 })).toThrow(RangeError);
  });
});

describe('performance metrics', () => {
  // Ten daily returns; expected values from numpy/scipy (SciPy 1.17.1):
  // total Π(1 + r) − 1, annualised ^(252/10), Sharpe mean/std(ddof=1)·√252,
  // Sortino mean/√mean(min(r,0)²)·√252, drawdown from the running peak, PSR(0).
  const returns = [0.012, -0.004, 0.007, 0.001, -0.011, 0.02, 0.003, -0.002, 0.009, -0.006];
  const held = [1, 1, 1, 0, 0, 1, 1, 1, 1, 0];
  const trades = [
    { pnl: 150, r: 1.2 },
    { pnl: -50, r: -0.5 },
    { pnl: 300, r: 2 },
    { pnl: -120, r: -1 },
  ];
  const m = performanceMetrics({ returns, held, trades, startEquity: 100_000 });

  it('matches every figure computed independently', () => {
    expect(m.totalReturn!).toBeCloseTo(0.028984628889263453, 14);
    expect(m.annualizedReturn!).toBeCloseTo(1.0544896559273016, 12);
    expect(m.sharpe!).toBeCloseTo(4.954923597740068, 12);
    expect(m.sortino!).toBeCloseTo(10.942376031755582, 12);
    expect(m.maxDrawdown!).toBeCloseTo(0.011, 14);
    expect(m.psr!).toBeCloseTo(0.8339932559232004, 9);
    expect(m.exposure).toBe(0.7);
    expect(m.bars).toBe(10);
  });

  it('matches the trade figures worked by hand', () => {
    expect(m.tradeCount).toBe(4);
    expect(m.winRate).toBe(0.5); // 2 of 4 with net P&L > 0
    expect(m.profitFactor!).toBeCloseTo(450 / 170, 14); // (150 + 300) / (50 + 120)
    expect(m.expectancyR!).toBeCloseTo(0.425, 14); // (1.2 − 0.5 + 2 − 1) / 4
  });

  it('answers null, never NaN, for figures that do not exist', () => {
    const flat = performanceMetrics({ returns: [0, 0, 0], held: [0, 0, 0], trades: [], startEquity: 1 });
    expect(flat).toEqual({
      totalReturn: 0,
      annualizedReturn: 0,
      sharpe: null,
      sortino: null,
      maxDrawdown: 0,
      winRate: null,
      profitFactor: null,
      expectancyR: null,
      exposure: 0,
      tradeCount: 0,
      bars: 3,
      psr: null,
    });
  });
});
