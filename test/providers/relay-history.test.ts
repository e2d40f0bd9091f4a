/**
 * What the vendor connection's holder keeps for followers that missed
 * relay messages (providers/live/relay-history): each window's latest bar and
 * every close, for `keepMs`.
 */
import { describe, expect, it } from 'bun:test';
import { RelayHistory } from '../../src/providers/live/relay-history';
import type { LiveBar } from '../../src/providers/live/types';

const bar = (t: number, c: number): LiveBar => ({ symbol: 'SPY', timeframe: '1h', bar: { t, o: 1, h: 2, l: 0.5, c, v: 10 }, final: false, revised: false });

describe('the relay history', () => {
  it('sends a hole’s windows at their latest state in it, and its closes, oldest first', () => {
    const history = new RelayHistory(60_000, () => 0);
    history.keep({ k: 'bar', seq: 1, bar: bar(0, 1.1) });
    history.keep({ k: 'bar', seq: 2, bar: bar(0, 1.2) });
    history.keep({ k: 'close', seq: 3, close: { timeframe: '1h', start: 0, end: 3_600_000 } });
    history.keep({ k: 'bar', seq: 4, bar: bar(3_600_000, 2.1) });
    history.keep({ k: 'bar', seq: 5, bar: bar(3_600_000, 2.2) });
    expect(history.between(0, 3)).toEqual({ messages: [{ k: 'bar', seq: 2, bar: bar(0, 1.2) }, { k: 'close', seq: 3, close: { timeframe: '1h', start: 0, end: 3_600_000 } }], complete: true });
    // seq 4 was superseded by 5, which came after the hole: nothing of the hole is owed
    expect(history.between(3, 4)).toEqual({ messages: [], complete: true });
  });

  it('says a hole reaching past what it still keeps is not complete', () => {
    let now = 0;
    const history = new RelayHistory(60_000, () => now);
    history.keep({ k: 'close', seq: 1, close: { timeframe: '1h', start: 0, end: 3_600_000 } });
    now = 61_000;
    history.keep({ k: 'bar', seq: 2, bar: bar(3_600_000, 2.1) });
    expect(history.between(0, 2)).toEqual({ messages: [{ k: 'bar', seq: 2, bar: bar(3_600_000, 2.1) }], complete: false });
    expect(history.between(1, 2).complete).toBe(true);
  });
});
