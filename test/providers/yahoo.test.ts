/**
 * The yahoo adapter against a loopback server that replays Yahoo's chart and
 * quote JSON (test/providers/yahoo-replay.ts), built from the committed real
 * excerpts: AAPL daily history (dieperdev, yfinance) and QQQ hourly bars
 * (money-tree, yfinance). The option chains (SPY 2025-08-26, AAPL 2026-07-31)
 * are in the real-data run: test/real/providers/yahoo-options.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createCsvProvider } from '../../src/providers/csv';
import { ProviderError } from '../../src/providers/types';
import { createYahooProvider, fourHourBars, type YahooProvider } from '../../src/providers/yahoo';
import { fixture } from '../helpers/fixtures';
import { replayServer } from './yahoo-replay';

let replay: ReturnType<typeof replayServer>;
let yahoo: YahooProvider;
beforeAll(() => {
  replay = replayServer({ aaplDaily: fixture('daily_yf_dieperdev', 'AAPL.csv'), qqqHourly: fixture('intraday', 'yf_1h_moneytree', 'QQQ_1h.csv') });
  yahoo = createYahooProvider({ baseUrl: replay.baseUrl, ratePerSecond: 1000 });
});
afterAll(() => replay.server.stop(true));

describe('yahoo provider: chart JSON → bars', () => {
  it('reads the AAPL daily chart exactly as the csv provider reads the same history, dropping the null (halt) row', async () => {
    const bars = await yahoo.bars({ symbol: 'AAPL', timeframe: 'daily' });
    const csv = await createCsvProvider({ dir: fixture('daily_yf_dieperdev') }).bars({ symbol: 'AAPL', timeframe: 'daily' });
    expect(bars.ts.length).toBe(replay.aapl.length);
    expect(bars.source).toBe('yahoo');
    expect([...bars.ts]).toEqual([...csv.ts]);
    expect([...bars.close]).toEqual([...csv.close]);
    expect([...bars.volume]).toEqual([...csv.volume]);
    const i = bars.ts.indexOf(Date.parse('2023-06-30T00:00:00Z'));
    expect(bars.close[i]!).toBeCloseTo(193.97, 4);
  });

  it('asks for period1/period2 when bounded', async () => {
    const from = Date.parse('2024-03-01T00:00:00Z');
    const bars = await yahoo.bars({ symbol: 'AAPL', timeframe: 'daily', from, to: Date.parse('2024-03-08T23:59:59Z') });
    expect(replay.requests.at(-1)).toContain(`period1=${from / 1000}`);
    expect(bars.ts.length).toBe(6); // 03-01, 03-04 … 03-08
  });

  it('reads 60m bars and gathers them into 09:30–13:30 and 13:30–16:00 blocks', async () => {
    const hourly = await yahoo.bars({ symbol: 'QQQ', timeframe: '1h' });
    const day = Date.parse('2023-03-15T13:30:00Z'); // 09:30 EDT
    const i = hourly.ts.indexOf(day);
    expect(i).toBeGreaterThan(0);
    expect(hourly.open[i]!).toBeCloseTo(294.71, 2);
    const blocks = await yahoo.bars({ symbol: 'QQQ', timeframe: '4h' });
    expect(blocks.timeframe).toBe('4h');
    const k = blocks.ts.indexOf(day);
    expect(blocks.ts[k + 1]! - blocks.ts[k]!).toBe(4 * 3_600_000);
    // First block: the 09:30–12:30 hours; second: 13:30–15:30 (values from the file).
    expect(blocks.open[k]!).toBeCloseTo(294.71, 2);
    expect(blocks.close[k]!).toBeCloseTo(296.342, 3);
    expect(blocks.high[k]!).toBeCloseTo(297.04, 2);
    expect(blocks.low[k]!).toBeCloseTo(293.24, 2);
    expect(blocks.volume[k]!).toBe(20065045 + 10432096 + 8189245 + 7827188);
    expect(blocks.close[k + 1]!).toBeCloseTo(298.91, 2);
    expect(blocks.volume[k + 1]!).toBe(10926952 + 12629080 + 10113936);
    expect(fourHourBars(hourly).ts.length).toBe(blocks.ts.length);
  });

  it('maps vendor failures to ProviderError codes', async () => {
    const code = async (symbol: string) => {
      try {
        await yahoo.bars({ symbol, timeframe: 'daily' });
        return 'ok';
      } catch (error) {
        return (error as ProviderError).code;
      }
    };
    expect(await code('NOPE')).toBe('unknown_symbol');
    expect(await code('BROKEN')).toBe('bad_payload');
    expect(await code('DOWN')).toBe('unavailable');
    const closed = createYahooProvider({ baseUrl: 'http://127.0.0.1:9', ratePerSecond: 1000, timeoutMs: 2000 });
    await expect(closed.bars({ symbol: 'AAPL', timeframe: 'daily' })).rejects.toMatchObject({ code: 'unavailable', provider: 'yahoo' });
    expect((await closed.selfCheck()).status).toBe('down');
  });

  it('spells class shares with a dash', async () => {
    await yahoo.bars({ symbol: 'BRK.B', timeframe: 'daily' }).catch(() => undefined);
    expect(replay.requests.at(-1)).toStartWith('/v8/finance/chart/BRK-B?');
  });
});

describe('yahoo provider: quote JSON', () => {
  it('reads a v7 quote into a snapshot', async () => {
    const s = await yahoo.snapshot({ symbol: 'AAPL' });
    expect(s).toMatchObject({ symbol: 'AAPL', price: 170.73, previousClose: 169, dayHigh: 173.7, volume: 76114600, marketOpen: false, source: 'yahoo' });
    expect(s.ts).toBe('2024-03-08T21:00:00.000Z');
    await expect(yahoo.snapshot({ symbol: 'NOPE' })).rejects.toMatchObject({ code: 'unknown_symbol' });
    expect((await createYahooProvider({ baseUrl: replay.baseUrl }).selfCheck()).status).toBe('down'); // no SPY quote in the replay
  });
});
