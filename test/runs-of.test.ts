import { describe, expect, it } from 'bun:test';
import { runsOf } from '../src/runs-of';

describe('runsOf', () => {
  it('splits items into consecutive runs of at most the size, in order, the last one shorter', () => {
    expect(runsOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(runsOf(['a', 'b', 'c'], 3)).toEqual([['a', 'b', 'c']]);
    expect(runsOf([], 4)).toEqual([]);
  });
});
