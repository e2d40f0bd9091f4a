/**
 * The backtest tasks' data fingerprints (workers/backtest): each worker
 * thread keeps a series' hash while its bars are unchanged; whatever it
 * kept, every task must report the SHA-256 of exactly the bars it read —
 * after a revised last bar, an appended bar, a run cut before the newest
 * bar, and from a second store whose generation looks alike.
 */
import { describe, expect, it } from 'bun:test';
import { headBars, type Ohlcv } from '../../src/kernels/ohlcv';
import { BarStore } from '../../src/store';
import { backtestCandidates, backtestRegimes, fingerprint, walkForward, type WalkForwardParams } from '../../workers/backtest';

const DAY = 86_400_000;
const START = Date.UTC(2023, 0, 2);

/** `n` daily bars of a seeded random walk (every day a bar: the kernels need no calendar). */
function walk(n: number, seed: number, lastClose?: number): Ohlcv & { symbol: string; timeframe: 'daily'; source: string } {
  let x = seed;
  const rand = () => ((x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const ts = new Float64Array(n);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  let price = 50;
  for (let i = 0; i < n; i++) {
    ts[i] = START + i * DAY;
    open[i] = price;
    price *= 1 + (rand() - 0.48) * 0.04;
    close[i] = i === n - 1 && lastClose !== undefined ? lastClose : price;
    high[i] = Math.max(open[i]!, close[i]!) * (1 + rand() * 0.01);
    low[i] = Math.min(open[i]!, close[i]!) * (1 - rand() * 0.01);
    volume[i] = 1e6 * (0.5 + rand());
  }
  return { symbol: 'WALK', timeframe: 'daily', source: 'test', ts, open, high, low, close, volume };
}

const params: WalkForwardParams = { months: 6, train: 60, test: 20, purge: 2, embargo: 2, maxHold: 20, costs: { commissionPerShare: 0.005, slippageBps: 5 }, capital: 100_000, maxPositions: 1, minTrainTrades: 5 };

/** The fingerprint each task reports for WALK over `calendar`. */
function reported(store: BarStore, calendar: number[]) {
  const handle = store.handle();
  const endTs = calendar[calendar.length - 1]!;
  const [candidates] = backtestCandidates({ handle, symbols: ['WALK'], calendar, ranks: {}, regimes: calendar.map(() => null), maxHold: 20, costs: params.costs });
  const regimes = backtestRegimes({ handle, benchmark: 'WALK', calendar, breadth: calendar.map(() => null) });
  const single = walkForward({ handle, symbol: 'WALK', benchmark: 'WALK', endTs, params });
  if (!single.ok) throw new Error('walkForward: too few bars');
  return [candidates!.fingerprint, regimes.fingerprint, single.fingerprints.WALK];
}

const lastBars = (bars: Ohlcv, k: number) => Array.from(bars.ts.subarray(bars.ts.length - k));

describe('the backtest fingerprints', () => {
  it('hash exactly the bars read, as those bars change', () => {
    const store = new BarStore();
    const first = walk(320, 1);
    store.put(first);
    const expected = fingerprint(first);
    expect(reported(store, lastBars(first, 3))).toEqual([expected, expected, expected]);
    expect(reported(store, lastBars(first, 3))).toEqual([expected, expected, expected]); // kept

    const revised = walk(320, 1, 77); // the same bars but the last
    store.put(revised);
    const afterRevision = fingerprint(revised);
    expect(afterRevision).not.toBe(expected);
    expect(reported(store, lastBars(revised, 3))).toEqual([afterRevision, afterRevision, afterRevision]);

    const appended = walk(321, 1, undefined);
    appended.close[319] = 77; // as revised, then one bar more
    appended.high[319] = revised.high[319]!;
    appended.low[319] = revised.low[319]!;
    store.put(appended);
    const all = fingerprint(appended);
    expect(reported(store, lastBars(appended, 3))).toEqual([all, all, all]);
    // A run that ends before the newest bar reads (and hashes) the bars up to its end only.
    const cut = fingerprint(headBars(appended, 320));
    expect(reported(store, lastBars(headBars(appended, 320), 3))).toEqual([cut, cut, cut]);
  });

  it('tell two stores apart when their generations look alike', () => {
    const a = new BarStore();
    const b = new BarStore();
    const barsA = walk(320, 2);
    const barsB = walk(320, 3);
    a.put(barsA);
    b.put(barsB);
    expect(a.handle().generation).toBe(b.handle().generation);
    const calendar = lastBars(barsA, 3);
    expect(reported(a, calendar)[0]).toBe(fingerprint(barsA));
    expect(reported(b, calendar)[0]).toBe(fingerprint(barsB));
    expect(reported(a, calendar)[0]).toBe(fingerprint(barsA));
  });
});
