import { describe, expect, it } from 'bun:test';
import { earningsDates, injectedPatterns } from '../../../src/providers/synthetic';
import { sliceSeries, type BarSeries } from '../../../src/providers/types';
import type { Timeframe } from '../../../src/domain/signal';
import { DAY, NOW, provider } from './fixtures';

const SYMBOLS = ['SPY', 'AAPL', 'BRK.B', 'XLE', 'QQQ'];
const TIMEFRAMES: Timeframe[] = ['daily', '1h', '4h'];

function columns(s: BarSeries): number[][] {
  return [s.ts, s.open, s.high, s.low, s.close, s.volume].map((a) => Array.from(a));
}

describe('same seed, same market', () => {
  it('gives identical bars from two providers with the same seed', async () => {
    const a = provider(42);
    const b = provider(42);
    for (const symbol of SYMBOLS) {
      for (const timeframe of TIMEFRAMES) {
        expect(columns(await a.bars({ symbol, timeframe }))).toEqual(columns(await b.bars({ symbol, timeframe })));
      }
    }
  });

  it('gives identical quotes and injected patterns', async () => {
    const a = provider(42);
    const b = provider(42);
    expect(await a.snapshot({ symbol: 'AAPL' })).toEqual(await b.snapshot({ symbol: 'AAPL' }));
    expect(a.injectedPatterns('NVDA')).toEqual(b.injectedPatterns('NVDA'));
    expect(injectedPatterns('NVDA', { seed: 42, now: () => NOW })).toEqual(a.injectedPatterns('NVDA'));
  });

  it('draws the same daily paths in worker threads (prepareDaily) as on demand, and the same bars from them', async () => {
    const symbols = [...SYMBOLS, 'MSFT', 'NVDA', 'XOM', 'JPM', 'IWM', 'AMZN', 'TSLA'];
    const a = provider(42);
    const b = provider(42);
    // 12 symbols over up to 2 threads: fewer than 32 a thread, so one thread draws them all.
    expect(await a.prepareDaily({ symbols, threads: 2 })).toBe(symbols.length);
    for (const symbol of symbols) {
      expect(columns(await a.bars({ symbol, timeframe: 'daily' }))).toEqual(columns(await b.bars({ symbol, timeframe: 'daily' })));
      expect(a.injectedPatterns(symbol)).toEqual(b.injectedPatterns(symbol));
    }
    expect(await a.snapshot({ symbol: 'NVDA' })).toEqual(await b.snapshot({ symbol: 'NVDA' }));
  });

  it('draws the same 1h and 4h bars in worker threads (prepareIntraday) as on demand', async () => {
    const symbols = ['AAPL', 'SPY', 'XLE'];
    const a = provider(42);
    const b = provider(42);
    expect(await a.prepareIntraday({ symbols })).toBe(symbols.length);
    for (const symbol of symbols) {
      for (const timeframe of ['4h', '1h', '4h'] as const) {
        const drawn = columns(await a.bars({ symbol, timeframe }));
        expect(drawn[0]!.length).toBeGreaterThan(100);
        expect(drawn).toEqual(columns(await b.bars({ symbol, timeframe })));
      }
      expect(columns(await a.bars({ symbol, timeframe: 'daily' }))).toEqual(columns(await b.bars({ symbol, timeframe: 'daily' })));
    }
  });

  it('defaults to seed 42', async () => {
    const implicit = await (await import('../../../src/providers/synthetic')).createSyntheticProvider({ now: () => NOW }).bars({ symbol: 'MSFT', timeframe: 'daily' });
    expect(columns(implicit)).toEqual(columns(await provider(42).bars({ symbol: 'MSFT', timeframe: 'daily' })));
  });

  it('gives a different market under a different seed', async () => {
    const a = await provider(42).bars({ symbol: 'AAPL', timeframe: 'daily' });
    const b = await provider(43).bars({ symbol: 'AAPL', timeframe: 'daily' });
    expect(a.ts).toEqual(b.ts); // the calendar does not depend on the seed
    expect(Array.from(a.close)).not.toEqual(Array.from(b.close));
    expect(earningsDates('AAPL', { seed: 42 })).not.toEqual(earningsDates('AAPL', { seed: 43 }));
  });
});

describe('history anchored at 2019-01-02', () => {
  it('starts every daily series on the first session of 2019', async () => {
    const spy = await provider().bars({ symbol: 'SPY', timeframe: 'daily' });
    expect(new Date(spy.ts[0]!).toISOString()).toBe('2019-01-02T00:00:00.000Z');
    expect(spy.ts.length).toBeGreaterThan(4 * 252);
  });

  it('never rewrites a closed session when the clock moves on', async () => {
    const early = provider(42, NOW);
    const later = provider(42, NOW + 100 * DAY);
    for (const symbol of ['AAPL', 'XLK', 'IWM']) {
      const before = await early.bars({ symbol, timeframe: 'daily', to: NOW - DAY });
      const after = await later.bars({ symbol, timeframe: 'daily', to: NOW - DAY });
      expect(columns(after)).toEqual(columns(before));
      // Intraday bars of closed sessions agree too, wherever both windows hold them.
      const h1Before = await early.bars({ symbol, timeframe: '1h', to: NOW - DAY });
      const h1After = await later.bars({ symbol, timeframe: '1h', to: NOW - DAY });
      expect(columns(h1After)).toEqual(columns(h1Before));
    }
  });

  it('finishes today\'s partial bar into the bar a later clock reports', async () => {
    const live = await provider(42, NOW).bars({ symbol: 'AAPL', timeframe: '1h' });
    const next = await provider(42, NOW + 3 * DAY).bars({ symbol: 'AAPL', timeframe: '1h' });
    // The 09:30–11:30 bars of 2026-11-20 were complete at 13:00; the 12:30 bar was not.
    const done = sliceSeries(live, Date.UTC(2026, 10, 20, 14, 30), Date.UTC(2026, 10, 20, 16, 30));
    expect(columns(sliceSeries(next, Date.UTC(2026, 10, 20, 14, 30), Date.UTC(2026, 10, 20, 16, 30)))).toEqual(columns(done));
  });

  it('reports the same earnings dates and pattern history under any later clock', () => {
    const early = provider(42, NOW);
    const later = provider(42, NOW + 200 * DAY);
    let resolved = 0;
    for (const symbol of ['AMZN', 'AAPL', 'NVDA', 'JPM', 'XOM', 'UNH', 'HD', 'LLY']) {
      expect(later.earningsDates(symbol)).toEqual(early.earningsDates(symbol));
      const resolvedEarly = early.injectedPatterns(symbol).filter((r) => r.outcome !== 'pending');
      expect(later.injectedPatterns(symbol).slice(0, resolvedEarly.length)).toEqual(resolvedEarly);
      resolved += resolvedEarly.length;
    }
    expect(resolved).toBeGreaterThan(0);
  });
});
