/** Rotation on real 2023 data (XLK against SPY, daily_marketlab): the real-data run. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'bun:test';
import { rotationSnapshot } from '../../../src/kernels/rotation';
import { sharedData } from '../../helpers/shared-data';

const DATA_DIR = sharedData('daily_marketlab');

function loadCloses(symbol: string): Map<string, number> {
  const rows = readFileSync(`${DATA_DIR}/${symbol}.csv`, 'utf8').trim().split('\n').slice(1);
  return new Map(rows.map((row) => {
    const cells = row.split(',');
    return [cells[0]!, Number(cells[4])];
  }));
}

/** XLK and SPY closes aligned on common dates, cut at `through` (a point-in-time read). */
function alignedThrough(through: string) {
  const xlk = loadCloses('XLK');
  const spy = loadCloses('SPY');
  const dates = [...xlk.keys()].filter((d) => spy.has(d) && d <= through).sort();
  return {
    dates,
    xlk: Float64Array.from(dates, (d) => xlk.get(d)!),
    spy: Float64Array.from(dates, (d) => spy.get(d)!),
  };
}

describe('rotation on real 2023 data (XLK against SPY, daily_marketlab)', () => {
  // Expected numbers were verified by hand with an independent Python script: the csv module read
  // both files, aligned closes by date (6,958 common sessions), and computed RS, SMA5/SMA50,
  // RS-Ratio and RS-Momentum with plain sums. Sanity: XLK rose 45.3% from 2023-01-03 to 2023-07-31
  // (60.23 -> 87.53 adjusted) against SPY's 21.1% (365.07 -> 442.17); XLK gained 8.9% in May 2023
  // (the AI rally) while SPY was flat (+0.6%).
  it('puts XLK in leading at the end of May 2023', () => {
    const { dates, xlk, spy } = alignedThrough('2023-05-31');
    expect(dates.at(-1)).toBe('2023-05-31');
    const snap = rotationSnapshot(xlk, spy);
    expect(snap.latest!.rsRatio).toBeCloseTo(105.65109055497615, 8);
    expect(snap.latest!.rsMomentum).toBeCloseTo(104.05336506430321, 8);
    expect(snap.latest!.quadrant).toBe('leading');
    expect(snap.performance['1m'].relative).toBeCloseTo(8.28922212691745, 8);
  });

  it('shows the relative trend rolling over by 2023-07-31 despite a +8-point quarter', () => {
    // With the 5/50/10 defaults, RS (19.80 on 07-31) had flattened since late May, so the
    // 5-bar mean sits a hair under the 50-bar mean: RS-Ratio 99.93, RS-Momentum 98.21.
    const { dates, xlk, spy } = alignedThrough('2023-07-31');
    expect(dates.at(-1)).toBe('2023-07-31');
    const snap = rotationSnapshot(xlk, spy);
    expect(snap.latest!.rsRatio).toBeCloseTo(99.93461640646434, 8);
    expect(snap.latest!.rsMomentum).toBeCloseTo(98.21032285584671, 8);
    expect(snap.latest!.quadrant).toBe('lagging');
    expect(snap.performance['3m'].asset).toBeCloseTo(18.49336446702352, 8);
    expect(snap.performance['3m'].benchmark).toBeCloseTo(10.473034330340369, 8);
    expect(snap.performance['3m'].relative).toBeCloseTo(8.020330136683153, 8);
    // The tail walks down from leading: the point 10 bars earlier was still right of centre.
    expect(snap.tail[2]!.rsRatio).toBeGreaterThan(100);
  });
});
