import { describe, expect, it } from 'bun:test';
import { formatSweep, lawOf } from '../../../src/cli/capacity/laws';
import { capacityArguments, sweepArguments } from '../../../src/cli/capacity/options';
import { law } from '../../../src/cli/capacity/sweep';
import { originalOf, WidenedUniverse } from '../../../src/cli/capacity/widened-universe';
import { workLaws } from '../../../src/cli/capacity/work-sweep';
import type { BarSeries, Instrument, MarketDataProvider } from '../../../src/providers/types';

describe('breakline capacity --sweep: the laws', () => {
  it('fits a scaling law over the steps that measured both figures, its slope in an operator’s unit', () => {
    // RSS grows 8 KB a stream over 400 MB; the step that read no RSS is left out.
    const steps = [1000, 2000, 3000, 4000].map((clients, i) => ({ sse: { clients }, rssBytes: i === 3 ? undefined : (400 * 1024 + 8 * clients) * 1024 })) as never[];
    const found = law(steps, 'memory per stream', ['streams', (s: { sse: { clients: number } }) => s.sse.clients], ['RSS KB', (s: { rssBytes?: number }) => (s.rssBytes === undefined ? undefined : s.rssBytes / 1024)], (b) => `${b} KB a stream`)!;
    expect(found.slope).toBeCloseTo(8, 9);
    expect(found.intercept).toBeCloseTo(400 * 1024, 6);
    expect(found.points).toHaveLength(3);
    expect(formatSweep({ startedAt: '2026-11-27T23:00:00.000Z', loadAverage: [1, 1], laws: [found], stopped: [] })).toContain('RSS KB = 409600 + 8 × streams');
    expect(law(steps.slice(0, 1), 'one point', ['streams', () => 1], ['RSS KB', () => 1], String)).toBeUndefined();
  });

  it('fits a line through points off it, with the R² of ordinary least squares', () => {
    // (1,2) (2,4) (3,5): slope Sxy/Sxx = 3/2, intercept ȳ − 1.5·x̄ = 11/3 − 3 = 2/3,
    // residuals −1/6, 1/3, −1/6: SSres = 1/6, SStot = 42/9, R² = 1 − 9/252 = 27/28.
    const found = lawOf([[1, 2], [2, 4], [3, 5]], 'requests per core', 'cores', 'req/s', (b) => `${b} req/s a core more`)!;
    expect(found.slope).toBeCloseTo(1.5, 12);
    expect(found.intercept).toBeCloseTo(2 / 3, 12);
    expect(found.r2).toBeCloseTo(27 / 28, 12);
    expect(found.perUnit).toBe('1.5 req/s a core more');
    expect(lawOf([[2, 1], [2, 3]], 'one x', 'cores', 'req/s', String)).toBeUndefined();
  });

  it('makes a wall-time and a CPU-time law of a work’s points, in seconds when asked', () => {
    // A replay of 2.5 s + 1.5 s a year (wall) and 1 s a year of CPU.
    const points = [1, 2, 4].map((years) => ({ x: years, wallMs: (2.5 + 1.5 * years) * 1000, cpuMs: years * 1000 }));
    const [wall, cpu] = workLaws(points, 'replay of 50 stocks', 'years', 'year of history', 's');
    expect(wall).toMatchObject({ what: 'replay of 50 stocks time', x: 'years', y: 'wall s', perUnit: '1.5 s a year of history', r2: 1 });
    expect(wall!.intercept).toBeCloseTo(2.5, 9);
    expect(cpu).toMatchObject({ what: 'replay of 50 stocks CPU', y: 'CPU s', perUnit: '1 CPU s a year of history' });
    expect(cpu!.points).toEqual([[1, 1], [2, 2], [4, 4]]);
    expect(workLaws(points.slice(0, 1), 'one', 'years', 'year', 's')).toEqual([]);
  });

  it('prints each law as its line, its slope, R² and its points', () => {
    const scan = workLaws(
      [100, 1000, 2000].map((stocks) => ({ x: stocks, wallMs: 50 + 0.5 * stocks, cpuMs: stocks })),
      'daily scan (pool of 2)',
      'stocks',
      'stock',
      'ms',
    );
    const text = formatSweep({ startedAt: '2026-11-28T02:00:00.000Z', loadAverage: [3.2, 4.1], laws: scan, stopped: ['universe: every size measured'] });
    const lines = text.split('\n');
    expect(lines[0]).toBe('breakline capacity --sweep — 2026-11-28T02:00:00.000Z, load average 3.2 → 4.1 (1 min)');
    expect(lines[2]!.split(/\s{2,}/)).toEqual(['law', 'fit', 'slope', 'R²', 'points']);
    expect(lines[4]).toMatch(/^daily scan \(pool of 2\) time\s+wall ms = 50 \+ 0\.5 × stocks\s+0\.5 ms a stock\s+1\s+100→100 1000→550 2000→1050$/);
    expect(lines[5]).toMatch(/^daily scan \(pool of 2\) CPU\s+CPU ms = 0 \+ 1 × stocks\s+1 CPU ms a stock\s+1\s+100→100 1000→1000 2000→2000$/);
    expect(lines.at(-1)).toBe('Stopped: universe: every size measured');
  });
});

describe('breakline capacity --sweep: a universe of any size', () => {
  const instrument = (symbol: string, kind: Instrument['kind'] = 'stock'): Instrument => ({ symbol, name: symbol, sector: kind === 'stock' ? 'Energy' : null, kind, indices: [] });
  const series = (symbol: string): BarSeries => {
    const column = () => Float64Array.of(1, 2);
    return { symbol, timeframe: 'daily', ts: Float64Array.of(0, 86_400_000), open: column(), high: column(), low: column(), close: column(), volume: column(), source: 'fake' } as BarSeries;
  };
  const base = {
    name: 'fake',
    capabilities: new Set(['bars']),
    synthetic: true,
    remote: false,
    testSymbol: 'SPY',
    universe: async () => [instrument('SPY', 'etf'), instrument('AAA'), instrument('BRK.B'), instrument('CCC')],
    bars: async ({ symbol }: { symbol: string }) => {
      if (!['SPY', 'AAA', 'BRK.B', 'CCC'].includes(symbol)) throw new Error(`unknown ${symbol}`);
      return series(symbol);
    },
    snapshot: async () => {
      throw new Error('not asked');
    },
    selfCheck: async () => ({ status: 'ok', provider: 'fake' }),
  } as unknown as MarketDataProvider;

  it('repeats the stocks under other names, copy 2 of each before copy 3, up to the size asked', async () => {
    const wide = new WidenedUniverse(base, 8);
    expect(await wide.stocks()).toEqual(['AAA', 'BRK.B', 'CCC', 'AAA.2', 'BRK.B.2', 'CCC.2', 'AAA.3', 'BRK.B.3']);
    expect((await wide.universe()).filter((i) => i.kind === 'etf').map((i) => i.symbol)).toEqual(['SPY']);
    expect(await new WidenedUniverse(base, 2).stocks()).toEqual(['AAA', 'BRK.B']);
  });

  it('serves a copy its original’s bars under its own name', async () => {
    const wide = new WidenedUniverse(base, 8);
    const copy = await wide.bars({ symbol: 'BRK.B.3', timeframe: 'daily' });
    expect(copy.symbol).toBe('BRK.B.3');
    expect([...copy.close]).toEqual([1, 2]);
    expect((await wide.bars({ symbol: 'BRK.B', timeframe: 'daily' })).symbol).toBe('BRK.B');
    expect(originalOf('BRK.B')).toBe('BRK.B');
    expect(originalOf('AAA.12')).toBe('AAA');
  });
});

describe('breakline capacity --sweep: arguments', () => {
  it('sweeps every dimension over the default points unless told', () => {
    const parsed = sweepArguments({}, 2);
    expect(parsed).toEqual({ ok: true, value: { dimensions: ['streams', 'requests', 'cores', 'universe', 'years'], coreCounts: [1, 2], universeSizes: [100, 500, 1000, 1500, 2000], years: [1, 2, 3, 4], replaySymbols: 50 } });
    const some = capacityArguments(['--sweep', '--dimensions', 'universe,years', '--universe-sizes', '100,300', '--years', '1,2', '--replay-symbols', '10']);
    expect(some.ok && some.value.sweep).toEqual({ dimensions: ['universe', 'years'], coreCounts: expect.any(Array), universeSizes: [100, 300], years: [1, 2], replaySymbols: 10 });
  });

  it('refuses an unknown dimension, a single point, more cores than the machine has and part years', () => {
    const error = (values: Parameters<typeof sweepArguments>[0]) => {
      const parsed = sweepArguments(values, 2);
      return parsed.ok ? undefined : parsed.error;
    };
    expect(error({ dimensions: 'streams,disk' })).toContain('--dimensions takes some of streams,requests,cores,universe,years');
    expect(error({ 'universe-sizes': '500' })).toContain('two or more');
    expect(error({ 'core-counts': '1,4' })).toBe('--core-counts: this machine has 2 cores');
    expect(error({ years: '0.5,1' })).toContain('whole numbers');
    expect(error({ 'replay-symbols': '0' })).toContain('--replay-symbols');
  });
});
