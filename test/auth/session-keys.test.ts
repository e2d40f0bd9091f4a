import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JwksCache } from '../../src/auth/jwks-cache';
import { loadOrCreateLocalKey, LocalKeyError, LOCAL_AUDIENCE, LOCAL_ISSUER, mintLocalToken, parseTtl } from '../../src/auth/local-key';
import { SessionVerifier } from '../../src/auth/session';
import { createSessionSetup, SessionKeyError } from '../../src/auth/session-keys';
import { loadConfig, type AuthConfig } from '../../src/config';
import { createLogger } from '../../src/log';
import { jwksOf, jwksServer, signingKey, signToken, type TestSigningKey } from '../helpers/auth';
import { SCOPES } from '../../src/domain/scopes';

const ISSUER = 'https://issuer.breakline.test';
const log = createLogger('silent');
const now = Math.floor(Date.now() / 1000);
const claims = { iss: ISSUER, sub: 'user_1', iat: now, exp: now + 600 };

const stateDirs: string[] = [];
function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'breakline-auth-'));
  stateDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
});

function authConfig(env: Record<string, string>): AuthConfig {
  return loadConfig({ LOG_LEVEL: 'silent', ...env }).auth;
}

/** The local key file of a state directory (AUTH_LOCAL_KEY_FILE unset). */
const keyFileIn = (dir: string) => authConfig({ STATE_DIR: dir }).localKeyFile;

describe('provider keys from configuration', () => {
  let rsa: TestSigningKey;
  let ec: TestSigningKey;
  beforeAll(async () => {
    [rsa, ec] = await Promise.all([signingKey('RS256', 'rsa-1'), signingKey('ES256', 'ec-1')]);
  });

  it('verifies with a PEM public key (RS256 and ES256), refusing the other key', async () => {
    for (const [key, other] of [
      [rsa, ec],
      [ec, rsa],
    ] as const) {
      const setup = await createSessionSetup(authConfig({ STATE_DIR: stateDir(), AUTH_ISSUER: ISSUER, AUTH_PUBLIC_KEY: key.publicPem }), { log });
      expect(setup.mode).toBe('provider');
      expect(setup.description.trusts).toContain(`PEM public key (${key.alg})`);
      expect((await setup.verifier.verify(await signToken(key, claims))).ok).toBe(true);
      expect((await setup.verifier.verify(await signToken(other, claims))).ok).toBe(false);
    }
  });

  it('takes a PEM with escaped newlines (one-line environment variables)', async () => {
    const oneLine = rsa.publicPem.trim().replaceAll('\n', '\\n');
    const setup = await createSessionSetup(authConfig({ STATE_DIR: stateDir(), AUTH_ISSUER: ISSUER, AUTH_PUBLIC_KEY: oneLine }), { log });
    expect((await setup.verifier.verify(await signToken(rsa, claims))).ok).toBe(true);
  });

  it('verifies with a JWKS file', async () => {
    const path = join(stateDir(), 'jwks.json');
    writeFileSync(path, JSON.stringify(jwksOf(rsa, ec)));
    const setup = await createSessionSetup(authConfig({ STATE_DIR: stateDir(), AUTH_ISSUER: ISSUER, AUTH_JWKS_FILE: path }), { log });
    expect((await setup.verifier.verify(await signToken(rsa, claims))).ok).toBe(true);
    expect((await setup.verifier.verify(await signToken(ec, claims))).ok).toBe(true);
  });

  it('refuses at boot a JWKS file that is not one, naming the variable', async () => {
    const path = join(stateDir(), 'bad.json');
    writeFileSync(path, '{"not":"a key set"}');
    const setup = createSessionSetup(authConfig({ STATE_DIR: stateDir(), AUTH_ISSUER: ISSUER, AUTH_JWKS_FILE: path }), { log });
    await expect(setup).rejects.toBeInstanceOf(SessionKeyError);
    await expect(setup).rejects.toThrow('AUTH_JWKS_FILE');
  });

  it('does not trust locally minted tokens once a provider is configured', async () => {
    const dir = stateDir();
    const local = await loadOrCreateLocalKey(keyFileIn(dir));
    const { token } = await mintLocalToken(local, { userId: 'mallory', tier: 'enterprise', ttlSeconds: 600, tierClaim: 'tier' });
    const setup = await createSessionSetup(authConfig({ STATE_DIR: dir, AUTH_ISSUER: ISSUER, AUTH_PUBLIC_KEY: rsa.publicPem }), { log });
    expect(setup.description.trusts).toContain('locally minted tokens are not trusted');
    expect((await setup.verifier.verify(token)).ok).toBe(false);
    // Even naming the provider as issuer, the local key's signature is not the provider's.
    const forged = await signToken({ ...rsa, alg: 'ES256', privateKey: local.privateKey, kid: local.kid }, claims);
    expect((await setup.verifier.verify(forged)).ok).toBe(false);
  });

  it('needs AUTH_ISSUER with a key source, and one source only', () => {
    expect(() => loadConfig({ AUTH_PUBLIC_KEY: rsa.publicPem })).toThrow('AUTH_ISSUER');
    expect(() => loadConfig({ AUTH_ISSUER: ISSUER })).toThrow('AUTH_JWKS_URL');
    expect(() => loadConfig({ AUTH_ISSUER: ISSUER, AUTH_JWKS_FILE: '/x', AUTH_JWKS_URL: 'https://x.test/jwks' })).toThrow('exactly one');
    expect(() => loadConfig({ AUTH_ISSUER: ISSUER, AUTH_JWKS_URL: 'http://idp.example.com/jwks' })).toThrow('https');
    expect(loadConfig({ AUTH_ISSUER: ISSUER, AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks' }).auth.provider?.keys).toEqual({ source: 'jwks-url', url: 'http://127.0.0.1:9/jwks' });
  });
});

describe('local mode', () => {
  it('creates the key in STATE_DIR with mode 0600 (folder 0700) and trusts only tokens it signed', async () => {
    const dir = stateDir();
    const setup = await createSessionSetup(authConfig({ STATE_DIR: dir }), { log });
    expect(setup.mode).toBe('local');
    expect(setup.description.trusts).toContain('no identity provider is configured');
    const path = keyFileIn(dir);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'auth')).mode & 0o777).toBe(0o700);
    const key = await loadOrCreateLocalKey(keyFileIn(dir));
    const { token, expiresAt } = await mintLocalToken(key, { userId: 'alice', tier: 'pro', ttlSeconds: 3600, tierClaim: 'tier' });
    expect(Math.abs(expiresAt.getTime() - Date.now() - 3_600_000)).toBeLessThan(2000);
    expect(await setup.verifier.verify(token)).toEqual({ ok: true, principal: { userId: 'alice', tier: 'pro', kind: 'session', scopes: SCOPES }, statedAt: expect.any(Date) });
    // A token of a key generated elsewhere, with the same issuer and audience, is refused.
    const elsewhere = await loadOrCreateLocalKey(keyFileIn(stateDir()));
    const foreign = await mintLocalToken(elsewhere, { userId: 'alice', tier: 'pro', ttlSeconds: 3600, tierClaim: 'tier' });
    expect((await setup.verifier.verify(foreign.token)).ok).toBe(false);
  });

  it('mints iss breakline-local, aud breakline, sub, nbf, exp and the tier claim', async () => {
    const key = await loadOrCreateLocalKey(keyFileIn(stateDir()));
    const { token } = await mintLocalToken(key, { userId: 'bob', tier: 'enterprise', ttlSeconds: 90, tierClaim: 'plan', now: 1_800_000_000_000 });
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload).toEqual({ plan: 'enterprise', iss: LOCAL_ISSUER, aud: LOCAL_AUDIENCE, sub: 'bob', iat: 1_800_000_000, nbf: 1_800_000_000, exp: 1_800_000_090 });
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    expect(header).toEqual({ alg: 'ES256', kid: key.kid, typ: 'JWT' });
  });

  it('expires local tokens like any other (5 s skew)', async () => {
    const dir = stateDir();
    const key = await loadOrCreateLocalKey(keyFileIn(dir));
    const { token } = await mintLocalToken(key, { userId: 'carol', tier: 'free', ttlSeconds: 60, tierClaim: 'tier', now: 1_800_000_000_000 });
    const at = async (ms: number) => (await createSessionSetup(authConfig({ STATE_DIR: dir }), { log, now: () => ms })).verifier.verify(token);
    expect((await at(1_800_000_064_000)).ok).toBe(true);
    expect((await at(1_800_000_066_000)).ok).toBe(false);
  });

  it('gives racing processes one key (exclusive create)', async () => {
    const dir = stateDir();
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateLocalKey(keyFileIn(dir))));
    expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
  });

  it('refuses a key file other users can read, and one that is not a private JWK', async () => {
    const dir = stateDir();
    const key = await loadOrCreateLocalKey(keyFileIn(dir));
    chmodSync(key.path, 0o644);
    await expect(loadOrCreateLocalKey(keyFileIn(dir))).rejects.toBeInstanceOf(LocalKeyError);
    await expect(loadOrCreateLocalKey(keyFileIn(dir))).rejects.toThrow('chmod 600');
    chmodSync(key.path, 0o600);
    const { d: _d, ...publicOnly } = JSON.parse(readFileSync(key.path, 'utf8'));
    writeFileSync(key.path, JSON.stringify(publicOnly));
    await expect(loadOrCreateLocalKey(keyFileIn(dir))).rejects.toThrow('not an ES256 private JWK');
  });

  it('parses durations and refuses others', () => {
    expect([parseTtl('90s'), parseTtl('30m'), parseTtl('1h'), parseTtl('7d')]).toEqual([90, 1800, 3600, 604800]);
    for (const bad of ['', '1', 'h', '1w', '-1h', '1.5h', '1h30m']) expect(() => parseTtl(bad)).toThrow(RangeError);
  });
});

describe('JWKS from a URL (loopback identity provider)', () => {
  let first: TestSigningKey;
  let rotated: TestSigningKey;
  let published: TestSigningKey[];
  let idp: ReturnType<typeof jwksServer>;
  beforeAll(async () => {
    [first, rotated] = await Promise.all([signingKey('RS256', 'k-2026-01'), signingKey('ES256', 'k-2026-02')]);
    published = [first];
    idp = jwksServer(() => jwksOf(...published));
  });
  afterAll(() => idp.stop());

  it('fetches at boot, never per request, refreshes on an unknown kid at most once per cooldown', async () => {
    published = [first];
    let clock = 1_800_000_000_000;
    const before = idp.fetches;
    const cache = new JwksCache(new URL(idp.url), { cooldownMs: 30_000, refreshMs: 0, now: () => clock });
    await cache.refresh();
    const verifier = new SessionVerifier({ issuer: ISSUER, keys: cache.getKey, tierClaim: 'tier' });
    const fetched = () => idp.fetches - before;
    expect(fetched()).toBe(1);

    const tokens = await Promise.all(Array.from({ length: 50 }, () => signToken(first, claims)));
    const verdicts = await Promise.all(tokens.map((token) => verifier.verify(token)));
    expect(verdicts.every((v) => v.ok)).toBe(true);
    expect(fetched()).toBe(1);

    // The provider rotates: a token with the new kid arrives within the cooldown → refused, no fetch.
    published = [first, rotated];
    const fresh = await signToken(rotated, claims);
    expect((await verifier.verify(fresh)).ok).toBe(false);
    expect(fetched()).toBe(1);

    // After the cooldown the unknown kid triggers one fetch, and the token verifies.
    clock += 30_000;
    expect((await verifier.verify(fresh)).ok).toBe(true);
    expect(fetched()).toBe(2);

    // A spray of made-up kids right after: all refused, no fetch.
    const stranger = await signingKey('ES256', 'made-up');
    const sprayed = await Promise.all(Array.from({ length: 20 }, (_, i) => signToken({ ...stranger, kid: `made-up-${i}` }, claims)));
    const sprayVerdicts = await Promise.all(sprayed.map((token) => verifier.verify(token)));
    expect(sprayVerdicts.some((v) => v.ok)).toBe(false);
    expect(fetched()).toBe(2);
    cache.close();
  });

  it('keeps the last good keys through a provider outage, fetching at most once per cooldown', async () => {
    published = [first];
    let clock = 1_900_000_000_000;
    const before = idp.fetches;
    const cache = new JwksCache(new URL(idp.url), { cooldownMs: 30_000, refreshMs: 0, now: () => clock });
    await cache.refresh();
    const verifier = new SessionVerifier({ issuer: ISSUER, keys: cache.getKey, tierClaim: 'tier' });
    idp.setDown(true);
    try {
      clock += 31_000;
      const unknown = await signToken(rotated, claims);
      const results = await Promise.all(Array.from({ length: 10 }, () => verifier.verify(unknown)));
      expect(results.some((r) => r.ok)).toBe(false);
      expect(idp.fetches - before).toBe(2); // boot + one coalesced attempt
      expect((await verifier.verify(await signToken(first, claims))).ok).toBe(true);
      expect(idp.fetches - before).toBe(2);
    } finally {
      idp.setDown(false);
      cache.close();
    }
  });

  it('coalesces concurrent refreshes into one fetch', async () => {
    const before = idp.fetches;
    const cache = new JwksCache(new URL(idp.url), { refreshMs: 0 });
    await Promise.all(Array.from({ length: 10 }, () => cache.refresh()));
    expect(idp.fetches - before).toBe(1);
    cache.close();
  });

  it('does not fetch per request while the provider was down at boot', async () => {
    idp.setDown(true);
    let clock = Date.now(); // the verifier reads it too: tokens are minted on the real clock
    const before = idp.fetches;
    const setup = await createSessionSetup(authConfig({ STATE_DIR: stateDir(), AUTH_ISSUER: ISSUER, AUTH_JWKS_URL: idp.url }), { log, now: () => clock, jwks: { cooldownMs: 30_000, refreshMs: 0 } });
    try {
      expect(idp.fetches - before).toBe(1);
      const token = await signToken(first, claims);
      for (let i = 0; i < 5; i++) expect((await setup.verifier.verify(token)).ok).toBe(false);
      expect(idp.fetches - before).toBe(1);
      idp.setDown(false);
      clock += 30_000;
      expect((await setup.verifier.verify(token)).ok).toBe(true);
      expect(idp.fetches - before).toBe(2);
    } finally {
      idp.setDown(false);
      setup.close();
    }
  });
});
