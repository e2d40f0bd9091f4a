import { describe, expect, it } from 'bun:test';
import { candidateTrades, capAt, simulateExit, type BarSignal } from '../../../src/kernels/backtest';
import { barsOf } from './helpers';

const costs = { slippageBps: 5, commissionPerShare: 0.005 };

/** A long setup listed at bar `asOf`: pivot 100, stop 95, target 110. */
function signal(asOf: number, over: Partial<BarSignal> = {}): BarSignal {
  return {
    asOf,
    patternType: 'flat_base',
    patternFamily: 'base',
    direction: 'long',
    state: 'forming',
    pivot: 100,
    target1: 110,
    stopLoss: 95,
    finalScore: 72,
    band: 'strong',
    breakoutIndex: null,
    patternStart: 0,
    patternEnd: asOf,
    ...over,
  };
}

// 0–2 below the pivot, 3 crosses it, 4–6 drift up, 7 reaches the target.
const bars = barsOf([
  [97, 98, 96, 97],
  [97, 98.5, 96.5, 98],
  [98, 99, 97.5, 98.8],
  [99, 101, 98.5, 100.6],
  [100.6, 103, 100, 102],
  [102, 105, 101, 104],
  [104, 106, 103, 105],
  [105, 111, 104, 109],
  [109, 110, 107, 108],
]);

describe('candidate trades', () => {
  it('places a stop order for the bar after a forming signal and follows it to target1', () => {
    const perBar = [[signal(2)]]; // the scan at bar 2 lists the base, forming
    const [c, ...rest] = candidateTrades('TEST', bars, perBar, 2, { maxHold: 20, costs });
    expect(rest).toEqual([]);
    expect(c).toMatchObject({ entryKind: 'stop', entryTs: bars.ts[3], exitTs: bars.ts[7], exitReason: 'target', band: 'strong', signalTs: bars.ts[2] });
    expect(c!.entryPrice).toBeCloseTo(100.05, 12);
    expect(c!.exitPrice).toBeCloseTo(109.945, 12);
    expect(c!.r).toBeCloseTo(9.885 / 5.05, 12);
    expect(Array.from(c!.pathClose)).toEqual([100.6, 102, 104, 105, 109]);
  });

  it('buys a setup first listed on its breakout bar at the next open, and skips older breakouts', () => {
    const fresh = signal(3, { state: 'triggered', breakoutIndex: 3, patternEnd: 2 });
    const stale = signal(4, { state: 'triggered', breakoutIndex: 3, patternType: 'vcp', patternEnd: 2 });
    const out = candidateTrades('TEST', bars, [[fresh], [stale]], 3, { maxHold: 20, costs });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ entryKind: 'open', entryTs: bars.ts[4], patternType: 'flat_base' });
    expect(out[0]!.entryPrice).toBeCloseTo(100.6 * 1.0005, 12);
  });

  it('takes a setup once, and no new one of its pattern type while the last is open', () => {
    const perBar = [[signal(2)], [signal(3, { patternEnd: 2 })], [signal(4, { patternEnd: 4, pivot: 103 })]];
    const out = candidateTrades('TEST', bars, perBar, 2, { maxHold: 20, costs });
    expect(out).toHaveLength(1); // bar 3's listing is the same setup; bar 4's comes while the first is open (until bar 7)
  });

  it('has no fill for a signal on the last bar', () => {
    expect(candidateTrades('TEST', bars, [[signal(8)]], 8, { maxHold: 20, costs })).toEqual([]);
  });

  it('cut at a window’s end equals the exit simulated with that window', () => {
    const [c] = candidateTrades('TEST', bars, [[signal(2)]], 2, { maxHold: 20, costs });
    const cut = capAt(c!, bars.ts[5]!, costs);
    const direct = simulateExit(bars, { direction: 'long', entryIndex: 3, stopLoss: 95, target1: 110 }, { maxHold: 20, lastIndex: 5, lastReason: 'window_end' }, costs);
    expect(cut.exitTs).toBe(bars.ts[direct.index]!);
    expect(cut.exitPrice).toBe(direct.price);
    expect(cut.exitReason).toBe('window_end');
    expect(cut.barsHeld).toBe(2);
    expect(cut.r).toBeCloseTo((104 * 0.9995 - 100.05 - 0.01) / 5.05, 12);
    expect(capAt(c!, bars.ts[8]!, costs).exitReason).toBe('target'); // exits inside the window: unchanged
  });
});
