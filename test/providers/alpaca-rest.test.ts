/**
 * The alpaca provider's REST half against the loopback Alpaca server
 * (test/helpers/vendors), which replays the recorded SPY minutes of
 * 2025-04-24/25 with the documented paging, keys and 429.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createAlpacaProvider } from '../../src/providers/alpaca';
import { ProviderError } from '../../src/providers/types';
import { startAlpacaServer, type AlpacaServer } from '../helpers/vendors/alpaca-server';

const at = (iso: string) => Date.parse(iso);
const AFTER_CLOSE = at('2025-04-26T01:00:00Z'); // Friday 21:00 EDT: every recorded minute is history

let alpaca: AlpacaServer;
const waits: number[] = [];
const provider = (overrides: Record<string, unknown> = {}) =>
  createAlpacaProvider({
    ...alpaca.credentials,
    dataUrl: alpaca.restUrl,
    feed: 'sip',
    adjustment: 'split',
    ratePerMinute: 60_000,
    clock: () => AFTER_CLOSE,
    sleep: async (ms: number) => void waits.push(ms),
    ...overrides,
  });

beforeAll(() => {
  alpaca = startAlpacaServer({ now: () => AFTER_CLOSE });
});
afterAll(() => alpaca.stop());

describe('alpaca provider: REST bars', () => {
  it('stamps each day at 00:00 UTC of its New York date (Alpaca stamps New York midnight)', async () => {
    const daily = await provider().bars({ symbol: 'SPY', timeframe: 'daily', from: at('2025-04-01T00:00:00Z') });
    expect(Array.from(daily.ts)).toEqual([at('2025-04-24T00:00:00Z'), at('2025-04-25T00:00:00Z')]);
    expect(daily.source).toBe('alpaca');
    expect(daily.open[0]).toBe(533.01); // the day's first recorded minute, 04:00 EDT
    expect(daily.volume[0]).toBe(64_139_008);
  });

  it('rolls half hours into session hours equal to the minutes rolled up (09:30–10:30 of 2025-04-24)', async () => {
    const hours = await provider().bars({ symbol: 'SPY', timeframe: '1h', from: at('2025-04-24T00:00:00Z') });
    expect(hours.ts.length).toBe(14);
    expect(hours.ts[0]).toBe(at('2025-04-24T13:30:00Z'));
    expect([hours.open[0], hours.high[0], hours.low[0], hours.close[0], hours.volume[0]]).toEqual([536.74, 542.33, 535.4504, 542.2342, 9_628_299]);
    const blocks = await provider().bars({ symbol: 'SPY', timeframe: '4h', from: at('2025-04-24T00:00:00Z'), to: at('2025-04-24T23:59:00Z') });
    expect(Array.from(blocks.ts)).toEqual([at('2025-04-24T13:30:00Z'), at('2025-04-24T17:30:00Z')]);
    expect(blocks.volume[0]! + blocks.volume[1]!).toBe(51_951_692);
  });

  it('asks with the configured feed and adjustment, the keys in headers only', async () => {
    const before = alpaca.state.requests.length;
    await provider().bars({ symbol: 'SPY', timeframe: 'daily', from: at('2025-04-20T00:00:00Z') });
    const asked = alpaca.state.requests.slice(before);
    expect(asked.length).toBe(1);
    expect(asked[0]).toContain('timeframe=1Day');
    expect(asked[0]).toContain('feed=sip');
    expect(asked[0]).toContain('adjustment=split');
    for (const request of alpaca.state.requests) {
      expect(request).not.toContain(alpaca.credentials.keyId);
      expect(request).not.toContain(alpaca.credentials.secretKey);
    }
  });

  it('follows next_page_token to the last page, one symbol or many', async () => {
    const small = provider({ pageLimit: 500 });
    const window = { timeframe: '1Min' as const, start: at('2025-04-24T00:00:00Z'), end: at('2025-04-26T00:00:00Z') };
    const before = alpaca.state.requests.length;
    const minutes = await small.rest.bars('SPY', window);
    expect(minutes.length).toBe(1774);
    expect(alpaca.state.requests.length - before).toBe(4); // 500 + 500 + 500 + 274
    expect(alpaca.state.requests.at(-1)).toContain('page_token=');
    const many = await small.rest.barsMany(['SPY', 'QQQ'], window);
    expect(many.get('SPY')!.length).toBe(1774);
    expect(many.get('QQQ')).toEqual([]); // nothing recorded: asked, answered empty
    expect(alpaca.state.requests.at(-1)).toMatch(/^\/v2\/stocks\/bars\?.*symbols=SPY%2CQQQ/);
  });

  it("waits out a 429 for as long as its Retry-After says, then asks again", async () => {
    waits.length = 0;
    alpaca.state.tooMany.next(1, '2');
    const daily = await provider().bars({ symbol: 'SPY', timeframe: 'daily', from: at('2025-04-20T00:00:00Z') });
    expect(daily.ts.length).toBe(2);
    expect(alpaca.state.tooMany.refused).toBe(1);
    expect(waits.some((ms) => ms >= 1_900 && ms <= 2_000)).toBe(true);
  });

  it('gives up on a 429 that asks for longer than a minute, saying when to come back', async () => {
    alpaca.state.tooMany.next(1, '600');
    const failure = await provider().bars({ symbol: 'SPY', timeframe: 'daily' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).code).toBe('unavailable');
    expect((failure as ProviderError).message).toContain('retry after 600 s');
  });
});

describe('alpaca provider: snapshot, keys and health', () => {
  it('answers the last trade, the day and the previous close', async () => {
    const quote = await provider().snapshot({ symbol: 'SPY' });
    expect(quote.price).toBe(551.23); // the last recorded minute's close, 2025-04-25 23:59 UTC
    expect(quote.previousClose).toBe(548.37); // 2025-04-24's last minute
    expect(quote.source).toBe('alpaca');
    expect(quote.marketOpen).toBe(false);
  });

  it('names the missing key and the provider', () => {
    expect(() => createAlpacaProvider({ keyId: '', secretKey: 's', dataUrl: alpaca.restUrl, feed: 'iex', adjustment: 'raw' })).toThrow('alpaca: ALPACA_KEY_ID is not set');
    expect(() => createAlpacaProvider({ keyId: 'k', secretKey: '', dataUrl: alpaca.restUrl, feed: 'iex', adjustment: 'raw' })).toThrow('alpaca: ALPACA_SECRET_KEY is not set');
  });

  it('reports wrong keys as a refused credential, down in its self-check, without the keys', async () => {
    const wrong = provider({ secretKey: 'not-the-secret' });
    await expect(wrong.bars({ symbol: 'SPY', timeframe: 'daily' })).rejects.toMatchObject({ code: 'missing_credential', provider: 'alpaca' });
    const check = await wrong.selfCheck();
    expect(check.status).toBe('down');
    expect(check.message).toContain('alpaca');
    expect(check.message).not.toContain('not-the-secret');
    expect((await provider().selfCheck()).status).toBe('ok');
  });
});
