/**
 * @module test/kernels/signal-view
 * A page of a view (`pageOfView`): the ranking best first, or one group per
 * symbol in the rollup view, with the envelope's counts — worked out by hand
 * over five ranked signals of three symbols.
 */
import { describe, expect, it } from 'bun:test';
import { summarize } from '../../src/kernels/alert-policy';
import { byRank, pagedCount, pageOfView, type SignalView } from '../../src/kernels/signal-view';
import { makeSignal } from '../helpers/signal';

// Ranked best first (byRank): A 90, B 80, A 70, C 60, B 50.
const signals = [
  makeSignal({ symbol: 'A', finalScore: 90, patternType: 'flat_base' }),
  makeSignal({ symbol: 'B', finalScore: 80 }),
  makeSignal({ symbol: 'A', finalScore: 70, patternType: 'vcp', detectedAt: '2026-11-17T21:00:00.000Z' }),
  makeSignal({ symbol: 'C', finalScore: 60 }),
  makeSignal({ symbol: 'B', finalScore: 50, detectedAt: '2026-11-16T21:00:00.000Z' }),
].sort(byRank);
const view: SignalView = { timeframe: 'daily', asOf: '2026-11-18T21:00:00.000Z', generatedAt: '2026-11-18T21:05:00.000Z', regime: null, signals, alerts: { candidates: [], blocked: [], summary: summarize([], []) } };

describe('pageOfView', () => {
  it('pages the ranking best first by default, and from the worst with order=asc', () => {
    const first = pageOfView(view, { limit: 2 });
    expect(first.items.map((s) => s.finalScore)).toEqual([90, 80]);
    expect(first.pagination).toMatchObject({ limit: 2, offset: 0, hasMore: true, total: 5 });
    expect(first.rollups).toBeUndefined();
    expect(pageOfView(view, { limit: 2, offset: 4 }).items.map((s) => s.finalScore)).toEqual([50]);
    expect(pageOfView(view, { limit: 2, order: 'asc' }).items.map((s) => s.finalScore)).toEqual([50, 60]);
  });

  it('groups by symbol in the rollup view, in the order of each best signal, and counts symbols', () => {
    const page = pageOfView(view, { view: 'rollup', limit: 2 });
    expect(page.rollups?.map((r) => [r.symbol, r.count, r.patterns])).toEqual([
      ['A', 2, ['flat_base', 'vcp']],
      ['B', 2, ['flat_base']],
    ]);
    expect(page.items.map((s) => s.finalScore)).toEqual([90, 80]);
    expect(page.pagination).toMatchObject({ hasMore: true, total: 3 });
    expect(pageOfView(view, { view: 'rollup', limit: 2, offset: 2 }).rollups?.map((r) => r.symbol)).toEqual(['C']);
  });

  it('counts what it pages through: signals, or symbols in the rollup view', () => {
    expect(pagedCount(view, false)).toBe(5);
    expect(pagedCount(view, true)).toBe(3);
  });
});
