/**
 * The synthetic company data agrees with the simulated prices: earnings
 * surprises with the report-day gaps, short interest with momentum, insider
 * clusters with later rallies, option chains with Black–Scholes and the
 * earnings calendar.
 */
import { describe, expect, it } from 'bun:test';
import { blackScholesPrice } from '../../../src/kernels/options/black-scholes';
import { strikeIncrement } from '../../../src/kernels/options/strikes';
import { isTradingDay } from '../../../src/providers/calendar';
import { CHAIN_RATE } from '../../../src/providers/synthetic/options';
import type { BarSeries } from '../../../src/providers/types';
import { correlation, isoDay, mean, provider } from './fixtures';

const market = provider();
const TODAY = '2026-11-20';
const STOCKS = ['AAPL', 'MSFT', 'NVDA', 'JPM', 'XOM', 'COST', 'AMD', 'UNH', 'LLY', 'CAT'];

function indexOf(bars: BarSeries, day: string): number {
  const ts = Date.parse(`${day}T00:00:00Z`);
  return bars.ts.findIndex((t) => t === ts);
}

describe('synthetic earnings', () => {
  it('reports past dates with a surprise of the sign of the opening gap, and schedules later ones', async () => {
    let agree = 0;
    let total = 0;
    for (const symbol of STOCKS) {
      const bars = await market.bars({ symbol, timeframe: 'daily' });
      const events = await market.earnings(symbol);
      expect(events.map((e) => e.date)).toEqual(market.earningsDates(symbol));
      for (const e of events) {
        if (e.date > TODAY) {
          expect(e.status).toBe('scheduled');
          expect(e.epsActual).toBeNull();
          continue;
        }
        expect(e.status).toBe('reported');
        expect(e.fiscalPeriodEnding! < e.date).toBe(true);
        const i = indexOf(bars, e.date);
        const gap = Math.log(bars.open[i]! / bars.close[i - 1]!);
        if (Math.abs(gap) > 0.02) {
          total++;
          if (Math.sign(gap) === Math.sign(e.surprisePct!)) agree++;
        }
        expect(e.surprisePct).toBeCloseTo(((e.epsActual! - e.epsEstimate!) / Math.abs(e.epsEstimate!)) * 100, 1);
      }
    }
    expect(total).toBeGreaterThan(50);
    expect(agree / total).toBeGreaterThan(0.9);
  });

  it('gives funds no earnings', async () => {
    expect(await market.earnings('SPY')).toEqual([]);
  });
});

describe('synthetic float and short interest', () => {
  it('sizes the float from the volume: 0.3–1.9% of the float trades a day', async () => {
    for (const symbol of STOCKS) {
      const bars = await market.bars({ symbol, timeframe: 'daily' });
      const f = await market.float(symbol);
      expect(f.freeFloat!).toBeLessThan(f.sharesOutstanding!);
      expect(f.freeFloat! / f.sharesOutstanding!).toBeGreaterThan(0.79);
      const turnover = mean(bars.volume.subarray(-250)) / f.freeFloat!;
      expect(turnover).toBeGreaterThan(0.002);
      expect(turnover).toBeLessThan(0.025);
      expect(f.asOf! <= TODAY).toBe(true);
    }
  });

  it('settles on the 15th and month end (rolled to sessions) and builds shorts into weakness', async () => {
    const momentum: number[] = [];
    const level: number[] = [];
    for (const symbol of STOCKS) {
      const bars = await market.bars({ symbol, timeframe: 'daily' });
      const reports = await market.shortInterest(symbol);
      expect(reports.length).toBeGreaterThan(20);
      const f = await market.float(symbol);
      for (const r of reports) {
        expect(isTradingDay(r.settlementDate)).toBe(true);
        const day = Number(r.settlementDate.slice(8));
        expect((day >= 11 && day <= 15) || day >= 24).toBe(true);
        expect(r.daysToCover).toBeCloseTo(r.sharesShort / r.avgDailyVolume!, 1);
        const i = indexOf(bars, r.settlementDate);
        momentum.push(Math.log(bars.close[i]! / bars.close[i - 60]!));
        level.push(Math.log(r.sharesShort / f.freeFloat!));
      }
      for (let k = 1; k < reports.length; k++) expect(reports[k]!.previousSharesShort).toBe(reports[k - 1]!.sharesShort);
    }
    expect(correlation(momentum, level)).toBeLessThan(-0.3);
  });
});

describe('synthetic insiders, filings and social', () => {
  it('files two sessions after the trade and never shows a filing after the clock', async () => {
    const trades = await market.insiderTransactions('AAPL', { from: '2019-01-01', to: '2030-01-01' });
    expect(trades.length).toBeGreaterThan(100);
    for (const t of trades) {
      expect(t.filingDate > t.transactionDate).toBe(true);
      expect(t.filingDate <= TODAY).toBe(true);
      if (t.price !== null) expect(t.value).toBeCloseTo(t.shares * t.price, 0);
    }
    const window = await market.insiderTransactions('AAPL', { from: '2026-01-01', to: '2026-03-31' });
    expect(window.every((t) => t.transactionDate >= '2026-01-01' && t.transactionDate <= '2026-03-31')).toBe(true);
    expect(window.some((t) => t.code === 'A')).toBe(true); // February awards
  });

  it('clusters open-market buying before rallies', async () => {
    const after: number[] = [];
    const all: number[] = [];
    for (const symbol of STOCKS) {
      const bars = await market.bars({ symbol, timeframe: 'daily' });
      const buys = (await market.insiderTransactions(symbol, { from: '2019-01-01', to: TODAY })).filter((t) => t.code === 'P');
      const days = [...new Set(buys.map((t) => t.transactionDate))];
      for (const day of days) {
        const i = indexOf(bars, day);
        if (i + 30 < bars.close.length) after.push(Math.log(bars.close[i + 30]! / bars.close[i]!));
      }
      for (let i = 0; i + 30 < bars.close.length - 1; i += 5) all.push(Math.log(bars.close[i + 30]! / bars.close[i]!));
    }
    expect(after.length).toBeGreaterThan(30);
    expect(mean(after)).toBeGreaterThan(mean(all) + 0.05);
  });

  it('files an 8-K and a 10-Q or 10-K on each past report date, newest first', async () => {
    const filings = await market.filings('MSFT', { limit: 500 });
    const reports = market.earningsDates('MSFT').filter((d) => d <= TODAY).slice(-6);
    expect(reports).toHaveLength(6);
    for (const date of reports) {
      const forms = filings.filter((f) => f.filedAt === date).map((f) => f.form);
      expect(forms).toContain('8-K');
      expect(forms.some((f) => f === '10-Q' || f === '10-K')).toBe(true);
    }
    for (let k = 1; k < filings.length; k++) expect(filings[k - 1]!.filedAt >= filings[k]!.filedAt).toBe(true);
    expect(filings.every((f) => f.filedAt <= TODAY)).toBe(true);
    expect(await market.filings('SPY', { limit: 10 })).toEqual([]);
  });

  it('counts more mentions on report days and sentiment that follows the week’s return', async () => {
    const days = await market.social('NVDA', { days: 400 });
    expect(days.length).toBe(400);
    expect(days.at(-1)!.date).toBe(TODAY);
    const reports = new Set(market.earningsDates('NVDA'));
    const onReports = days.filter((d) => reports.has(d.date)).map((d) => d.mentions);
    const sessions = days.filter((d) => !reports.has(d.date) && isTradingDay(d.date)).map((d) => d.mentions);
    expect(mean(onReports)).toBeGreaterThan(2 * mean(sessions));
    const bars = await market.bars({ symbol: 'NVDA', timeframe: 'daily' });
    const week: number[] = [];
    const mood: number[] = [];
    for (const d of days) {
      const i = indexOf(bars, d.date);
      if (i < 5 || d.bullish + d.bearish < 4) continue;
      week.push(Math.log(bars.close[i]! / bars.close[i - 5]!));
      mood.push(d.sentiment);
    }
    expect(correlation(week, mood)).toBeGreaterThan(0.5);
  });
});

describe('synthetic option chains', () => {
  it('prices every quote off Black–Scholes at its own IV on the listed strike grid', async () => {
    const chain = await market.optionChain('AAPL');
    const spot = chain.underlyingPrice;
    expect(chain.expiries.length).toBeGreaterThan(0);
    expect(chain.expiries.every((e) => e > TODAY && isTradingDay(e))).toBe(true);
    expect(chain.expiries).not.toContain('2026-12-25'); // Christmas: the weekly expires on the 24th
    const step = strikeIncrement(spot);
    expect(chain.contracts.length).toBeGreaterThan(0);
    for (const c of chain.contracts) {
      expect(Math.abs(c.strike / step - Math.round(c.strike / step))).toBeLessThan(1e-9);
      const years = (Date.parse(`${c.expiry}T00:00:00Z`) - Date.parse(`${TODAY}T00:00:00Z`)) / 86_400_000 / 365;
      const fair = blackScholesPrice(c.type, spot, c.strike, years, CHAIN_RATE, c.impliedVolatility!);
      // Quotes are rounded to cents and the IV to 4 decimals (vega × 0.00005 ≤ 1¢ here).
      expect(Math.abs((c.bid! + c.ask!) / 2 - fair)).toBeLessThan(0.02);
      expect(c.bid!).toBeLessThanOrEqual(c.ask!);
    }
  });

  it('has a put skew and prices the next report into the expiries after it', async () => {
    const chain = await market.optionChain('NVDA');
    const spot = chain.underlyingPrice;
    const next = market.earningsDates('NVDA').find((d) => d > TODAY)!;
    const ivAt = (expiry: string, moneyness: number) => {
      const calls = chain.contracts.filter((c) => c.expiry === expiry && c.type === 'call');
      const nearest = calls.reduce((a, b) => (Math.abs(b.strike - spot * moneyness) < Math.abs(a.strike - spot * moneyness) ? b : a));
      return nearest.impliedVolatility!;
    };
    const before = chain.expiries.filter((e) => e < next).at(-1)!;
    const after = chain.expiries.find((e) => e >= next)!;
    expect(ivAt(before, 0.9)).toBeGreaterThan(ivAt(before, 1.1));
    expect(ivAt(after, 1)).toBeGreaterThan(ivAt(before, 1));
    const one = await market.optionChain('NVDA', { expiry: after });
    expect(new Set(one.contracts.map((c) => c.expiry))).toEqual(new Set([after]));
    expect(isoDay(Date.parse(one.asOf))).toBe(TODAY);
  });
});
