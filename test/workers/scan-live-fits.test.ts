/**
 * The detectors' fits kept between live scans in a worker thread
 * (workers/scan `LiveFits`): what is kept, and when it is let go. That a live
 * scan with them equals a scan from scratch is test/jobs/incremental-scan.
 */
import { describe, expect, it } from 'bun:test';
import { BarStore } from '../../src/store';
import { LIVE_FITS_BARS, LIVE_FITS_STORES, LiveFits } from '../../workers/scan';

const owner = {};
const times = (n: number, first = Date.UTC(2024, 0, 1)) => Float64Array.from({ length: n }, (_, i) => first + i * 86_400_000);

/** A memo holding a fit for every end 0..n−1 after one scan over `ts`, settled. */
function scanned(live: LiveFits, handle = new BarStore().handle(), ts = times(100), revision = 1) {
  const memo = live.memo(handle, 'AAA', 'daily', revision, ts);
  for (let end = 0; end < ts.length; end++) memo.fit(owner, end, () => ({ end }));
  live.settle(handle, 'AAA', 'daily', ts);
  return { handle, ts, memo };
}

describe('LiveFits', () => {
  it('keeps the fits of the last LIVE_FITS_BARS settled bars, never the last (still forming) bar', () => {
    const live = new LiveFits();
    const { handle, ts, memo } = scanned(live);
    const next = times(101);
    expect(live.memo(handle, 'AAA', 'daily', 1, next)).toBe(memo);
    expect(memo.kept(owner, 99)).toBeUndefined(); // bar 99 was forming
    expect(memo.kept(owner, 98)).toEqual({ end: 98 });
    expect(memo.kept(owner, 98 - LIVE_FITS_BARS + 1)).toEqual({ end: 98 - LIVE_FITS_BARS + 1 });
    expect(memo.kept(owner, 98 - LIVE_FITS_BARS)).toBeUndefined();
    expect(ts.length).toBe(100);
  });

  it('starts afresh when the revision moves, the first bar or the last kept bar is another, the series is shorter, or the generation changes', () => {
    const live = new LiveFits();
    const { handle, memo } = scanned(live);
    expect(live.memo(handle, 'AAA', 'daily', 2, times(101))).not.toBe(memo);
    const other = scanned(new LiveFits());
    const fresh = (f: (l: LiveFits) => unknown) => {
      const l = new LiveFits();
      const { memo: m } = scanned(l, other.handle);
      return f(l) !== m;
    };
    expect(fresh((l) => l.memo(other.handle, 'AAA', 'daily', 1, times(101, Date.UTC(2023, 0, 1))))).toBe(true); // another first bar
    const shifted = times(101);
    shifted[98] = shifted[98]! + 1;
    expect(fresh((l) => l.memo(other.handle, 'AAA', 'daily', 1, shifted))).toBe(true); // the last kept bar is another
    expect(fresh((l) => l.memo(other.handle, 'AAA', 'daily', 1, times(98)))).toBe(true); // shorter than the kept bars
    expect(fresh((l) => l.memo({ ...other.handle, generation: other.handle.generation + 1 }, 'AAA', 'daily', 1, times(101)))).toBe(true);
    expect(fresh((l) => l.memo(other.handle, 'AAA', '1h', 1, times(101)))).toBe(true); // another series
    expect(fresh((l) => l.memo(other.handle, 'AAA', 'daily', 1, times(101)))).toBe(false); // the control: kept
  });

  it('forgets a dropped series, and all but the last LIVE_FITS_STORES stores', () => {
    const live = new LiveFits();
    const { handle, memo } = scanned(live);
    live.drop(handle, 'AAA', 'daily');
    expect(live.memo(handle, 'AAA', 'daily', 1, times(101))).not.toBe(memo);
    const kept = new LiveFits();
    const first = scanned(kept);
    for (let k = 0; k < LIVE_FITS_STORES; k++) scanned(kept);
    expect(kept.memo(first.handle, 'AAA', 'daily', 1, times(101))).not.toBe(first.memo);
    const recent = new LiveFits();
    const a = scanned(recent);
    for (let k = 0; k < LIVE_FITS_STORES - 1; k++) scanned(recent);
    expect(recent.memo(a.handle, 'AAA', 'daily', 1, times(101))).toBe(a.memo);
  });
});
