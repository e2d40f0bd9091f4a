import { describe, expect, it } from 'bun:test';
import type { Ohlcv } from '../../src/kernels/ohlcv';
import { resolveOutcome, type OutcomeResult, type OutcomeSignal } from '../../src/kernels/outcome';

// Every sequence is hand-built; every expected number is worked in the comment beside it.
// Rows are [open, high, low, close]. The detection bar is a NaN row unless a test says
// otherwise: resolution must never read it, and a read of a NaN bar throws.
type Row = readonly [number, number, number, number];
const NA: Row = [NaN, NaN, NaN, NaN];
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1); // Monday

function barsOf(rows: readonly Row[], ts: readonly number[] = rows.map((_, i) => T0 + i * DAY)): Ohlcv {
  const col = (k: number) => Float64Array.from(rows, (r) => r[k]!);
  return { ts: Float64Array.from(ts), open: col(0), high: col(1), low: col(2), close: col(3), volume: new Float64Array(rows.length).fill(1e6) };
}

// Long: entry 100, stop 95 (risk 5 = 1R), target 110 (+2R).
const long = (extra: Partial<OutcomeSignal> = {}): OutcomeSignal => ({ direction: 'long', entry: 100, target1: 110, stopLoss: 95, detectedIndex: 0, ...extra });
// The mirror image around 100: price p ↦ 200 − p, highs and lows swap.
const short = (extra: Partial<OutcomeSignal> = {}): OutcomeSignal => ({ direction: 'short', entry: 100, target1: 90, stopLoss: 105, detectedIndex: 0, ...extra });
const mirror = (rows: readonly Row[]): Row[] => rows.map(([o, h, l, c]) => [200 - o, 200 - l, 200 - h, 200 - c]);

function expectResult(actual: OutcomeResult, expected: Partial<OutcomeResult>) {
  for (const [key, value] of Object.entries(expected)) {
    if (typeof value === 'number') expect([key, actual[key as keyof OutcomeResult]]).toEqual([key, expect.closeTo(value, 10)]);
    else expect(actual[key as keyof OutcomeResult]).toBe(value);
  }
}

const cleanWin: Row[] = [NA, [100, 103, 98, 102], [102, 111, 101, 109], [109, 112, 90, 91]];
const cleanLoss: Row[] = [NA, [100, 104, 97, 99], [99, 100, 94, 95.5], [95.5, 120, 95, 118]];
const bothTouched: Row[] = [NA, [101, 111, 94, 105]];
const gapThroughStop: Row[] = [NA, [101, 102, 99, 100], [92, 96, 91, 95]];
const gapThroughTarget: Row[] = [NA, [112, 113, 108, 109]];

describe('signal outcome', () => {
  it('wins when target1 is reached before the stop, filled at the target', () => {
    // MFE: bar 1 high 103 (+3), bar 2 the fill 110 (+10) → 10/5 = 2R, 10%.
    // MAE: bar 1 low 98 (−2), bar 2 low 101 → 2/5 = 0.4R, 2%. Bar 3 is after the exit.
    expectResult(resolveOutcome(long(), barsOf(cleanWin), 3), {
      outcome: 'win', exitPrice: 110, exitIndex: 2, rMultiple: 2, mfeR: 2, maeR: 0.4, mfePct: 10, maePct: 2, barsHeld: 2, daysHeld: 2,
    });
  });

  it('loses when the stop is hit first, filled at the stop', () => {
    // MFE: bar 1 high 104 (+4); on the stop bar only its open 99 counts → 4/5 = 0.8R.
    // MAE: bar 1 low 97 (−3), then the fill 95 (−5), not the low 94 → 1R exactly.
    expectResult(resolveOutcome(long(), barsOf(cleanLoss), 3), {
      outcome: 'loss', exitPrice: 95, exitIndex: 2, rMultiple: -1, mfeR: 0.8, maeR: 1, mfePct: 4, maePct: 5, barsHeld: 2,
    });
  });

  it('counts a bar that touches both the target and the stop as a loss at the stop', () => {
    // High 111 ≥ 110 and low 94 ≤ 95 on one bar. Favourable side: the open 101 only → 0.2R.
    expectResult(resolveOutcome(long(), barsOf(bothTouched), 1), { outcome: 'loss', exitPrice: 95, rMultiple: -1, mfeR: 0.2, maeR: 1 });
  });

  it('fills a gap through the stop at the open, losing more than 1R', () => {
    // Bar 2 opens at 92, below the 95 stop: (92 − 100)/5 = −1.6R. Only the open counts on
    // that bar, so MAE is 8 (1.6R, 8%), not the low 91; MFE is bar 1's high 102 → 0.4R.
    expectResult(resolveOutcome(long(), barsOf(gapThroughStop), 2), {
      outcome: 'loss', exitPrice: 92, exitIndex: 2, rMultiple: -1.6, mfeR: 0.4, maeR: 1.6, mfePct: 2, maePct: 8,
    });
  });

  it('fills a gap through the target at the open, winning more than planned', () => {
    // Opens at 112 ≥ 110: (112 − 100)/5 = 2.4R; the low 108 came after the fill.
    expectResult(resolveOutcome(long(), barsOf(gapThroughTarget), 1), { outcome: 'win', exitPrice: 112, rMultiple: 2.4, mfeR: 2.4, maeR: 0 });
  });

  it('mirrors every rule for shorts', () => {
    for (const rows of [cleanWin, cleanLoss, bothTouched, gapThroughStop, gapThroughTarget]) {
      const asOf = rows.length - 1;
      const l = resolveOutcome(long(), barsOf(rows), asOf);
      const s = resolveOutcome(short(), barsOf(mirror(rows)), asOf);
      expectResult(s, { ...l, exitPrice: 200 - l.exitPrice });
    }
    // One spelled out: the short wins at 90, (100 − 90)/5 = 2R.
    expectResult(resolveOutcome(short(), barsOf(mirror(cleanWin)), 3), { outcome: 'win', exitPrice: 90, rMultiple: 2, maeR: 0.4 });
  });

  it('scratches a failed signal at the close of the bar it failed on, even after touching the stop', () => {
    // Bar 1 dips to 94 (through the stop) but the lifecycle only failed on bar 2: exit 98,
    // (98 − 100)/5 = −0.4R. MFE bar 1 high 104 → 0.8R; MAE bar 1 low 94 → 6/5 = 1.2R.
    // Bar 3 would have hit the target; it is after the exit.
    const rows: Row[] = [NA, [100, 104, 94, 101], [101, 101.5, 97.5, 98], [98, 115, 97, 114]];
    expectResult(resolveOutcome(long({ state: 'failed', stateIndex: 2 }), barsOf(rows), 3), {
      outcome: 'scratch', exitPrice: 98, exitIndex: 2, rMultiple: -0.4, mfeR: 0.8, maeR: 1.2, barsHeld: 2,
    });
  });

  it('scratches an expired signal at the asOf close when the bar is not given', () => {
    const rows: Row[] = [NA, [100, 101, 99, 99.5], [99.5, 100, 98, 98.5]];
    expectResult(resolveOutcome(long({ state: 'expired' }), barsOf(rows), 2), { outcome: 'scratch', exitPrice: 98.5, exitIndex: 2, rMultiple: -0.3 });
  });

  it('resolves other lifecycle states from prices', () => {
    expect(resolveOutcome(long({ state: 'confirmed' }), barsOf(cleanWin), 3).outcome).toBe('win');
    expect(resolveOutcome(long({ state: 'stopped' }), barsOf(cleanLoss), 3).outcome).toBe('loss');
  });

  it('marks an open signal to market at the asOf close', () => {
    // Close 106.5 → (106.5 − 100)/5 = 1.3R. MFE high 108 → 1.6R, 8%; MAE low 97 → 0.6R, 3%.
    const rows: Row[] = [NA, [100, 104, 97, 103], [103, 108, 102, 106.5]];
    expectResult(resolveOutcome(long(), barsOf(rows), 2), {
      outcome: 'open', exitPrice: 106.5, exitIndex: 2, rMultiple: 1.3, mfeR: 1.6, maeR: 0.6, mfePct: 8, maePct: 3, barsHeld: 2, daysHeld: 2,
    });
  });

  it('reads no bar at or before detection', () => {
    // Bars 0–2 would stop the long out (or win it) if they were read; NaN bars would throw.
    const wild: Row = [100, 500, 1, 100];
    const rows: Row[] = [wild, NA, wild, [100, 104, 97, 103]];
    expectResult(resolveOutcome(long({ detectedIndex: 2 }), barsOf(rows), 3), { outcome: 'open', exitPrice: 103, mfeR: 0.8, maeR: 0.6, barsHeld: 1 });
    // The controls: read from one bar earlier, the wild bar stops it out; and reading the NaN bar throws.
    expect(resolveOutcome(long({ detectedIndex: 1 }), barsOf(rows), 3)).toMatchObject({ outcome: 'loss', exitIndex: 2 });
    expect(() => resolveOutcome(long({ detectedIndex: 0 }), barsOf(rows), 3)).toThrow(RangeError);
  });

  it('reads no bar after asOf', () => {
    // The target is hit on bar 2: open as of bar 1, a win as of bar 2. The NaN bar 3 is never read.
    const rows: Row[] = [NA, [100, 104, 97, 103], [103, 111, 102, 109], NA];
    expect(resolveOutcome(long(), barsOf(rows), 1)).toMatchObject({ outcome: 'open', exitPrice: 103, exitIndex: 1 });
    expect(resolveOutcome(long(), barsOf(rows), 2)).toMatchObject({ outcome: 'win', exitPrice: 110, exitIndex: 2 });
  });

  it('is open at zero with nothing held when asOf is the detection bar', () => {
    expectResult(resolveOutcome(long(), barsOf([NA]), 0), { outcome: 'open', exitPrice: 100, exitIndex: 0, rMultiple: 0, mfeR: 0, maeR: 0, barsHeld: 0, daysHeld: 0 });
  });

  it('counts calendar days, not bars', () => {
    // Detected Friday 2024-01-05 at 21:00 UTC; bars Monday 8th and Tuesday 9th (14:30 UTC); the win is Tuesday.
    const ts = [Date.UTC(2024, 0, 5, 21), Date.UTC(2024, 0, 8, 14, 30), Date.UTC(2024, 0, 9, 14, 30)];
    expectResult(resolveOutcome(long(), barsOf(cleanWin.slice(0, 3), ts), 2), { outcome: 'win', barsHeld: 2, daysHeld: 4 });
  });

  it('rejects nonsense up front', () => {
    const bars = barsOf(cleanWin);
    const bad: Partial<OutcomeSignal>[] = [
      { stopLoss: 101 }, // a long's stop above entry
      { stopLoss: 100 }, // zero risk
      { target1: 99 }, // a long's target below entry
      { entry: NaN },
      { target1: Infinity },
      { stopLoss: -1 },
      { direction: 'sideways' as never },
      { detectedIndex: 0.5 },
      { detectedIndex: 4 },
      { state: 'failed', stateIndex: 0 }, // a scratch needs a bar after detection
      { state: 'failed', stateIndex: 3 }, // … and on or before asOf (2 below)
    ];
    for (const extra of bad) expect(() => resolveOutcome(long(extra), bars, 2)).toThrow(RangeError);
    expect(() => resolveOutcome(short({ stopLoss: 99 }), bars, 2)).toThrow(RangeError);
    expect(() => resolveOutcome(short({ target1: 101 }), bars, 2)).toThrow(RangeError);
    expect(() => resolveOutcome(long(), bars, 4)).toThrow(RangeError); // asOf past the last bar
    expect(() => resolveOutcome(long({ detectedIndex: 2 }), bars, 1)).toThrow(RangeError); // asOf before detection
    expect(() => resolveOutcome(long({ state: 'expired' }), barsOf([NA]), 0)).toThrow(RangeError);
  });
});
