import { describe, expect, it } from 'bun:test';
import { monthsBefore, periodFolds, purgedFromTraining, walkForwardFolds, type Fold } from '../../../src/kernels/backtest';

/** Bars between two windows, exclusive: the gap. */
const gap = (endOfFirst: number, startOfSecond: number) => startOfSecond - endOfFirst - 1;

describe('purged walk-forward folds', () => {
  it('lays out train, purge, test and embargo exactly (worked by hand)', () => {
    // 100 bars, tests from bar 60: 60–74, then 77–91 (74 + 1 + 2 embargo), then 94–99 (partial).
    const folds = walkForwardFolds({ length: 100, evalStart: 60, train: 40, test: 15, purge: 2, embargo: 2 });
    expect(folds).toEqual([
      { index: 0, trainStart: 18, trainEnd: 57, purgeStart: 58, purgeEnd: 59, testStart: 60, testEnd: 74, embargoStart: 75, embargoEnd: 76, partial: false },
      { index: 1, trainStart: 35, trainEnd: 74, purgeStart: 75, purgeEnd: 76, testStart: 77, testEnd: 91, embargoStart: 92, embargoEnd: 93, partial: false },
      { index: 2, trainStart: 52, trainEnd: 91, purgeStart: 92, purgeEnd: 93, testStart: 94, testEnd: 99, embargoStart: 100, embargoEnd: 99, partial: true },
    ]);
  });

  it('keeps the purge and the embargo exact over a grid of settings', () => {
    let checked = 0;
    for (const length of [50, 137, 400])
      for (const train of [10, 60])
        for (const test of [1, 5, 20])
          for (const purge of [0, 2, 7])
            for (const embargo of [0, 2, 9]) {
              const evalStart = Math.floor(length / 3);
              const folds = walkForwardFolds({ length, evalStart, train, test, purge, embargo });
              if (length < train + purge + test) {
                expect(folds).toEqual([]);
                continue;
              }
              expect(folds.length).toBeGreaterThan(0);
              expect(folds[0]!.testStart).toBe(Math.max(evalStart, train + purge));
              folds.forEach((f: Fold, k) => {
                expect(f.trainEnd - f.trainStart + 1).toBe(train);
                expect(f.trainStart).toBeGreaterThanOrEqual(0);
                expect(gap(f.trainEnd, f.testStart)).toBe(purge); // purge exact
                expect(f.purgeEnd - f.purgeStart + 1).toBe(purge);
                expect(f.testEnd - f.testStart + 1).toBe(f.partial ? length - f.testStart : test);
                expect(f.testEnd).toBeLessThan(length);
                const next = folds[k + 1];
                if (next) {
                  expect(gap(f.testEnd, next.testStart)).toBe(embargo); // embargo exact
                  expect(f.partial).toBe(false);
                } else expect(f.testEnd + 1 + embargo).toBeGreaterThanOrEqual(length); // no room for another fold
                checked++;
              });
            }
    expect(checked).toBeGreaterThan(300);
  });

  it('gives no fold with fewer bars than train + purge + test', () => {
    expect(walkForwardFolds({ length: 81, evalStart: 0, train: 60, test: 20, purge: 2, embargo: 2 })).toEqual([]);
    expect(walkForwardFolds({ length: 82, evalStart: 0, train: 60, test: 20, purge: 2, embargo: 2 })).toHaveLength(1);
  });

  it('refuses bad options', () => {
    expect(() => walkForwardFolds({ length: 100, evalStart: 0, train: 0, test: 5, purge: 0, embargo: 0 })).toThrow(RangeError);
    expect(() => walkForwardFolds({ length: 100, evalStart: 0, train: 10, test: 5, purge: -1, embargo: 0 })).toThrow(RangeError);
    expect(() => walkForwardFolds({ length: 100, evalStart: 0, train: 10, test: 2.5, purge: 0, embargo: 0 })).toThrow(RangeError);
  });
});

describe('purging a training set', () => {
  const fold = { trainStart: 18, trainEnd: 57, testStart: 60 };

  it('keeps a trade that entered in the train window and exited before the test window', () => {
    expect(purgedFromTraining(fold, 18, 30)).toBe(false);
    expect(purgedFromTraining(fold, 57, 59)).toBe(false); // resolved inside the purge gap
  });

  it('drops a trade whose label reaches the test window, or that entered outside the train window', () => {
    expect(purgedFromTraining(fold, 50, 60)).toBe(true);
    expect(purgedFromTraining(fold, 17, 20)).toBe(true);
    expect(purgedFromTraining(fold, 58, 59)).toBe(true); // entered in the purge gap
  });

  it('never lets a kept training label overlap its test window (every entry and exit of a grid)', () => {
    const folds = walkForwardFolds({ length: 200, evalStart: 80, train: 40, test: 15, purge: 3, embargo: 2 });
    expect(folds.length).toBeGreaterThan(3);
    let kept = 0;
    for (const f of folds)
      for (let entry = 0; entry < 200; entry++)
        for (let exit = entry; exit < Math.min(200, entry + 30); exit++) {
          if (purgedFromTraining(f, entry, exit)) continue;
          kept++;
          expect(exit).toBeLessThan(f.testStart);
          expect(entry).toBeGreaterThanOrEqual(f.trainStart);
          expect(entry).toBeLessThanOrEqual(f.trainEnd);
        }
    expect(kept).toBeGreaterThan(0);
  });
});

describe('the evaluated period', () => {
  it('counts calendar months back, clamping the day to the month’s end', () => {
    expect(new Date(monthsBefore(Date.UTC(2024, 2, 8), 6)).toISOString()).toBe('2023-09-08T00:00:00.000Z');
    expect(new Date(monthsBefore(Date.UTC(2024, 7, 31), 6)).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(new Date(monthsBefore(Date.UTC(2024, 0, 15), 1)).toISOString()).toBe('2023-12-15T00:00:00.000Z');
  });

  it('starts the test windows at the first bar after the cutoff', () => {
    // One bar a day for 400 days from 2023-01-01: the last is 2024-02-04; 3 months back is 2023-11-04.
    const day = 86_400_000;
    const calendar = Array.from({ length: 400 }, (_, i) => Date.UTC(2023, 0, 1) + i * day);
    const folds = periodFolds(calendar, { months: 3, train: 60, test: 20, purge: 2, embargo: 2 });
    expect(new Date(calendar[folds[0]!.testStart]!).toISOString().slice(0, 10)).toBe('2023-11-05');
    expect(folds[folds.length - 1]!.testEnd).toBe(399);
  });
});
