/**
 * Local-mode sessions across instances (issue 26 item 8): instances that
 * share AUTH_LOCAL_KEY_FILE trust each other's sessions, whatever their
 * STATE_DIR; an instance with its own key does not. Processes that create the
 * key at once end with one key, and none reads a half-written file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet } from 'jose';
import { loadOrCreateLocalKey, LocalKeyError, LOCAL_AUDIENCE, LOCAL_ISSUER } from '../../src/auth/local-key';
import { SessionVerifier } from '../../src/auth/session';
import { createTestContext, type TestContext } from '../helpers/app';
import { runCli } from '../helpers/server-process';

describe('a local session key shared by several instances', () => {
  let scratch: string;
  let keyFile: string;
  let instances: TestContext[];
  let alone: TestContext;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'breakline-shared-key-'));
    keyFile = join(scratch, 'secrets', 'session-key.json');
    // Each context has its own STATE_DIR and database (the helper's); two of them mount the same key file.
    instances = await Promise.all([createTestContext({ env: { AUTH_LOCAL_KEY_FILE: keyFile } }), createTestContext({ env: { AUTH_LOCAL_KEY_FILE: keyFile } })]);
    alone = await createTestContext();
  });
  afterAll(async () => {
    await Promise.all([...instances, alone].map((ctx) => ctx.close()));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('accepts a session minted by the CLI with the shared file on every instance, and only there', async () => {
    const { code, stdout } = await runCli(['token', 'mint', '--user', 'alice', '--tier', 'pro'], { STATE_DIR: join(scratch, 'cli-state'), AUTH_LOCAL_KEY_FILE: keyFile });
    expect(code).toBe(0);
    const cookie = `__session=${stdout.trim()}`;
    for (const ctx of instances) expect((await ctx.request('/api/keys', { headers: { cookie } })).status).toBe(200);
    expect((await alone.request('/api/keys', { headers: { cookie } })).status).toBe(401);
  });

  it("accepts a session one instance minted on the other (the first instance's key is the file's)", async () => {
    const cookie = await instances[0]!.sessionCookie('bob', 'free');
    expect((await instances[1]!.request('/api/keys', { headers: { cookie } })).status).toBe(200);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('gives processes creating the key at once one key, every token of them valid with it', async () => {
    const racing = join(scratch, 'race', 'session-key.json');
    const minted = await Promise.all(Array.from({ length: 4 }, (_, i) => runCli(['token', 'mint', '--user', `u${i}`], { STATE_DIR: join(scratch, `race-state-${i}`), AUTH_LOCAL_KEY_FILE: racing })));
    expect(minted.map((m) => m.code)).toEqual([0, 0, 0, 0]);
    const key = await loadOrCreateLocalKey(racing);
    const verifier = new SessionVerifier({ issuer: LOCAL_ISSUER, audience: [LOCAL_AUDIENCE], keys: createLocalJWKSet({ keys: [key.publicJwk] }), tierClaim: 'tier' });
    for (const { stdout } of minted) expect((await verifier.verify(stdout.trim())).ok).toBe(true);
    // No temporary file is left beside it.
    expect(readdirSync(join(scratch, 'race'))).toEqual(['session-key.json']);
  });

  it('refuses a key file that cannot be read, or does not exist and cannot be created, naming it', async () => {
    // Under a path whose parent is a file: unreadable, for root too (unlike a mode).
    const parent = join(scratch, 'not-a-folder');
    writeFileSync(parent, '');
    const under = join(parent, 'session-key.json');
    await expect(loadOrCreateLocalKey(under)).rejects.toBeInstanceOf(LocalKeyError);
    await expect(loadOrCreateLocalKey(under)).rejects.toThrow(`${under} cannot be read`);
    // A name of 240 bytes exists nowhere, and its temporary sibling's name is past NAME_MAX (255): it cannot be written.
    const unwritable = join(scratch, 'k'.repeat(240));
    await expect(loadOrCreateLocalKey(unwritable)).rejects.toBeInstanceOf(LocalKeyError);
    await expect(loadOrCreateLocalKey(unwritable)).rejects.toThrow(`${unwritable} does not exist and cannot be created`);
  });
});
