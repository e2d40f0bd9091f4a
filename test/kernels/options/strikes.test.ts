import { describe, expect, it } from 'bun:test';
import { nearestStrike, strikeGrid, strikeIncrement } from '../../../src/kernels/options/strikes';

describe('strike grid', () => {
  it('widens the increment with the price', () => {
    expect([10, 24.99, 25, 49, 50, 199.9, 200, 499, 500, 3000].map(strikeIncrement)).toEqual([0.5, 0.5, 1, 1, 2.5, 2.5, 5, 5, 10, 10]);
    expect(() => strikeIncrement(0)).toThrow(RangeError);
  });
  it('rounds to the nearest listed strike', () => {
    expect(nearestStrike(187.3, 187.3)).toBe(187.5);
    expect(nearestStrike(186.2, 187.3)).toBe(185);
    expect(nearestStrike(0.1, 10)).toBe(0.5);
    expect(nearestStrike(612, 604)).toBe(610);
  });
  it('lists the strikes of a range', () => {
    expect(strikeGrid(95, 105, 100)).toEqual([95, 97.5, 100, 102.5, 105]);
    expect(strikeGrid(21.2, 22.9, 22)).toEqual([21.5, 22, 22.5]);
  });
});
