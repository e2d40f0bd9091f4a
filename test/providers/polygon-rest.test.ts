/**
 * The polygon provider's REST half against the loopback Polygon server
 * (test/helpers/vendors), which replays the recorded 5-minute aggregates of
 * XLK, UNH, ADBE, COST, MA and PEP (2023-11-22, 2023-11-24, 2024-03-08,
 * 2024-03-11). Expected session figures were summed from the recordings with
 * Python's `csv` module.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createPolygonProvider } from '../../src/providers/polygon';
import { ProviderError } from '../../src/providers/types';
import { guardLoopback } from '../helpers/loopback';
import { startPolygonServer, type PolygonServer } from '../helpers/vendors/polygon-server';

const at = (iso: string) => Date.parse(iso);
const LATER = at('2024-03-12T12:00:00Z'); // every recorded bar is history

let polygon: PolygonServer;
const waits: number[] = [];
const provider = (overrides: Record<string, unknown> = {}) =>
  createPolygonProvider({ apiKey: polygon.apiKey, baseUrl: polygon.restUrl, ratePerMinute: 60_000, clock: () => LATER, sleep: async (ms: number) => void waits.push(ms), ...overrides });

beforeAll(() => {
  polygon = startPolygonServer({ now: () => LATER });
});
afterAll(() => polygon.stop());

describe('polygon provider: REST bars', () => {
  it('reads day aggregates stamped 00:00 UTC of the session date', async () => {
    const daily = await provider().bars({ symbol: 'XLK', timeframe: 'daily', from: at('2023-11-01T00:00:00Z') });
    // The excerpt is cut by UTC date, so the early hours of 2024-03-08 UTC are 2024-03-07's after-hours in New York.
    expect(Array.from(daily.ts)).toEqual(['2023-11-22', '2023-11-24', '2024-03-07', '2024-03-08', '2024-03-11'].map((d) => at(`${d}T00:00:00Z`)));
    expect([daily.open[0], daily.high[0], daily.low[0], daily.close[0], daily.volume[0]]).toEqual([183.85, 186.35, 183.83, 184.75, 5_235_768]);
    expect(polygon.state.requests.at(-1)).toMatch(/^\/v2\/aggs\/ticker\/XLK\/range\/1\/day\/\d+\/\d+\?adjusted=true&sort=asc&limit=50000$/);
  });

  it('fills a few recent sessions of every symbol from one daily market summary a session', async () => {
    const polygonRecent = provider();
    const before = polygon.state.requests.length;
    const window = { timeframe: 'daily' as const, from: at('2024-03-08T00:00:00Z'), to: at('2024-03-11T00:00:00Z') };
    const unh = await polygonRecent.bars({ symbol: 'UNH', ...window });
    expect(Array.from(unh.ts)).toEqual([at('2024-03-08T00:00:00Z'), at('2024-03-11T00:00:00Z')]);
    expect([unh.open[1], unh.high[1], unh.low[1], unh.close[1], unh.volume[1]]).toEqual([477.22, 490.31, 475.1102, 489.15, 3_691_336]);
    for (const symbol of ['XLK', 'ADBE', 'COST', 'MA', 'PEP']) expect((await polygonRecent.bars({ symbol, ...window })).ts.length).toBe(2);
    const asked = polygon.state.requests.slice(before);
    expect(asked).toEqual(['/v2/aggs/grouped/locale/us/market/stocks/2024-03-08?adjusted=true', '/v2/aggs/grouped/locale/us/market/stocks/2024-03-11?adjusted=true']);
  });

  it('rolls half hours into session hours: the early close of 2023-11-24 has four, 09:30–13:00', async () => {
    const hours = await provider().bars({ symbol: 'XLK', timeframe: '1h', from: at('2023-11-24T00:00:00Z'), to: at('2023-11-24T23:59:00Z') });
    expect(Array.from(hours.ts, (t) => new Date(t).toISOString().slice(11, 16))).toEqual(['14:30', '15:30', '16:30', '17:30']);
    // The regular-session rows of the recording: open 184.46, close 184.41, 2,012,589 shares.
    expect(hours.open[0]).toBe(184.46);
    expect(hours.close[3]).toBe(184.41);
    expect(hours.volume.reduce((a, b) => a + b, 0)).toBe(2_012_589);
  });

  it("follows next_url to the last page on the configured host, never the vendor's", async () => {
    const guard = guardLoopback();
    try {
      const before = polygon.state.requests.length;
      const hours = await provider({ limit: 20 }).bars({ symbol: 'XLK', timeframe: '4h', from: at('2023-11-01T00:00:00Z') });
      const asked = polygon.state.requests.slice(before);
      expect(asked.length).toBeGreaterThan(2);
      expect(asked.slice(1).every((path) => path.includes('cursor='))).toBe(true);
      expect(hours.ts.length).toBe(2 + 1 + 2 + 2); // the early close is one block
      expect(guard.offLoopback).toEqual([]);
    } finally {
      guard.restore();
    }
  });

  it('waits a minute out on a 429 that does not say how long, then asks again', async () => {
    waits.length = 0;
    polygon.state.tooMany.next(1, '');
    const quote = await provider().snapshot({ symbol: 'XLK' });
    expect(quote.price).toBe(208.05); // the last recorded 5-minute close of 2024-03-11
    expect(waits.some((ms) => ms >= 59_000 && ms <= 60_000)).toBe(true);
  });
});

describe('polygon provider: keys', () => {
  it('names the missing key and the provider', () => {
    expect(() => createPolygonProvider({ apiKey: '', baseUrl: polygon.restUrl })).toThrow('polygon: POLYGON_API_KEY is not set');
  });

  it("reports a wrong key with the vendor's words, never the key, and sends the key in a header only", async () => {
    const wrong = provider({ apiKey: 'wrong-key' });
    const failure = (await wrong.bars({ symbol: 'XLK', timeframe: 'daily' }).catch((error: unknown) => error)) as ProviderError;
    expect(failure.code).toBe('missing_credential');
    expect(failure.message).toContain('Unknown API Key');
    expect(failure.message).not.toContain('wrong-key');
    expect((await wrong.selfCheck()).status).toBe('down');
    for (const request of polygon.state.requests) expect(request).not.toContain(polygon.apiKey);
  });
});
