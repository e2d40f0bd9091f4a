import { describe, expect, it } from 'bun:test';
import { ConfigError, loadConfig } from '../src/config';

describe('config', () => {
  it('runs offline on defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      stateDir: '.breakline',
      marketDataProvider: 'synthetic',
      apiDefaultVersion: '1.0.0',
      rateLimit: { quota: 120, windowSeconds: 60 },
      trustProxy: null,
      macroCalendar: true,
      healthCheckIntervalSeconds: 10,
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
      TRUST_PROXY: '2',
      LOG_LEVEL: 'debug',
      MACRO_CALENDAR: 'off',
      MARKET_DATA_PROVIDER: 'csv',
      CSV_DIR: '/data',
      HOST: '0.0.0.0',
      HEALTH_CHECK_INTERVAL_SECONDS: '30',
    });
    expect(config).toMatchObject({ host: '0.0.0.0', healthCheckIntervalSeconds: 30, port: 8080, apiDefaultVersion: '1.1.0', rateLimit: { quota: 10, windowSeconds: 5 }, trustProxy: { hops: 2, ranges: null, legacy: false }, macroCalendar: false, csvDir: '/data' });
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

describe('config: identity and quotas', () => {
  it('defaults to local mode and the documented quotas', () => {
    const config = loadConfig({});
    expect(config.auth).toEqual({ provider: null, localKeyFile: '.breakline/auth/session-key.json', tierClaim: 'tier', allowedOrigins: [] });
    expect(loadConfig({ STATE_DIR: '/var/lib/breakline', AUTH_LOCAL_KEY_FILE: '/run/secrets/session-key.json' }).auth.localKeyFile).toBe('/run/secrets/session-key.json');
    expect(config.rateLimit.tierQuotas).toEqual({ free: 120, pro: 600, enterprise: 3000 });
    expect(config.redisKeyPrefix).toBe('breakline:');
  });

  it('reads a provider with its audience, parties, tier claim and allowed origins', () => {
    const config = loadConfig({
      AUTH_ISSUER: 'https://your-tenant.eu.auth0.com/',
      AUTH_JWKS_URL: 'https://your-tenant.eu.auth0.com/.well-known/jwks.json',
      AUTH_AUDIENCE: 'https://api.example.com, other',
      AUTH_AUTHORIZED_PARTIES: 'abc123clientid',
      AUTH_TIER_CLAIM: 'https://example.com/tier',
      AUTH_ALLOWED_ORIGINS: 'https://app.example.com/, http://localhost:5173',
      RATE_LIMIT_QUOTA_FREE: '10',
      RATE_LIMIT_QUOTA_PRO: '20',
      RATE_LIMIT_QUOTA_ENTERPRISE: '30',
    });
    expect(config.auth).toEqual({
      provider: {
        issuer: 'https://your-tenant.eu.auth0.com/',
        keys: { source: 'jwks-url', url: 'https://your-tenant.eu.auth0.com/.well-known/jwks.json' },
        audience: ['https://api.example.com', 'other'],
        authorizedParties: ['abc123clientid'],
      },
      localKeyFile: '.breakline/auth/session-key.json',
      tierClaim: 'https://example.com/tier',
      allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
    });
    expect(config.rateLimit.tierQuotas).toEqual({ free: 10, pro: 20, enterprise: 30 });
  });

  it('refuses a higher tier with a lower quota, a non-origin, and a non-PEM key', () => {
    expect(() => loadConfig({ RATE_LIMIT_QUOTA_PRO: '50' })).toThrow('RATE_LIMIT_QUOTA_PRO');
    expect(() => loadConfig({ AUTH_ALLOWED_ORIGINS: 'not a url' })).toThrow('AUTH_ALLOWED_ORIGINS');
    expect(() => loadConfig({ AUTH_ISSUER: 'x', AUTH_PUBLIC_KEY: 'ssh-rsa AAAA' })).toThrow('AUTH_PUBLIC_KEY');
  });
});
