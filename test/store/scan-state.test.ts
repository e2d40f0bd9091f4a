/**
 * The scan's indicators kept in shared memory beside the bars: whatever
 * sequence of writes the bars went through (bars appended one by one or many
 * at a time, a forming last bar revised, history rewritten, a window that
 * slid), what a reader gets equals the indicators computed from scratch over
 * the bars stored now, bit for bit; and a lock left by a dead holder is taken
 * over.
 */
import { describe, expect, it } from 'bun:test';
import type { Timeframe } from '../../src/domain/signal';
import { SCAN_INDICATORS, allocateScanIndicators, computeScanIndicators, type ScanIndicatorArrays, type ScanIndicatorSet } from '../../src/kernels/indicators';
import type { BarSeries } from '../../src/providers/types';
import { BarStore, LEASE_SECONDS, withScanInputs } from '../../src/store';
import { randomWalk, seededRandom } from '../helpers/random';

const DAY = 86_400_000;

function walk(seed: number, n: number, symbol = 'TEST', timeframe: Timeframe = 'daily'): BarSeries {
  const rand = seededRandom(seed);
  const close = randomWalk(rand, n);
  return {
    symbol,
    timeframe,
    ts: Float64Array.from({ length: n }, (_, i) => Date.UTC(2010, 0, 4) + i * DAY),
    open: close.map((c) => c * (1 + (rand() - 0.5) * 0.01)),
    high: close.map((c) => c * (1 + rand() * 0.02)),
    low: close.map((c) => c * (1 - rand() * 0.02)),
    close,
    volume: close.map(() => 1e6 * (0.5 + rand())),
    source: 'test',
  };
}

function head(s: BarSeries, n: number): BarSeries {
  const cut = (xs: Float64Array) => xs.slice(0, n);
  return { ...s, ts: cut(s.ts), open: cut(s.open), high: cut(s.high), low: cut(s.low), close: cut(s.close), volume: cut(s.volume) };
}

function expectSameBits(actual: ScanIndicatorArrays, expected: ScanIndicatorArrays, what: string) {
  for (const name of SCAN_INDICATORS) {
    const a = actual[name];
    const b = expected[name];
    expect(a.length, `${what} ${name} length`).toBe(b.length);
    const x = new BigUint64Array(a.buffer, a.byteOffset, a.length);
    const y = new BigUint64Array(b.buffer, b.byteOffset, b.length);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) throw new Error(`${what}: ${name} differs at bar ${i}: ${a[i]} vs ${b[i]}`);
  }
}

/** Reads through the shared state and checks it against a computation from scratch over the same bars. */
function check(store: BarStore, what: string, symbol = 'TEST') {
  const read = withScanInputs(store, symbol, 'daily', (bars, ind) => {
    const copy = allocateScanIndicators(bars.ts.length);
    // The extremes are read bar by bar (RollingExtreme): every bar of every member.
    for (const name of SCAN_INDICATORS) for (let i = 0; i < bars.ts.length; i++) copy[name][i] = ind[name].at(i)!;
    return { bars: head(bars, bars.ts.length), ind: copy };
  });
  expect(read, what).toBeDefined();
  expectSameBits(read!.ind, computeScanIndicators(read!.bars), what);
  return read!.bars.ts.length;
}

describe('scan indicators kept in the shared store', () => {
  it('equal a computation from scratch in packed slots (longestSeries), neighbours written in between, the window sliding', () => {
    const store = new BarStore({ longestSeries: { daily: 400 }, slotsPerSegment: 2 });
    const symbols = ['P', 'Q', 'R'];
    const full = symbols.map((symbol, i) => walk(10 + i, 700, symbol));
    for (const n of [250, 251, 260, 399, 400, 401, 450, 700]) {
      for (const [i, symbol] of symbols.entries()) {
        store.put(head(full[i]!, n));
        expect(check(store, `${symbol} at ${n} bars`, symbol)).toBe(Math.min(n, 400));
      }
      for (const symbol of symbols) expect(check(store, `${symbol} again at ${n} bars`, symbol)).toBe(Math.min(n, 400));
    }
  });

  it('equal a computation from scratch as bars are appended one by one and in blocks', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 3000 } });
    const full = walk(1, 2000);
    let n = 300;
    store.put(head(full, n));
    expect(check(store, 'first read')).toBe(300);
    const steps = [1, 1, 1, 7, 1, 250, 1, 1, 60, 1];
    for (const step of steps) {
      n += step;
      store.put(head(full, n));
      expect(check(store, `after ${n} bars`)).toBe(n);
    }
    expect(store.revision('TEST', 'daily')).toBe(1); // only appends: the first write is the only revision
  });

  it('keeps the state when only the forming last bar is revised, and recomputes that bar', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 3000 } });
    const full = walk(2, 800);
    store.put(head(full, 700));
    check(store, 'before');
    for (const move of [1.03, 0.97, 1.0]) {
      const partial = head(full, 700);
      partial.close[699] = partial.close[699]! * move;
      partial.high[699] = Math.max(partial.high[699]!, partial.close[699]!);
      partial.low[699] = Math.min(partial.low[699]!, partial.close[699]!);
      store.put(partial);
      check(store, `last bar ×${move}`);
    }
    expect(store.revision('TEST', 'daily')).toBe(1);
  });

  it('rebuilds when history changes (a split adjustment, a corrected bar) or the window slides', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 900 } });
    const full = walk(3, 1200);
    store.put(head(full, 600));
    check(store, 'before');
    const adjusted = head(full, 601);
    for (const xs of [adjusted.open, adjusted.high, adjusted.low, adjusted.close]) for (let i = 0; i < 400; i++) xs[i] = xs[i]! / 2;
    store.put(adjusted);
    expect(store.revision('TEST', 'daily')).toBe(2);
    check(store, 'after a split adjustment');
    const corrected = head(adjusted, 602);
    corrected.volume[100] = corrected.volume[100]! * 3;
    store.put(corrected);
    expect(store.revision('TEST', 'daily')).toBe(3);
    check(store, 'after a corrected bar');
    store.put(head(full, 1200)); // 1,200 bars into 900: the oldest 300 fall out
    check(store, 'after the window slid');
  });

  it('computes only the appended bars: a committed value is not computed again', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 1000 } });
    const full = walk(5, 600);
    store.put(head(full, 500));
    check(store, 'first read');
    const { segment, slot } = store.slotOf('TEST', 'daily')!;
    const headers = new Int32Array(segment.scanState, 0, segment.slots * 4);
    expect(headers[slot * 4 + 2]).toBe(499); // committed: every bar but the forming last one
    // Poison a committed value; an incremental reader never looks at it again.
    const sma50At300 = (ind: ScanIndicatorSet) => ind.sma50[300]!;
    const before = withScanInputs(store, 'TEST', 'daily', (_, ind) => sma50At300(ind))!;
    withScanInputs(store, 'TEST', 'daily', (_, ind) => void (ind.sma50[300] = -1));
    store.put(head(full, 510));
    expect(withScanInputs(store, 'TEST', 'daily', (_, ind) => sma50At300(ind))).toBe(-1);
    expect(headers[slot * 4 + 2]).toBe(509);
    // A rewritten history rebuilds everything.
    const revised = head(full, 511);
    revised.close[10] = revised.close[10]! * 1.01;
    store.put(revised);
    expect(withScanInputs(store, 'TEST', 'daily', (_, ind) => sma50At300(ind))).not.toBe(-1);
    expect(before).toBeGreaterThan(0);
  });

  it('takes over a lock whose holder died', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 1000 } });
    store.put(walk(4, 500));
    const { segment, slot } = store.slotOf('TEST', 'daily')!;
    const headers = new Int32Array(segment.scanState, 0, segment.slots * 4);
    const stale = ((Date.now() / 1000) & 0x3fffffff) - LEASE_SECONDS - 5;
    headers[slot * 4] = stale;
    const started = Date.now();
    check(store, 'after a dead holder');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(headers[slot * 4]).toBe(0);
  });

  it('answers undefined for a series the store does not hold', () => {
    const store = new BarStore();
    expect(withScanInputs(store, 'NOPE', 'daily', () => 1)).toBeUndefined();
  });
});
