/**
 * bench/auth: what authentication costs, and whether the API-key check leaks
 * through timing.
 *
 * 1. API key verification, three paths measured interleaved (round-robin, so
 *    machine noise hits all alike): an unknown prefix, the right prefix with
 *    a wrong secret, the right key. Once with the lookup answered from memory
 *    (the CPU path alone: SHA-256 + constant-time compare) and once from an
 *    in-memory PGlite (the index lookup included; a hit returns a row, a miss
 *    none, so some difference there is the database's, not the comparison's).
 *    Goal: the two failure paths within noise of each other (ratio ≈ 1.00).
 * 2. Session token verification (RS256, ES256) per call.
 * 3. A public read in-process (`app.handle`): anonymous, with a session
 *    cookie, with an API key — the cost of resolving the principal per request.
 *
 *   bun run bench/auth.ts            # 20,000 rounds / 1,000 requests
 *   bun run bench/auth.ts --smoke
 */
import { rmSync } from 'node:fs';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createApp } from '../src/app';
import { generateApiKey } from '../src/auth/api-key-format';
import { ApiKeys } from '../src/auth/api-keys';
import { loadOrCreateLocalKey, mintLocalToken } from '../src/auth/local-key';
import { SessionVerifier } from '../src/auth/session';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { ApiKeysRepository, type StoredApiKey } from '../src/db/repositories/api-keys';
import { createLogger } from '../src/log';
import { createServices } from '../src/services';
import { printTable, smoke } from './lib';

const log = createLogger('silent');

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const us = (ms: number) => Math.round(ms * 1000 * 100) / 100;

async function interleaved(paths: [string, () => Promise<unknown>][], rounds: number) {
  const times = paths.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < paths.length; i++) {
      const start = Bun.nanoseconds();
      await paths[i]![1]();
      times[i]!.push((Bun.nanoseconds() - start) / 1e6);
    }
  }
  return paths.map(([name], i) => {
    const sorted = times[i]!.sort((a, b) => a - b);
    return { name, p10: quantile(sorted, 0.1), p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9) };
  });
}

async function keyPaths(keys: ApiKeys, rounds: number, where: string) {
  const { key } = await keys.create({ userId: 'bench', name: 'bench', tier: 'free' });
  const wrongPrefix = `bk_${generateApiKey().key.slice(3)}`;
  const wrongSecret = `${key.slice(0, 11)}${generateApiKey().key.slice(11)}`;
  const results = await interleaved(
    [
      ['unknown prefix', () => keys.verify(wrongPrefix)],
      ['right prefix, wrong secret', () => keys.verify(wrongSecret)],
      ['right key', () => keys.verify(key)],
    ],
    rounds,
  );
  const base = results[0]!.p50;
  return results.map((r) => ({ lookup: where, path: r.name, 'p10 µs': us(r.p10), 'p50 µs': us(r.p50), 'p90 µs': us(r.p90), 'p50 ÷ unknown prefix': (r.p50 / base).toFixed(2) }));
}

export async function benchAuth(): Promise<void> {
  const rounds = smoke ? 500 : 20_000;

  // 1. API keys: the lookup from memory, then from PGlite.
  const memory = new Map<string, StoredApiKey>();
  const inMemory = Object.assign(Object.create(ApiKeysRepository.prototype) as ApiKeysRepository, {
    insert: async (row: StoredApiKey) => (memory.set(row.prefix, { ...row, lastUsedAt: null, revokedAt: null }), memory.get(row.prefix)!),
    byPrefix: async (prefix: string) => memory.get(prefix),
    touch: async () => {},
  });
  const rows = await keyPaths(new ApiKeys(inMemory, { log, flushMs: 0 }), rounds, 'memory');
  const database = await openDatabase({ dataDir: ':memory:' });
  const dbKeys = new ApiKeys(new ApiKeysRepository(database.db), { log, flushMs: 0 });
  rows.push(...(await keyPaths(dbKeys, Math.min(rounds, smoke ? 200 : 5_000), 'PGlite')));
  await dbKeys.close();
  await database.close();
  printTable(`bench/auth — API key verification, ${rounds} interleaved rounds (goal: the two failure paths ≈ 1.00 apart)`, rows);

  // 2. Session tokens.
  const now = Math.floor(Date.now() / 1000);
  const tokenRows = [];
  for (const alg of ['RS256', 'ES256'] as const) {
    const { privateKey, publicKey } = await generateKeyPair(alg);
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg };
    const verifier = new SessionVerifier({ issuer: 'https://idp.bench', keys: createLocalJWKSet({ keys: [jwk] }), tierClaim: 'tier' });
    const token = await new SignJWT({ sub: 'u' }).setProtectedHeader({ alg, kid: 'k' }).setIssuer('https://idp.bench').setIssuedAt(now).setExpirationTime(now + 3600).sign(privateKey);
    const [result] = await interleaved([[alg, () => verifier.verify(token)]], smoke ? 200 : 5_000);
    tokenRows.push({ algorithm: alg, 'p10 µs': us(result!.p10), 'p50 µs': us(result!.p50), 'p90 µs': us(result!.p90) });
  }
  printTable('bench/auth — session token verification (jose, local JWKS)', tokenRows);

  // 3. A public read with each kind of credential.
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTA: '1000000000', RATE_LIMIT_QUOTA_FREE: '1000000000', RATE_LIMIT_QUOTA_PRO: '1000000000', RATE_LIMIT_QUOTA_ENTERPRISE: '1000000000', STATE_DIR: `/tmp/breakline-bench-auth-${process.pid}` });
  const services = await createServices(config, { pgliteDir: ':memory:', log, warmPool: true });
  const app = createApp(services);
  const { key } = await services.auth.keys.create({ userId: 'bench', name: 'http', tier: 'pro' });
  const { token } = await mintLocalToken(await loadOrCreateLocalKey(config.stateDir), { userId: 'bench', tier: 'pro', ttlSeconds: 3600, tierClaim: 'tier' });
  const path = 'http://localhost/api/snapshot?symbol=AAPL';
  const call = (headers: Record<string, string>) => async () => (await app.handle(new Request(path, { headers }))).arrayBuffer();
  for (let i = 0; i < 20; i++) await call({})();
  const http = await interleaved(
    [
      ['anonymous', call({})],
      ['session cookie', call({ cookie: `__session=${token}` })],
      ['API key', call({ authorization: `Bearer ${key}` })],
    ],
    smoke ? 100 : 1_000,
  );
  const anonymous = http[0]!.p50;
  printTable(
    'bench/auth — GET /api/snapshot in-process by credential (the principal resolved once per request)',
    http.map((r) => ({ credential: r.name, 'p50 µs': us(r.p50), 'p90 µs': us(r.p90), 'p50 − anonymous µs': us(r.p50 - anonymous) })),
  );
  await services.close();
  rmSync(config.stateDir, { recursive: true, force: true });
}

if (import.meta.main) await benchAuth();
