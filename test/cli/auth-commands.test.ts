import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet } from 'jose';
import { loadOrCreateLocalKey, LOCAL_AUDIENCE, LOCAL_ISSUER } from '../../src/auth/local-key';
import { ApiKeys } from '../../src/auth';
import { SessionVerifier } from '../../src/auth/session';
import { openDatabase } from '../../src/db/client';
import { ApiKeysRepository } from '../../src/db/repositories/api-keys';
import { createLogger } from '../../src/log';
import { freshDatabaseUrl } from '../helpers/db';
import { runCli } from '../helpers/server-process';
import { SCOPES } from '../../src/domain/scopes';

describe('breakline token mint', () => {
  let stateDir: string;
  beforeAll(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'breakline-cli-'));
  });
  afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

  it('prints a session token signed by the local key in STATE_DIR', async () => {
    const { code, stdout, stderr } = await runCli(['token', 'mint', '--user', 'alice', '--tier', 'pro', '--ttl', '2h'], { STATE_DIR: stateDir });
    expect(code).toBe(0);
    expect(stderr).toContain('session for alice (tier pro)');
    const key = await loadOrCreateLocalKey(join(stateDir, 'auth', 'session-key.json'));
    const verifier = new SessionVerifier({ issuer: LOCAL_ISSUER, audience: [LOCAL_AUDIENCE], keys: createLocalJWKSet({ keys: [key.publicJwk] }), tierClaim: 'tier' });
    const result = await verifier.verify(stdout.trim());
    expect(result).toEqual({ ok: true, principal: { userId: 'alice', tier: 'pro', kind: 'session', scopes: SCOPES }, statedAt: expect.any(Date) });
    const { exp, iat } = JSON.parse(Buffer.from(stdout.trim().split('.')[1]!, 'base64url').toString());
    expect(exp - iat).toBe(7200);
  });

  it('refuses bad arguments with exit 64 and the usage', async () => {
    for (const args of [['token', 'mint', '--user', 'a', '--tier', 'gold'], ['token', 'mint', '--user', 'a', '--ttl', '90d'], ['token', 'mint', '--user', 'a', '--bogus']]) {
      const { code, stderr } = await runCli(args, { STATE_DIR: stateDir });
      expect({ args, code }).toEqual({ args, code: 64 });
      expect(stderr).toContain('usage: breakline token mint');
    }
  });

  it('refuses to mint while an identity provider is configured', async () => {
    const { code, stderr, stdout } = await runCli(['token', 'mint', '--user', 'a'], { STATE_DIR: stateDir, AUTH_ISSUER: 'https://idp.test', AUTH_JWKS_URL: 'https://idp.test/jwks' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('identity provider is configured');
  });
});

describe('breakline keys', () => {
  let env: Record<string, string>;
  let stateDir: string;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'breakline-cli-'));
    database = await freshDatabaseUrl();
    env = { STATE_DIR: stateDir, ...(database ? { DATABASE_URL: database.url } : {}) };
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('creates a key shown once, lists it without the secret, revokes it', async () => {
    const created = await runCli(['keys', 'create', '--user', 'ops', '--name', 'nightly job', '--tier', 'enterprise', '--scope', 'read', '--scope', 'backtest'], env);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^bk_[0-9A-Za-z]{43}$/);
    const id = /(key_[0-9a-z]{20})/.exec(created.stderr)?.[1];
    expect(id).toBeDefined();

    const listed = await runCli(['keys', 'list', '--user', 'ops'], env);
    expect(listed.code).toBe(0);
    const rows = listed.stdout.trim().split('\n');
    expect(rows[0]).toBe('id\tprefix\ttier\tname\tcreated\tlast used\trevoked\tscopes');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toStartWith(`${id}\t${key.slice(0, 11)}…\tenterprise\tnightly job\t`);
    expect(rows[1]).toEndWith('\tread,backtest');
    expect(listed.stdout).not.toContain(key.slice(11));

    const revoked = await runCli(['keys', 'revoke', id!], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout.trim().split('\t')[6]).toMatch(/^\d{4}-\d\d-\d\dT/);
    const missing = await runCli(['keys', 'revoke', 'key_00000000000000000000'], env);
    expect(missing.code).toBe(1);
  });

  it('states a user’s tier, which caps their keys (a note when a new key is above it)', async () => {
    const stated = await runCli(['keys', 'tier', '--user', 'ops2', '--tier', 'free'], env);
    expect({ code: stated.code, stdout: stated.stdout }).toEqual({ code: 0, stdout: 'ops2\tfree\n' });
    const created = await runCli(['keys', 'create', '--user', 'ops2', '--name', 'bot', '--tier', 'pro'], env);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('note: ops2 is free');
    // The key, verified as a server would: it acts as free.
    const opened = await openDatabase({ url: env.DATABASE_URL, dataDir: join(stateDir, 'pgdata') });
    try {
      const keys = new ApiKeys(new ApiKeysRepository(opened.db), { log: createLogger('silent'), flushMs: 0 });
      expect(await keys.verify(created.stdout.trim())).toMatchObject({ ok: true, principal: { tier: 'free', userTier: 'free' } });
    } finally {
      await opened.close();
    }
  });

  it('refuses bad arguments with exit 64 and the usage', async () => {
    for (const args of [['keys', 'rotate'], ['keys', 'create', '--user', 'u', '--name', 'x', '--tier', 'gold'], ['keys', 'create', '--user', 'u', '--name', 'x', '--bogus'], ['keys', 'tier', '--user', 'u', '--tier', 'gold']]) {
      const { code, stderr } = await runCli(args, env);
      expect({ args, code }).toEqual({ args, code: 64 });
      expect(stderr).toContain('usage: breakline keys create');
    }
  });
});
