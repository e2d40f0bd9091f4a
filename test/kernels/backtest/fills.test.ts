import { describe, expect, it } from 'bun:test';
import { fillEntry, netPerShare, netR, simulateExit, slipped } from '../../../src/kernels/backtest';
import { barsOf } from './helpers';

const costs = { slippageBps: 5, commissionPerShare: 0.005 };
const long = { direction: 'long' as const, trigger: 100, target1: 110, stopLoss: 95 };
const short = { direction: 'short' as const, trigger: 100, target1: 90, stopLoss: 105 };

describe('entry fills', () => {
  const bars = barsOf([
    [98, 101, 97, 100.5], // 0: crosses 100 from below
    [102, 103, 101, 102], // 1: opens above 100 (a gap)
    [97, 99, 96, 98], // 2: never reaches 100
    [111, 112, 110.5, 111], // 3: opens above target1
  ]);

  it('fills a stop order at the trigger plus slippage: 100 × 1.0005 = 100.05', () => {
    expect(fillEntry(bars, 0, 'stop', long, costs)).toEqual({ raw: 100, price: 100.05 });
  });

  it('fills a gap through the trigger at the open: 102 × 1.0005 = 102.051', () => {
    expect(fillEntry(bars, 1, 'stop', long, costs)!.price).toBeCloseTo(102.051, 12);
  });

  it('does not fill when the bar never reaches the trigger, or when the fill is beyond target1', () => {
    expect(fillEntry(bars, 2, 'stop', long, costs)).toBeNull();
    expect(fillEntry(bars, 3, 'stop', long, costs)).toBeNull();
    expect(fillEntry(bars, 3, 'open', long, costs)).toBeNull();
  });

  it('sells a short at the trigger less slippage: 100 × 0.9995 = 99.95', () => {
    const down = barsOf([[101, 102, 99, 99.5]]);
    expect(fillEntry(down, 0, 'stop', short, costs)).toEqual({ raw: 100, price: 99.95 });
  });

  it('fills a market order at the open', () => {
    expect(fillEntry(bars, 2, 'open', long, costs)).toEqual({ raw: 97, price: 97 * 1.0005 });
  });
});

describe('exits', () => {
  const options = { maxHold: 20, lastIndex: 99, lastReason: 'end_of_data' as const };

  it('exits at target1 less slippage', () => {
    const bars = barsOf([
      [99, 101, 98, 100.5],
      [101, 111, 100, 110],
    ]);
    const exit = simulateExit(bars, { ...long, entryIndex: 0 }, options, costs);
    expect(exit).toEqual({ index: 1, raw: 110, price: 110 * 0.9995, reason: 'target' });
  });

  it('takes the stop first when one bar touches both the stop and target1', () => {
    const bars = barsOf([
      [99, 101, 98, 100.5],
      [100, 112, 94, 105],
    ]);
    const exit = simulateExit(bars, { ...long, entryIndex: 0 }, options, costs);
    expect(exit.reason).toBe('stop');
    expect(exit.raw).toBe(95);
    expect(exit.index).toBe(1);
  });

  it('takes the stop first on the entry bar too', () => {
    const bars = barsOf([[99, 111, 94, 100]]);
    expect(simulateExit(bars, { ...long, entryIndex: 0 }, options, costs).reason).toBe('stop');
  });

  it('fills a gap through the stop at the open (a loss beyond 1R); never on the entry bar', () => {
    const bars = barsOf([
      [99, 101, 98, 100.5],
      [92, 93, 90, 91],
    ]);
    expect(simulateExit(bars, { ...long, entryIndex: 0 }, options, costs)).toMatchObject({ index: 1, raw: 92, reason: 'stop' });
    const entryBar = barsOf([[90, 101, 89, 100]]); // entered at or after its open
    expect(simulateExit(entryBar, { ...long, entryIndex: 0 }, options, costs).raw).toBe(95);
  });

  it('exits at the close of the time stop, maxHold bars after the entry bar', () => {
    const bars = barsOf(Array.from({ length: 10 }, () => [100, 102, 98, 101] as const));
    expect(simulateExit(bars, { ...long, entryIndex: 2 }, { ...options, maxHold: 3 }, costs)).toEqual({ index: 5, raw: 101, price: 101 * 0.9995, reason: 'time' });
  });

  it('exits at the close of the last bar of a window, or the data', () => {
    const bars = barsOf(Array.from({ length: 10 }, () => [100, 102, 98, 101] as const));
    expect(simulateExit(bars, { ...long, entryIndex: 2 }, { maxHold: 20, lastIndex: 6, lastReason: 'window_end' }, costs)).toMatchObject({ index: 6, reason: 'window_end' });
    expect(simulateExit(bars, { ...long, entryIndex: 2 }, { maxHold: 20, lastIndex: 9, lastReason: 'end_of_data' }, costs)).toMatchObject({ index: 9, reason: 'end_of_data' });
  });

  it('mirrors for a short: stop above, target below, buys back with slippage', () => {
    const bars = barsOf([
      [101, 102, 99, 99.5],
      [99, 100, 89, 90],
    ]);
    expect(simulateExit(bars, { ...short, entryIndex: 0 }, options, costs)).toEqual({ index: 1, raw: 90, price: 90 * 1.0005, reason: 'target' });
  });
});

describe('cost accounting', () => {
  it('matches a hand computation for a long to target', () => {
    // entry 100 × 1.0005 = 100.05; exit 110 × 0.9995 = 109.945;
    // gross/share 9.895, commission 2 × 0.005 = 0.01 → net 9.885; risk 100.05 − 95 = 5.05; R = 1.957425742…
    const entry = slipped(100, 'buy', 5);
    const exit = slipped(110, 'sell', 5);
    expect(entry).toBeCloseTo(100.05, 12);
    expect(exit).toBeCloseTo(109.945, 12);
    expect(netPerShare('long', entry, exit, costs)).toBeCloseTo(9.885, 12);
    expect(netR('long', entry, exit, 95, costs)).toBeCloseTo(9.885 / 5.05, 12);
  });

  it('matches a hand computation for a short stopped out', () => {
    // sold 100 × 0.9995 = 99.95; bought back 105 × 1.0005 = 105.0525;
    // net/share = 99.95 − 105.0525 − 0.01 = −5.1125; risk 105 − 99.95 = 5.05; R = −1.012376…
    const entry = slipped(100, 'sell', 5);
    const exit = slipped(105, 'buy', 5);
    expect(netPerShare('short', entry, exit, costs)).toBeCloseTo(-5.1125, 12);
    expect(netR('short', entry, exit, 105, costs)).toBeCloseTo(-5.1125 / 5.05, 12);
  });

  it('costs nothing without slippage and commission', () => {
    const free = { slippageBps: 0, commissionPerShare: 0 };
    expect(netR('long', 100, 110, 95, free)).toBe(2);
  });
});
