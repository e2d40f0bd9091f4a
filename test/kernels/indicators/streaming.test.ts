/**
 * The streaming forms of the indicator kernels against their batch forms: a
 * series computed in pieces (appended bars only, the state carried between
 * calls) must hold the same bits as the series computed at once, missing
 * values included. The batch forms are held to naive twins in their own
 * files; this holds the streaming forms to the batch forms.
 */
import { describe, expect, it } from 'bun:test';
import {
  SCAN_INDICATORS,
  SCAN_STATE_WORDS,
  allocateScanIndicators,
  atr1d,
  atrState,
  averageVolume1d,
  bollingerState,
  bollingerWidth1d,
  computeIndicators,
  computeScanIndicators,
  copyScanIndicatorState,
  extendScanIndicators,
  headIndicators,
  packScanState,
  percentileRank1d,
  rollingMax1d,
  rollingMin1d,
  scanIndicatorState,
  sma1d,
  smaState,
  unpackScanState,
  type Ohlcv,
} from '../../../src/kernels/indicators';
import { headBars } from '../../../src/kernels/ohlcv';
import { randomWalk, seededRandom } from '../../helpers/random';

/** Same length and the same 64 bits in every slot (NaN payloads and −0 included). */
function expectSameBits(actual: Float64Array, expected: Float64Array, what: string) {
  expect(actual.length, what).toBe(expected.length);
  const a = new BigUint64Array(actual.buffer, actual.byteOffset, actual.length);
  const b = new BigUint64Array(expected.buffer, expected.byteOffset, expected.length);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) throw new Error(`${what}: bar ${i} differs: ${actual[i]} vs ${expected[i]}`);
  }
}

/** Random cut points 0 < c1 < … < n, with runs of single bars (a live feed) and long pieces (a backfill). */
function cuts(rand: () => number, n: number): number[] {
  const out: number[] = [];
  let at = 0;
  while (at < n) {
    const r = rand();
    at = Math.min(n, at + (r < 0.5 ? 1 : r < 0.8 ? 1 + Math.floor(rand() * 20) : 1 + Math.floor(rand() * 400)));
    out.push(at);
  }
  return out;
}

/** OHLCV around a random walk, with missing and infinite values sprinkled in. */
function bars(seed: number, n: number, holes = 0.01): Ohlcv {
  const rand = seededRandom(seed);
  const close = randomWalk(rand, n);
  const high = close.map((c) => c * (1 + rand() * 0.02));
  const low = close.map((c) => c * (1 - rand() * 0.02));
  const open = close.map((c) => c * (1 + (rand() - 0.5) * 0.01));
  const volume = close.map(() => 1e6 * (0.5 + rand()));
  for (const xs of [high, low, close, volume]) {
    for (let i = 0; i < n; i++) if (rand() < holes) xs[i] = rand() < 0.8 ? NaN : Infinity;
  }
  // a long gap, so windows go missing and recover
  for (let i = Math.floor(n / 3); i < Math.floor(n / 3) + 30 && i < n; i++) close[i] = NaN;
  const ts = Float64Array.from({ length: n }, (_, i) => Date.UTC(2000, 0, 3) + i * 86_400_000);
  return { ts, open, high, low, close, volume };
}

const SEEDS = [1, 2, 3, 7, 11];

describe('streaming kernels equal their batch forms', () => {
  for (const seed of SEEDS) {
    const b = bars(seed, 1500);
    const n = b.close.length;
    const pieces = cuts(seededRandom(seed * 31), n);

    it(`sma and average volume, seed ${seed}`, () => {
      for (const period of [1, 2, 20, 50, 200]) {
        const whole = new Float64Array(n);
        sma1d(b.close, whole, { period });
        const parts = new Float64Array(n);
        const state = smaState();
        for (const end of pieces) sma1d(b.close.subarray(0, end), parts, { period }, state);
        expectSameBits(parts, whole, `sma ${period}`);
        expect(state.next).toBe(n);
      }
      const whole = new Float64Array(n);
      averageVolume1d(b.volume, whole, { period: 50 });
      const parts = new Float64Array(n);
      const state = smaState();
      for (const end of pieces) averageVolume1d(b.volume.subarray(0, end), parts, { period: 50 }, state);
      expectSameBits(parts, whole, 'average volume');
    });

    it(`atr, seed ${seed}`, () => {
      for (const period of [1, 3, 14]) {
        const whole = new Float64Array(n);
        atr1d(b.high, b.low, b.close, whole, { period });
        const parts = new Float64Array(n);
        const state = atrState();
        for (const end of pieces) atr1d(b.high.subarray(0, end), b.low.subarray(0, end), b.close.subarray(0, end), parts, { period }, state);
        expectSameBits(parts, whole, `atr ${period}`);
      }
    });

    it(`bollinger width and percentile rank, seed ${seed}`, () => {
      for (const period of [2, 20]) {
        const whole = new Float64Array(n);
        bollingerWidth1d(b.close, whole, { period });
        const parts = new Float64Array(n);
        const state = bollingerState({ period });
        for (const end of pieces) bollingerWidth1d(b.close.subarray(0, end), parts, { period }, state);
        expectSameBits(parts, whole, `bollinger ${period}`);
        for (const rank of [2, 126]) {
          const wholeRank = new Float64Array(n);
          percentileRank1d(whole, wholeRank, { period: rank });
          const partsRank = new Float64Array(n);
          let from = 0;
          for (const end of pieces) {
            percentileRank1d(whole.subarray(0, end), partsRank, { period: rank }, from);
            from = end;
          }
          expectSameBits(partsRank, wholeRank, `percentile rank ${rank}`);
        }
      }
    });

    it(`rolling extremes and Donchian channels, seed ${seed}`, () => {
      const scratch = new Int32Array(n);
      for (const period of [1, 2, 20, 55, 252]) {
        for (const excludeCurrent of [false, true]) {
          for (const [kernel, values] of [[rollingMax1d, b.high], [rollingMin1d, b.low]] as const) {
            const whole = new Float64Array(n);
            kernel(values, whole, { period, excludeCurrent });
            const parts = new Float64Array(n).fill(-1);
            let from = 0;
            for (const end of pieces) {
              kernel(values.subarray(0, end), parts, { period, excludeCurrent }, scratch, from);
              from = end;
            }
            expectSameBits(parts, whole, `${kernel.name} ${period}${excludeCurrent ? ' excluding the current bar' : ''}`);
          }
        }
      }
    });
  }
});

describe('the scan indicator set, kept incrementally', () => {
  it('holds the values of computeIndicators over the whole series, extended in any pieces', () => {
    for (const seed of SEEDS) {
      const b = bars(seed, 1200, seed === 1 ? 0 : 0.005);
      const n = b.close.length;
      const batch = computeIndicators(b);
      const set = allocateScanIndicators(n + 10);
      const state = scanIndicatorState();
      for (const end of cuts(seededRandom(seed), n)) extendScanIndicators(headBars(b, end), set, state);
      expect(state.next).toBe(n);
      const held = headIndicators(set, n);
      for (const name of SCAN_INDICATORS) expectSameBits(held[name], batch[name], `${name}, seed ${seed}`);
      const once = computeScanIndicators(b);
      for (const name of SCAN_INDICATORS) expectSameBits(once[name], batch[name], `${name} at once, seed ${seed}`);
    }
  });

  it('gives the value at bar i from bars 0..i only (a prefix computes the same prefix)', () => {
    const b = bars(5, 900);
    const full = computeScanIndicators(b);
    for (const end of [1, 60, 300, 899]) {
      const head = computeScanIndicators(headBars(b, end));
      for (const name of SCAN_INDICATORS) expectSameBits(head[name], full[name].subarray(0, end), `${name} over ${end} bars`);
    }
  });

  it('survives a round trip through its packed words mid-series', () => {
    const b = bars(9, 800);
    const n = b.close.length;
    const batch = computeScanIndicators(b);
    const set = allocateScanIndicators(n);
    const state = scanIndicatorState();
    extendScanIndicators(headBars(b, 437), set, state);
    const words = new Float64Array(SCAN_STATE_WORDS + 3);
    packScanState(state, words, 3);
    const restored = unpackScanState(words, 3);
    expect(restored).toEqual(state);
    extendScanIndicators(b, set, restored);
    for (const name of SCAN_INDICATORS) expectSameBits(set[name], batch[name], name);
  });

  it('computes a provisional last bar on a copy, leaving the state at the last final bar', () => {
    const b = bars(4, 600, 0);
    const n = b.close.length;
    const set = allocateScanIndicators(n);
    const state = scanIndicatorState();
    extendScanIndicators(headBars(b, n - 30), set, state);
    // the last bar as it looked mid-session: committed through n − 1, the last one on a copy
    const early: Ohlcv = { ...b, close: b.close.slice(), high: b.high.slice() };
    early.close[n - 1] = early.close[n - 1]! * 1.07;
    early.high[n - 1] = Math.max(early.high[n - 1]!, early.close[n - 1]!);
    extendScanIndicators(early, set, state, n - 1);
    expect(state.next).toBe(n - 1);
    const atEarly = computeScanIndicators(early);
    for (const name of SCAN_INDICATORS) expectSameBits(set[name], atEarly[name], `${name} with the forming bar`);
    // as it closed: only the last bar is computed again
    extendScanIndicators(b, set, state);
    expect(state.next).toBe(n);
    const batch = computeScanIndicators(b);
    for (const name of SCAN_INDICATORS) expectSameBits(set[name], batch[name], name);
    expect(copyScanIndicatorState(state)).toEqual(state);
  });

  it('refuses a state that is past the bars', () => {
    const b = bars(3, 100);
    const state = scanIndicatorState();
    const set = allocateScanIndicators(100);
    extendScanIndicators(b, set, state);
    expect(() => extendScanIndicators(headBars(b, 50), set, state)).toThrow(RangeError);
  });
});
