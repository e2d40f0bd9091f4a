import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { extendRollingMax1d, extendRollingMin1d, RollingExtreme, rollingLookback, rollingMax1d, rollingMin1d, type RollingOptions } from '../../../src/kernels/indicators/rolling';
import { randomWalk, seededRandom } from '../../helpers/random';

/** Reference twin: scan every window; the window ends at t, or at t − 1 when the current bar is excluded. */
function naiveExtreme(values: ArrayLike<number>, period: number, excludeCurrent: boolean, pick: (xs: number[]) => number): number[] {
  const out: number[] = [];
  for (let t = 0; t < values.length; t++) {
    const end = excludeCurrent ? t - 1 : t;
    const start = end - period + 1;
    if (start < 0) {
      out.push(NaN);
      continue;
    }
    const window = Array.from({ length: period }, (_, k) => values[start + k]!);
    out.push(window.every(Number.isFinite) ? pick(window) : NaN);
  }
  return out;
}

const naiveMax = (v: ArrayLike<number>, p: number, ex = false) => naiveExtreme(v, p, ex, (xs) => Math.max(...xs));
const naiveMin = (v: ArrayLike<number>, p: number, ex = false) => naiveExtreme(v, p, ex, (xs) => Math.min(...xs));

function run(kernel: typeof rollingMax1d, values: Float64Array, options: RollingOptions, scratch?: Int32Array): Float64Array {
  const out = new Float64Array(values.length);
  kernel(values, out, options, scratch);
  return out;
}

function expectExactly(actual: Float64Array, expected: number[]): void {
  expect(Array.from(actual)).toEqual(expected);
}

describe('rolling lookback and options', () => {
  it('starts at period − 1, or at period when the current bar is excluded', () => {
    expect(rollingLookback({ period: 252 })).toBe(251);
    expect(rollingLookback({ period: 55, excludeCurrent: true })).toBe(55);
    expect(rollingLookback({ period: 1 })).toBe(0);
  });

  it('rejects a bad period, a short output and a short scratch', () => {
    const x = new Float64Array(10);
    for (const period of [0, -5, 1.5, NaN]) {
      expect(() => rollingLookback({ period })).toThrow(RangeError);
      expect(() => rollingMax1d(x, x.slice(), { period })).toThrow(/period must be a positive integer/);
      expect(() => rollingMin1d(x, x.slice(), { period })).toThrow(/period must be a positive integer/);
    }
    expect(() => rollingMax1d(x, new Float64Array(9), { period: 2 })).toThrow(/output holds 9/);
    expect(() => rollingMin1d(x, x.slice(), { period: 2 }, new Int32Array(9))).toThrow(/scratch holds 9/);
  });
});

describe('rolling max and min', () => {
  it('match hand-computed windows', () => {
    const x = Float64Array.of(3, 1, 2, 5, 4, 4, 0);
    // period 3, current included: max of [3,1,2]=3, [1,2,5]=5, [2,5,4]=5, [5,4,4]=5, [4,4,0]=4
    expectExactly(run(rollingMax1d, x, { period: 3 }), [NaN, NaN, 3, 5, 5, 5, 4]);
    expectExactly(run(rollingMin1d, x, { period: 3 }), [NaN, NaN, 1, 1, 2, 4, 0]);
    // Donchian: the window is the 3 bars before, so bar 3's level is max(3, 1, 2) = 3 and bar 3 (5) breaks it.
    expectExactly(run(rollingMax1d, x, { period: 3, excludeCurrent: true }), [NaN, NaN, NaN, 3, 5, 5, 5]);
    expectExactly(run(rollingMin1d, x, { period: 3, excludeCurrent: true }), [NaN, NaN, NaN, 1, 1, 2, 4]);
  });

  it('equal their naive twins over a grid of periods, with and without the current bar', () => {
    const x = randomWalk(seededRandom(71), 600);
    const scratch = new Int32Array(x.length); // one scratch serves every call
    for (const period of [1, 2, 3, 5, 10, 20, 55, 252, 599, 600, 601]) {
      for (const excludeCurrent of [false, true]) {
        expectExactly(run(rollingMax1d, x, { period, excludeCurrent }, scratch), naiveMax(x, period, excludeCurrent));
        expectExactly(run(rollingMin1d, x, { period, excludeCurrent }), naiveMin(x, period, excludeCurrent));
      }
    }
  });

  it('hold on monotone and tied series (the deque worst cases)', () => {
    const up = Float64Array.from({ length: 100 }, (_, i) => i);
    const down = Float64Array.from({ length: 100 }, (_, i) => -i);
    const ties = Float64Array.from({ length: 100 }, (_, i) => Math.floor(i / 7) % 3);
    for (const x of [up, down, ties]) {
      for (const excludeCurrent of [false, true]) {
        expectExactly(run(rollingMax1d, x, { period: 10, excludeCurrent }), naiveMax(x, 10, excludeCurrent));
        expectExactly(run(rollingMin1d, x, { period: 10, excludeCurrent }), naiveMin(x, 10, excludeCurrent));
      }
    }
  });

  it('are NaN while a missing value is in the window, and recover after', () => {
    const x = randomWalk(seededRandom(72), 300);
    x[0] = NaN;
    x[100] = NaN;
    x[101] = Infinity;
    x[250] = -Infinity;
    for (const period of [1, 4, 20, 55]) {
      for (const excludeCurrent of [false, true]) {
        expectExactly(run(rollingMax1d, x, { period, excludeCurrent }), naiveMax(x, period, excludeCurrent));
        expectExactly(run(rollingMin1d, x, { period, excludeCurrent }), naiveMin(x, period, excludeCurrent));
      }
    }
  });
});

// Few distinct values (ties, ±0) and missing values, so the extreme often leaves the window or ties.
const extremeValue = fc.oneof(fc.constantFrom(0, -0, 1, 2, 3, -1, NaN, Infinity), fc.double({ min: -5, max: 5, noNaN: true }));
/** A series, a window and where a reader starts (`cut`, a share of the length). */
const extremeCase = {
  values: fc.array(extremeValue, { minLength: 1, maxLength: 80 }),
  period: fc.integer({ min: 1, max: 12 }),
  excludeCurrent: fc.boolean(),
  cut: fc.double({ min: 0, max: 1, noNaN: true }),
};

describe('rolling extremes carried from the output before (the scan one-bar advance)', () => {
  const case_ = fc.record({ ...extremeCase, step: fc.integer({ min: 1, max: 5 }) });

  for (const [name, batch, extend] of [
    ['max', rollingMax1d, extendRollingMax1d],
    ['min', rollingMin1d, extendRollingMin1d],
  ] as const) {
    it(`${name}: the deque's values bit for bit, a bar or a few at a time from any bar`, () => {
      fc.assert(
        fc.property(case_, ({ values: list, period, excludeCurrent, cut, step }) => {
          const values = Float64Array.from(list);
          const options = { period, excludeCurrent };
          const expected = run(batch, values, options);
          const out = new Float64Array(values.length).fill(12345); // garbage past what was computed
          let at = Math.max(1, Math.floor(cut * values.length));
          out.set(expected.subarray(0, at));
          while (at < values.length) {
            const to = Math.min(values.length, at + step);
            extend(values.subarray(0, to), out, options, at);
            at = to;
          }
          expect(Array.from(new Uint8Array(out.buffer))).toEqual(Array.from(new Uint8Array(expected.buffer)));
        }),
        { numRuns: 500 },
      );
    });
  }

  it('rejects a start outside 1..length', () => {
    expect(() => extendRollingMax1d(new Float64Array(3), new Float64Array(3), { period: 2 }, 0)).toThrow(RangeError);
    expect(() => extendRollingMin1d(new Float64Array(3), new Float64Array(3), { period: 2 }, 4)).toThrow(RangeError);
  });
});

describe('rolling extremes read bar by bar (RollingExtreme: what the bar store hands a scan)', () => {
  const case_ = fc.record(extremeCase);
  const bits = (x: number) => Array.from(new Uint8Array(Float64Array.of(x).buffer));

  for (const [name, batch, sign] of [
    ['max', rollingMax1d, 1],
    ['min', rollingMin1d, -1],
  ] as const) {
    it(`${name}: the deque's value at every bar bit for bit, and nothing past its length`, () => {
      fc.assert(
        fc.property(case_, ({ values: list, period, excludeCurrent, cut }) => {
          const values = Float64Array.from(list);
          const options = { period, excludeCurrent };
          const expected = run(batch, values, options);
          const lazy = new RollingExtreme(values, options, sign);
          expect(lazy.length).toBe(values.length);
          for (let i = 0; i < values.length; i++) expect(bits(lazy.at(i)!)).toEqual(bits(expected[i]!));
          const length = Math.floor(cut * values.length);
          const head = lazy.head(length);
          expect(head.length).toBe(length);
          for (let i = 0; i < length; i++) expect(bits(head.at(i)!)).toEqual(bits(expected[i]!));
          for (const outside of [-1, length, length + 1, 0.5]) expect(head.at(outside)).toBeUndefined();
        }),
        { numRuns: 500 },
      );
    });
  }
});
