/**
 * The live scan's fit memos (workers/scan `LiveFitMemos`): a worker thread
 * keeps the fits of the patterns a scan on a series' newest bar measured, and
 * the next scan of that series reuses those ending before the new bar. Through
 * every kind of write the store takes — a new bar, a revised last bar (a
 * session still forming), several bars at once, a revised history — the scan
 * on the same store must list exactly what a scan of a fresh store (nothing
 * kept) lists. The `scan` task runs in-process here, so one memo table sees
 * every step.
 */
import { describe, expect, it } from 'bun:test';
import type { Ohlcv } from '../../src/kernels/ohlcv';
import { createSyntheticProvider } from '../../src/providers/synthetic';
import type { BarSeries } from '../../src/providers/types';
import { BarStore } from '../../src/store';
import { LIVE_MEMO_BARS, LiveFitMemos, scan } from '../../workers/scan';

const provider = createSyntheticProvider({ seed: 11, now: () => Date.UTC(2026, 0, 5, 22) });
const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'XOM', 'JPM', 'KO', 'CAT', 'TSLA'];

/** The first `n` bars of `s` as a new series, `edit` applied to its columns. */
function head(s: BarSeries, n: number, edit?: (c: Ohlcv) => void): BarSeries {
  const out: BarSeries = { symbol: s.symbol, timeframe: s.timeframe, source: s.source, ts: s.ts.slice(0, n), open: s.open.slice(0, n), high: s.high.slice(0, n), low: s.low.slice(0, n), close: s.close.slice(0, n), volume: s.volume.slice(0, n) };
  edit?.(out);
  return out;
}

function scanOf(store: BarStore, asOfTs: number) {
  return scan({ handle: store.handle(), symbols: SYMBOLS, timeframe: 'daily', asOfTs, rsRanks: { AAPL: 90, XOM: 12 }, regime: null });
}

describe('the live scan with fit memos kept between scans', () => {
  it('lists what a scan from nothing lists after every kind of write', async () => {
    const full = await Promise.all(SYMBOLS.map((symbol) => provider.bars({ symbol, timeframe: 'daily' })));
    const n = full[0]!.ts.length;
    const live = new BarStore();
    // each step: the bar count, and an edit of the columns (a revised bar)
    const lastUp = (k: number) => (c: Ohlcv) => {
      c.close[k] = c.close[k]! * 1.04;
      c.high[k] = Math.max(c.high[k]!, c.close[k]!);
    };
    const spike = (k: number) => (c: Ohlcv) => {
      for (const col of [c.open, c.high, c.low, c.close]) col[k] = col[k]! * 1.25;
    };
    const steps: [number, ((c: Ohlcv) => void)?][] = [
      [n - 40],
      [n - 39],
      [n - 39, (c) => lastUp(n - 40)(c)], // the last bar revised (a session still forming)
      [n - 38],
      [n - 30], // several sessions at once
      [n - 30, (c) => spike(n - 34)(c)], // a revised history: a new revision
      [n - 29],
      [n - 29], // the same bars again
      [n - 29 + LIVE_MEMO_BARS], // past what the memo keeps
    ];
    let findings = 0;
    for (const [bars, edit] of steps) {
      for (const s of full) live.put(head(s, bars, edit));
      const fresh = new BarStore();
      for (const s of full) fresh.put(head(s, bars, edit));
      const asOfTs = full[0]!.ts[bars - 1]!;
      const kept = scanOf(live, asOfTs);
      expect(kept).toEqual(scanOf(fresh, asOfTs));
      findings += kept.findings.length;
    }
    expect(findings).toBeGreaterThan(10);
  });
});

describe('LiveFitMemos', () => {
  it('keeps a memo while the revision holds and the bars move on, and starts afresh otherwise', () => {
    const memos = new LiveFitMemos();
    const a = memos.open('s:daily:A', 1, 100);
    expect(memos.open('s:daily:A', 1, 101)).toBe(a);
    expect(memos.open('s:daily:A', 1, 101)).toBe(a); // the same bar again (revised or not)
    expect(memos.open('s:daily:A', 2, 102)).not.toBe(a); // a revised history
    const b = memos.open('s:daily:A', 2, 103);
    expect(memos.open('s:daily:A', 2, 90)).not.toBe(b); // fewer bars: not the same series any more
    const c = memos.open('s:daily:A', 2, 91);
    memos.drop('s:daily:A');
    expect(memos.open('s:daily:A', 2, 92)).not.toBe(c);
  });

  it('drops the fits of the last bar it saw, and those older than it keeps', () => {
    const memos = new LiveFitMemos();
    const owner = {};
    const memo = memos.open('k', 1, 200);
    let measured = 0;
    const fitAt = (end: number) => memo.fit(owner, end, () => ({ end, n: ++measured }));
    fitAt(200);
    fitAt(199);
    fitAt(200 - LIVE_MEMO_BARS - 1);
    expect(measured).toBe(3);
    memos.open('k', 1, 201);
    expect(fitAt(199)).toEqual({ end: 199, n: 2 }); // kept
    expect(fitAt(200)).toEqual({ end: 200, n: 4 }); // the bar it stood on may have been revised: measured again
    expect(fitAt(200 - LIVE_MEMO_BARS - 1)).toEqual({ end: 200 - LIVE_MEMO_BARS - 1, n: 5 }); // too old: dropped
  });
});
