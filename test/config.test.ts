import { describe, expect, it } from 'bun:test';
import { ConfigError, loadConfig } from '../src/config';

describe('config', () => {
  it('runs offline on defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      stateDir: '.breakline',
      marketDataProvider: 'synthetic',
      apiDefaultVersion: '1.0.0',
      rateLimit: { quota: 120, windowSeconds: 60 },
      trustProxy: false,
      macroCalendar: true,
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
      REDIS_URL: 'redis://127.0.0.1:6379',
      API_DEFAULT_VERSION: '1.1.0',
      RATE_LIMIT_QUOTA: '10',
      RATE_LIMIT_WINDOW_SECONDS: '5',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'debug',
      MACRO_CALENDAR: 'off',
      MARKET_DATA_PROVIDER: 'csv',
      CSV_DIR: '/data',
    });
    expect(config).toMatchObject({ port: 8080, apiDefaultVersion: '1.1.0', rateLimit: { quota: 10, windowSeconds: 5 }, trustProxy: true, macroCalendar: false, csvDir: '/data' });
  });

  it('fails naming each bad variable', () => {
    try {
      loadConfig({ PORT: 'eighty', API_DEFAULT_VERSION: '2.0.0', DATABASE_URL: 'mysql://x' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('API_DEFAULT_VERSION');
      expect(message).toContain('DATABASE_URL');
    }
  });

  it('requires CSV_DIR for the csv provider', () => {
    expect(() => loadConfig({ MARKET_DATA_PROVIDER: 'csv' })).toThrow(/CSV_DIR/);
  });

  it('replays on first start by default for the synthetic market only, and obeys REPLAY_ON_BOOT', () => {
    expect(loadConfig({}).replayOnBoot).toBe(true);
    expect(loadConfig({ MARKET_DATA_PROVIDER: 'csv', CSV_DIR: '/tmp' }).replayOnBoot).toBe(false);
    expect(loadConfig({ REPLAY_ON_BOOT: 'off' }).replayOnBoot).toBe(false);
    expect(loadConfig({ MARKET_DATA_PROVIDER: 'yahoo', REPLAY_ON_BOOT: 'on' }).replayOnBoot).toBe(true);
    expect(() => loadConfig({ REPLAY_ON_BOOT: 'yes' })).toThrow('REPLAY_ON_BOOT');
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
  });
});

describe('config: live market data', () => {
  it('has no live source by default', () => {
    const config = loadConfig({});
    expect(config.edgar).toBeNull();
    expect(config.finra).toBeNull();
    expect(config.yahoo).toEqual({ baseUrl: 'https://query1.finance.yahoo.com', ratePerSecond: 5 });
  });

  it('turns on Yahoo bars, EDGAR and FINRA, and composes them in the registry', async () => {
    const { createProvider } = await import('../src/providers/registry');
    const config = loadConfig({
      MARKET_DATA_PROVIDER: 'yahoo',
      YAHOO_BASE_URL: 'http://127.0.0.1:9/',
      EDGAR_USER_AGENT: 'Acme Research ops@acme.example',
      EDGAR_BASE_URL: 'http://127.0.0.1:9',
      EDGAR_DATA_URL: 'http://127.0.0.1:9',
      FINRA_SHORT_INTEREST: 'on',
      FINRA_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(config.yahoo.baseUrl).toBe('http://127.0.0.1:9');
    expect(config.edgar).toEqual({ userAgent: 'Acme Research ops@acme.example', baseUrl: 'http://127.0.0.1:9', dataUrl: 'http://127.0.0.1:9' });
    expect(config.finra).toEqual({ baseUrl: 'http://127.0.0.1:9' });
    const provider = createProvider(config) as ReturnType<typeof createProvider> & { sourceOf(c: string): string | undefined };
    expect(provider.name).toBe('yahoo');
    expect(provider.sourceOf('insider')).toBe('edgar');
    expect(provider.sourceOf('float')).toBe('edgar');
    expect(provider.sourceOf('short_interest')).toBe('finra');
    expect(provider.sourceOf('options_chain')).toBe('yahoo');
    expect(provider.sourceOf('earnings')).toBeUndefined();
    // Synthetic alone stays uncomposed.
    expect(createProvider(loadConfig({})).name).toBe('synthetic');
  });

  it('refuses an EDGAR User-Agent without a contact address and a bad FINRA switch', () => {
    expect(() => loadConfig({ EDGAR_USER_AGENT: 'breakline' })).toThrow(/EDGAR_USER_AGENT: must name you and a contact e-mail/);
    expect(() => loadConfig({ FINRA_SHORT_INTEREST: 'yes' })).toThrow(/FINRA_SHORT_INTEREST/);
    expect(() => loadConfig({ MARKET_DATA_PROVIDER: 'bloomberg' })).toThrow(/MARKET_DATA_PROVIDER/);
  });
});
