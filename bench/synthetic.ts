/**
 * bench/synthetic: what the `synthetic` provider costs. Constructing it must
 * stay under 50 ms (boot); one symbol's full daily + intraday history should
 * take a millisecond or two; the whole universe's daily history well under 2 s.
 *
 *   bun run bench/synthetic.ts
 */
import { createSyntheticProvider } from '../src/providers/synthetic';
import { printTable } from './lib';

/** A Friday 13:03:17 New York, in session and mid-step, so bars end in a partial day and quotes scan their step. */
const NOW = Date.UTC(2026, 10, 20, 18, 3, 17);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

async function time<T>(fn: () => Promise<T> | T): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

export async function benchSynthetic(): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  let provider = createSyntheticProvider({ now: () => NOW });
  rows.push({ step: 'construct provider', ms: await time(() => createSyntheticProvider({ now: () => NOW })), note: 'boot cost; goal < 50 ms' });
  rows.push({ step: 'first request (factors + SPY)', ms: await time(() => provider.bars({ symbol: 'SPY', timeframe: 'daily' })), note: 'includes JIT warm-up' });

  const universe = await provider.universe();
  const stocks = universe.filter((i) => i.kind === 'stock').map((i) => i.symbol);
  // Warm the JIT on other symbols first so the medians show steady-state cost.
  const warm = createSyntheticProvider({ now: () => NOW });
  for (const symbol of stocks.slice(0, 300)) {
    await warm.bars({ symbol, timeframe: 'daily' });
    await warm.bars({ symbol, timeframe: '1h' });
  }
  const sample = stocks.slice(400, 460);
  const daily: number[] = [];
  const intraday: number[] = [];
  for (const symbol of sample) daily.push(await time(() => provider.bars({ symbol, timeframe: 'daily' })));
  for (const symbol of sample) {
    intraday.push(
      await time(async () => {
        await provider.bars({ symbol, timeframe: '1h' });
        await provider.bars({ symbol, timeframe: '4h' });
      }),
    );
  }
  rows.push({ step: 'one symbol daily (median of 60)', ms: median(daily), note: `${(await provider.bars({ symbol: 'AAPL', timeframe: 'daily' })).ts.length} bars` });
  rows.push({ step: 'one symbol 1h + 4h (median of 60)', ms: median(intraday), note: '126 sessions' });
  rows.push({ step: 'one symbol daily + 1h + 4h', ms: median(daily) + median(intraday), note: 'goal ~1-2 ms' });

  provider = createSyntheticProvider({ now: () => NOW });
  const all = await time(async () => {
    for (const { symbol } of universe) await provider.bars({ symbol, timeframe: 'daily' });
  });
  rows.push({ step: `all ${universe.length} symbols daily (fresh)`, ms: all, note: 'goal well under 2 s' });
  const cached = await time(async () => {
    for (const { symbol } of universe) await provider.bars({ symbol, timeframe: 'daily' });
  });
  rows.push({ step: `all ${universe.length} symbols daily (cached)`, ms: cached, note: 'partial day rebuilt per call' });
  const quotes = await time(async () => {
    for (const { symbol } of universe) await provider.snapshot({ symbol });
  });
  rows.push({ step: `snapshot per symbol (${universe.length})`, ms: quotes / universe.length, note: 'in session' });
  printTable('synthetic provider', rows.map((r) => ({ ...r, ms: Number(r.ms).toFixed(3) })));
  await printRealism(provider, stocks);
}

/** The stylised facts the tests hold the simulator to, measured on this run. */
async function printRealism(provider: ReturnType<typeof createSyntheticProvider>, stocks: string[]): Promise<void> {
  const acf = (xs: number[], lag: number) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    let num = 0;
    let den = 0;
    for (let i = 0; i < xs.length; i++) {
      den += (xs[i]! - m) ** 2;
      if (i >= lag) num += (xs[i]! - m) * (xs[i - lag]! - m);
    }
    return num / den;
  };
  const kurtosis = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    let m2 = 0;
    let m4 = 0;
    for (const x of xs) {
      m2 += (x - m) ** 2;
      m4 += (x - m) ** 4;
    }
    return (m4 / xs.length) / (m2 / xs.length) ** 2 - 3;
  };
  const kurt: number[] = [];
  const vols: number[] = [];
  const raw = [0, 0, 0, 0, 0];
  const abs = [0, 0, 0, 0, 0];
  let patterns = 0;
  let breakouts = 0;
  let failures = 0;
  for (const symbol of stocks) {
    const c = (await provider.bars({ symbol, timeframe: 'daily' })).close;
    const r: number[] = [];
    for (let i = 1; i < c.length - 1; i++) r.push(Math.log(c[i]! / c[i - 1]!));
    kurt.push(kurtosis(r));
    const m = r.reduce((a, b) => a + b, 0) / r.length;
    vols.push(Math.sqrt((r.reduce((a, x) => a + (x - m) ** 2, 0) / r.length) * 252));
    for (let lag = 1; lag <= 5; lag++) {
      raw[lag - 1]! += acf(r, lag) / stocks.length;
      abs[lag - 1]! += acf(r.map(Math.abs), lag) / stocks.length;
    }
    for (const p of provider.injectedPatterns(symbol)) {
      patterns++;
      if (p.outcome === 'breakout') breakouts++;
      else if (p.outcome === 'failure') failures++;
    }
  }
  kurt.sort((a, b) => a - b);
  vols.sort((a, b) => a - b);
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(' ');
  printTable(`synthetic realism (${stocks.length} stocks, daily log returns)`, [
    { measure: 'excess kurtosis, median (min)', value: `${median(kurt).toFixed(2)} (${kurt[0]!.toFixed(2)})` },
    { measure: 'annualised vol, min / median / max', value: `${vols[0]!.toFixed(3)} / ${median(vols).toFixed(3)} / ${vols.at(-1)!.toFixed(3)}` },
    { measure: 'acf of returns, lags 1-5', value: fmt(raw) },
    { measure: 'acf of |returns|, lags 1-5', value: fmt(abs) },
    { measure: 'injected patterns per stock', value: (patterns / stocks.length).toFixed(2) },
    { measure: 'breakout share of resolved', value: (breakouts / (breakouts + failures)).toFixed(3) },
  ]);
}

if (import.meta.main) await benchSynthetic();
