import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { generateApiKey, parseApiKey, SHA256_HASHING, type KeyHashing } from '../../src/auth/api-key-format';
import { ApiKeys } from '../../src/auth/api-keys';
import { ApiKeysRepository } from '../../src/db/repositories/api-keys';
import type { Database } from '../../src/db/client';
import { createLogger } from '../../src/log';
import { openFreshDatabase } from '../helpers/db';

const log = createLogger('silent');

describe('API key format', () => {
  it('is bk_ and 43 base62 characters, its first 8 the lookup prefix', () => {
    const { key, prefix } = generateApiKey();
    expect(key).toMatch(/^bk_[0-9A-Za-z]{43}$/);
    expect(prefix).toBe(key.slice(3, 11));
    expect(parseApiKey(key)).toEqual({ prefix });
  });

  it('draws every key afresh: 2,000 keys, 2,000 prefixes, every base62 digit used', () => {
    const keys = Array.from({ length: 2000 }, () => generateApiKey());
    expect(new Set(keys.map((k) => k.key)).size).toBe(2000);
    expect(new Set(keys.map((k) => k.prefix)).size).toBe(2000);
    const digits = new Set(keys.flatMap((k) => [...k.key.slice(3)]));
    expect(digits.size).toBe(62);
  });

  it('refuses anything else before any lookup', () => {
    const { key } = generateApiKey();
    for (const bad of ['', 'bk_', key.slice(0, -1), `${key}x`, key.replace('bk_', 'sk_'), `${key.slice(0, -1)}-`, ` ${key}`]) {
      expect(parseApiKey(bad)).toBeNull();
    }
  });
});

/** Counts the work the verify path does: hashes, constant-time comparisons (with their operand lengths), and lookups. */
function counting(repository: ApiKeysRepository) {
  const work = { digests: 0, comparisons: [] as [number, number][], lookups: 0 };
  const hashing: KeyHashing = {
    digest: (key) => {
      work.digests++;
      return SHA256_HASHING.digest(key);
    },
    equal: (a, b) => {
      work.comparisons.push([a.length, b.length]);
      return SHA256_HASHING.equal(a, b);
    },
  };
  const lookups = Object.assign(Object.create(repository), {
    byPrefix: (prefix: string) => {
      work.lookups++;
      return repository.byPrefix(prefix);
    },
  });
  return { work, hashing, repository: lookups as ApiKeysRepository, reset: () => Object.assign(work, { digests: 0, comparisons: [], lookups: 0 }) };
}

describe('API keys over the database', () => {
  let fresh: { database: Database; close: () => Promise<void> };
  let repository: ApiKeysRepository;
  let keys: ApiKeys;
  beforeAll(async () => {
    fresh = await openFreshDatabase();
    repository = new ApiKeysRepository(fresh.database.db);
    keys = new ApiKeys(repository, { log, flushMs: 0 });
  });
  afterAll(async () => {
    await keys.close();
    await fresh.close();
  });

  it('verifies a created key as its owner at its tier', async () => {
    const { key, info } = await keys.create({ userId: 'user_a', name: 'bot', tier: 'pro' });
    expect(info).toMatchObject({ userId: 'user_a', name: 'bot', tier: 'pro', prefix: key.slice(3, 11), lastUsedAt: null, revokedAt: null });
    expect(info.id).toMatch(/^key_[0-9a-z]{20}$/);
    // No tier of user_a's was ever stated (auth/user-tiers): the key's own is the user's.
    expect(await keys.verify(key)).toEqual({ ok: true, principal: { userId: 'user_a', tier: 'pro', kind: 'key', keyId: info.id, userTier: 'pro', scopes: ['read'] } });
  });

  it('stores the SHA-256 of the key and nothing of its secret part', async () => {
    const { key, info } = await keys.create({ userId: 'user_a', name: 'hash check', tier: 'free' });
    const row = await repository.byId(info.id);
    expect(row!.hash).toBe(new Bun.CryptoHasher('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key.slice(11));
  });

  it('refuses a revoked key on the very next request, from any instance', async () => {
    const { key, info } = await keys.create({ userId: 'user_b', name: 'soon revoked', tier: 'free' });
    const otherInstance = new ApiKeys(new ApiKeysRepository(fresh.database.db), { log, flushMs: 0 });
    expect((await otherInstance.verify(key)).ok).toBe(true);
    const revoked = await keys.revoke(info.id, 'user_b');
    expect(revoked!.revokedAt).toBeInstanceOf(Date);
    expect(await otherInstance.verify(key)).toEqual({ ok: false, reason: `API key ${info.id} was revoked`, code: 'revoked_key' });
    expect((await keys.verify(key)).ok).toBe(false);
    // Revoking again keeps the first time; another user cannot revoke it (nor learn it exists).
    expect((await keys.revoke(info.id, 'user_b'))!.revokedAt).toEqual(revoked!.revokedAt);
    expect(await keys.revoke(info.id, 'user_c')).toBeUndefined();
    await otherInstance.close();
  });

  it('lists only the owner’s keys, newest first, without hashes', async () => {
    await keys.create({ userId: 'user_d', name: 'first', tier: 'free' });
    await Bun.sleep(5);
    await keys.create({ userId: 'user_d', name: 'second', tier: 'enterprise' });
    await keys.create({ userId: 'user_e', name: 'not yours', tier: 'free' });
    const listed = await keys.list('user_d');
    expect(listed.map((k) => k.name)).toEqual(['second', 'first']);
    expect(listed.every((k) => k.userId === 'user_d' && !('hash' in k))).toBe(true);
  });

  it('does the same work for an unknown prefix as for a known prefix with a wrong secret', async () => {
    const { key } = await keys.create({ userId: 'user_f', name: 'timing', tier: 'free' });
    const probe = counting(repository);
    const verifier = new ApiKeys(probe.repository, { log, flushMs: 0, hashing: probe.hashing });

    const wrongPrefix = `bk_${generateApiKey().key.slice(3)}`;
    const rightPrefixWrongSecret = `${key.slice(0, 11)}${generateApiKey().key.slice(11)}`;
    expect(rightPrefixWrongSecret.slice(0, 11)).toBe(key.slice(0, 11));

    const paths: Record<string, typeof probe.work & { reason: string }> = {};
    for (const [name, presented] of [
      ['wrong prefix', wrongPrefix],
      ['right prefix, wrong secret', rightPrefixWrongSecret],
      ['right key', key],
    ] as const) {
      probe.reset();
      const result = await verifier.verify(presented);
      paths[name] = { ...structuredClone(probe.work), reason: result.ok ? 'ok' : result.reason };
    }
    const shape = (p: typeof probe.work) => ({ digests: p.digests, comparisons: p.comparisons, lookups: p.lookups });
    // One lookup, one SHA-256, one constant-time comparison of two 32-byte digests — on every path.
    for (const path of Object.values(paths)) expect(shape(path)).toEqual({ digests: 1, comparisons: [[32, 32]], lookups: 1 });
    // And the two failures are indistinguishable in the answer.
    expect(paths['wrong prefix']!.reason).toBe('unknown API key');
    expect(paths['right prefix, wrong secret']!.reason).toBe('unknown API key');
    expect(paths['right key']!.reason).toBe('ok');

    // A malformed key is refused before any lookup or hashing (its format is public).
    probe.reset();
    expect((await verifier.verify('bk_short')).ok).toBe(false);
    expect(shape(probe.work)).toEqual({ digests: 0, comparisons: [], lookups: 0 });
  });

  it('records last use in batches, not on every request', async () => {
    const { key, info } = await keys.create({ userId: 'user_g', name: 'busy', tier: 'free' });
    let writes = 0;
    const counted = Object.assign(Object.create(repository), {
      touch: (usage: ReadonlyMap<string, number>) => {
        writes++;
        return repository.touch(usage);
      },
    }) as ApiKeysRepository;
    let clock = 1_800_000_000_000;
    const busy = new ApiKeys(counted, { log, flushMs: 0, now: () => clock });
    for (let i = 0; i < 100; i++) {
      clock += 10;
      expect((await busy.verify(key)).ok).toBe(true);
    }
    expect(writes).toBe(0);
    expect((await repository.byId(info.id))!.lastUsedAt).toBeNull();
    // The instance that saw the use already shows it.
    expect((await busy.list('user_g'))[0]!.lastUsedAt).toEqual(new Date(clock));
    await busy.flush();
    expect(writes).toBe(1);
    expect((await repository.byId(info.id))!.lastUsedAt).toEqual(new Date(clock));
    // An older time never moves it back.
    await repository.touch(new Map([[info.id, clock - 60_000]]));
    expect((await repository.byId(info.id))!.lastUsedAt).toEqual(new Date(clock));
    await busy.flush();
    expect(writes).toBe(1); // nothing pending, nothing written
  });

  it('has the database refuse a row whose hash is not a SHA-256 hex digest (a plaintext key cannot land there)', async () => {
    const { key } = generateApiKey();
    const insert = repository.insert({ id: 'key_plaintextattempt000', userId: 'user_h', name: 'oops', prefix: key.slice(3, 11), hash: key, tier: 'free', scopes: ['read'], createdAt: new Date() });
    await expect(insert).rejects.toThrow();
    expect(await repository.listByUser('user_h')).toEqual([]);
  });
});
