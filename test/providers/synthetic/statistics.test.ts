/**
 * The stylised facts of daily equity returns (Cont, "Empirical properties of
 * asset returns: stylized facts and statistical issues", Quantitative Finance
 * 1, 2001): heavy tails, no linear autocorrelation, slowly decaying
 * autocorrelation of absolute returns, and co-movement within sectors.
 */
import { beforeAll, describe, expect, it } from 'bun:test';
import { sessionOpenClose } from '../../../src/providers/calendar';
import { SECTOR_ETFS, loadInstruments } from '../../../src/providers/universe';
import { autocorrelation, correlation, excessKurtosis, HOUR, isoDay, logReturns, mean, median, provider, variance } from './fixtures';

const market = provider();
const stocks = loadInstruments().filter((i) => i.kind === 'stock');
const returns = new Map<string, number[]>();

beforeAll(async () => {
  for (const { symbol } of loadInstruments()) returns.set(symbol, logReturns(await market.bars({ symbol, timeframe: 'daily' })));
});

function standardised(xs: number[]): number[] {
  const m = mean(xs);
  const sd = Math.sqrt(variance(xs));
  return xs.map((x) => (x - m) / sd);
}

describe('fat tails', () => {
  it('has pooled excess kurtosis well above 1 (each stock standardised by its own volatility)', () => {
    const pooled = stocks.flatMap((s) => standardised(returns.get(s.symbol)!));
    expect(excessKurtosis(pooled)).toBeGreaterThan(3);
  });

  it('has excess kurtosis above 1 for most single stocks', () => {
    const k = stocks.map((s) => excessKurtosis(returns.get(s.symbol)!));
    expect(median(k)).toBeGreaterThan(3);
    expect(k.filter((x) => x > 1).length / k.length).toBeGreaterThan(0.95);
  });
});

describe('volatility clustering without return predictability', () => {
  const lags = [1, 2, 3, 4, 5];
  const meanAcf = (f: (xs: number[]) => number[], lag: number) => mean(stocks.map((s) => autocorrelation(f(returns.get(s.symbol)!), lag)));

  it('has positive autocorrelation of absolute returns at lags 1–5', () => {
    for (const lag of lags) expect(meanAcf((xs) => xs.map(Math.abs), lag)).toBeGreaterThan(0.04);
  });

  it('has near-zero autocorrelation of raw returns at lags 1–5', () => {
    for (const lag of lags) expect(Math.abs(meanAcf((xs) => xs, lag))).toBeLessThan(0.05);
  });

  it('clusters in the market factor too (SPY squared returns)', () => {
    const spy = returns.get('SPY')!.map((x) => x * x);
    for (const lag of lags) expect(autocorrelation(spy, lag)).toBeGreaterThan(0.05);
  });
});

describe('volatility levels', () => {
  const annualised = (xs: number[]) => Math.sqrt(variance(xs) * 252);

  it('gives every stock an annualised volatility between 15 % and 60 %', () => {
    for (const s of stocks) {
      const vol = annualised(returns.get(s.symbol)!);
      if (vol < 0.15 || vol > 0.6) throw new Error(`${s.symbol}: annualised volatility ${vol.toFixed(3)}`);
    }
    expect(median(stocks.map((s) => annualised(returns.get(s.symbol)!)))).toBeWithin(0.22, 0.4);
  });

  it('gives the benchmarks index-like volatility, IWM above SPY', () => {
    const spy = annualised(returns.get('SPY')!);
    expect(spy).toBeWithin(0.1, 0.3);
    expect(annualised(returns.get('IWM')!)).toBeGreaterThan(spy);
  });
});

describe('co-movement', () => {
  it('correlates stocks within a GICS sector more than across sectors', () => {
    let within = 0;
    let withinN = 0;
    let across = 0;
    let acrossN = 0;
    for (let i = 0; i < stocks.length; i += 3) {
      for (let j = i + 1; j < stocks.length; j += 7) {
        const c = correlation(returns.get(stocks[i]!.symbol)!, returns.get(stocks[j]!.symbol)!);
        if (stocks[i]!.sector === stocks[j]!.sector) {
          within += c;
          withinN++;
        } else {
          across += c;
          acrossN++;
        }
      }
    }
    expect(within / withinN).toBeGreaterThan(across / acrossN + 0.08);
    expect(across / acrossN).toBeGreaterThan(0.05); // the market factor ties everything together
  });

  it('correlates each sector ETF with its own members more than with other stocks', () => {
    for (const [sector, etf] of Object.entries(SECTOR_ETFS)) {
      const fund = returns.get(etf)!;
      const own = stocks.filter((s) => s.sector === sector).map((s) => correlation(fund, returns.get(s.symbol)!));
      const others = stocks.filter((s) => s.sector !== sector).slice(0, 80).map((s) => correlation(fund, returns.get(s.symbol)!));
      expect(mean(own)).toBeGreaterThan(mean(others) + 0.1);
    }
  });

  it('tilts QQQ to technology and ties every benchmark to the market', () => {
    const spy = returns.get('SPY')!;
    expect(correlation(returns.get('QQQ')!, spy)).toBeGreaterThan(0.8);
    expect(correlation(returns.get('IWM')!, spy)).toBeGreaterThan(0.7);
    expect(correlation(returns.get('QQQ')!, returns.get('XLK')!)).toBeGreaterThan(correlation(returns.get('IWM')!, returns.get('XLK')!));
  });
});

describe('volume', () => {
  it('trades in an intraday U: the first hour and the last half hour outweigh midday', async () => {
    const byHour = [0, 0, 0, 0, 0, 0, 0];
    for (const s of stocks.slice(0, 60)) {
      const h1 = await market.bars({ symbol: s.symbol, timeframe: '1h', to: Date.UTC(2026, 10, 19, 23) });
      for (let i = 0; i < h1.ts.length; i++) {
        const { open } = sessionOpenClose(isoDay(h1.ts[i]! - 5 * HOUR));
        byHour[(h1.ts[i]! - open) / HOUR]! += h1.volume[i]!;
      }
    }
    const midday = Math.max(byHour[2]!, byHour[3]!, byHour[4]!);
    expect(byHour[0]!).toBeGreaterThan(1.5 * midday);
    expect(byHour[6]!).toBeGreaterThan(midday); // only 30 minutes, still heavier
    expect(byHour[5]!).toBeGreaterThan(midday);
  });

  it('rises with the size of the move (volume–volatility relation)', async () => {
    {
      let big = 0;
      let bigN = 0;
      let quiet = 0;
      let quietN = 0;
      for (const s of stocks.slice(0, 100)) {
        const d = await market.bars({ symbol: s.symbol, timeframe: 'daily' });
        const r = returns.get(s.symbol)!;
        const sd = Math.sqrt(variance(r));
        for (let i = 0; i < r.length; i++) {
          const v = Math.log(d.volume[i + 1]!);
          if (Math.abs(r[i]!) > 2 * sd) {
            big += v;
            bigN++;
          } else if (Math.abs(r[i]!) < 0.5 * sd) {
            quiet += v;
            quietN++;
          }
        }
      }
      expect(Math.exp(big / bigN - quiet / quietN)).toBeGreaterThan(1.3);
    }
  });
});
