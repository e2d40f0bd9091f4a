/** The keyed vendors' configuration: a missing key names itself and the provider; the stream's settings and their defaults. */
import { describe, expect, it } from 'bun:test';
import { ConfigError, loadConfig } from '../src/config';
import { createProvider } from '../src/providers/registry';

const issues = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  return [];
};

describe('vendor configuration', () => {
  it('names each missing key and the provider that needs it', () => {
    expect(issues({ MARKET_DATA_PROVIDER: 'alpaca' })).toEqual([
      'ALPACA_KEY_ID: required when MARKET_DATA_PROVIDER=alpaca (the alpaca provider\'s key)',
      'ALPACA_SECRET_KEY: required when MARKET_DATA_PROVIDER=alpaca (the alpaca provider\'s key)',
    ]);
    expect(issues({ MARKET_DATA_PROVIDER: 'polygon' })).toEqual(["POLYGON_API_KEY: required when MARKET_DATA_PROVIDER=polygon (the polygon provider's key)"]);
    expect(issues({ MARKET_DATA_PROVIDER: 'alpaca', ALPACA_KEY_ID: 'k', ALPACA_SECRET_KEY: 's', ALPACA_STREAM_URL: 'https://x' })).toEqual(['ALPACA_STREAM_URL: must be a ws(s):// URL']);
  });

  it('reads Alpaca with its plan defaults: the iex feed, split-adjusted bars, 200 requests a minute, the stream on', () => {
    const config = loadConfig({ MARKET_DATA_PROVIDER: 'alpaca', ALPACA_KEY_ID: 'k', ALPACA_SECRET_KEY: 's', ALPACA_DATA_URL: 'http://127.0.0.1:9/' });
    expect(config.alpaca).toEqual({ keyId: 'k', secretKey: 's', feed: 'iex', adjustment: 'split', dataUrl: 'http://127.0.0.1:9', streamUrl: 'wss://stream.data.alpaca.markets', ratePerMinute: 200, barsFrom: 'bars' });
    expect(config.polygon).toBeNull();
    expect(config.live).toEqual({ stream: true, extendedHours: false, silentSeconds: 60, tradeSymbols: null });
    const provider = createProvider(config);
    expect(provider.name).toBe('alpaca');
    expect(provider.live?.status()).toMatchObject({ vendor: 'alpaca', state: 'idle', tradeLimit: 30 }); // the iex plan's 30 symbols
  });

  it('reads Polygon (Massive) hosts and the stream settings', () => {
    const config = loadConfig({ MARKET_DATA_PROVIDER: 'polygon', POLYGON_API_KEY: 'p', POLYGON_STREAM_URL: 'wss://delayed.massive.com', LIVE_EXTENDED_HOURS: 'on', LIVE_SILENT_SECONDS: '30', LIVE_TRADE_SYMBOLS: '50' });
    expect(config.polygon).toEqual({ apiKey: 'p', baseUrl: 'https://api.massive.com', streamUrl: 'wss://delayed.massive.com', ratePerMinute: 5, barsFrom: 'bars' });
    expect(config.live).toEqual({ stream: true, extendedHours: true, silentSeconds: 30, tradeSymbols: 50 });
    expect(createProvider(config).live?.status().tradeLimit).toBe(50);
    // POLYGON_BARS_FROM=trades: the universe's trades are subscribed, no aggregates
    const fromTrades = createProvider(loadConfig({ MARKET_DATA_PROVIDER: 'polygon', POLYGON_API_KEY: 'p', POLYGON_BARS_FROM: 'trades' })).live!;
    fromTrades.setUniverse(['XLK', 'UNH']);
    expect(fromTrades.status()).toMatchObject({ barSymbols: 0, tradeSymbols: 2 });
    expect(createProvider(loadConfig({ MARKET_DATA_PROVIDER: 'polygon', POLYGON_API_KEY: 'p', LIVE_STREAM: 'off' })).live).toBeUndefined();
  });
});
