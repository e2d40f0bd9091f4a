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

  it('treats blank values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
  });
});
