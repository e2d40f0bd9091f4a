import { beforeAll, describe, expect, it } from 'bun:test';
import { createLocalJWKSet, exportPKCS8, importPKCS8, SignJWT, type JWTPayload } from 'jose';
import { SessionVerifier } from '../../src/auth/session';
import { hs256WithPublicKey, jwksOf, signingKey, signToken, unsignedToken, type TestSigningKey } from '../helpers/auth';
import { SCOPES } from '../../src/domain/scopes';

/** A pinned clock (seconds) so the skew boundaries are exact, not racing the wall clock. */
const NOW = 1_800_000_000;
const ISSUER = 'https://clerk.breakline.test';
const AUDIENCE = 'breakline-api';
const PARTY = 'https://app.breakline.test';

const claims = (overrides: JWTPayload = {}): JWTPayload => ({
  iss: ISSUER,
  aud: AUDIENCE,
  azp: PARTY,
  sub: 'user_2abc',
  iat: NOW - 60,
  nbf: NOW - 60,
  exp: NOW + 300,
  tier: 'pro',
  ...overrides,
});

const without = (name: keyof JWTPayload): JWTPayload => {
  const { [name]: _dropped, ...rest } = claims();
  return rest;
};

describe('session token matrix (RS256 and ES256 from a JWKS)', () => {
  let rsa: TestSigningKey;
  let ec: TestSigningKey;
  let stranger: TestSigningKey;
  let verifier: SessionVerifier;

  beforeAll(async () => {
    [rsa, ec, stranger] = await Promise.all([signingKey('RS256', 'rsa-1'), signingKey('ES256', 'ec-1'), signingKey('RS256', 'rsa-unknown')]);
    verifier = new SessionVerifier({
      issuer: ISSUER,
      audience: [AUDIENCE],
      authorizedParties: [PARTY],
      keys: createLocalJWKSet(jwksOf(rsa, ec)),
      tierClaim: 'tier',
      now: () => NOW * 1000,
    });
  });

  /** [case, how to make the token, accepted?] */
  const matrix: [string, () => Promise<string>, boolean][] = [
    ['valid RS256', () => signToken(rsa, claims()), true],
    ['valid ES256', () => signToken(ec, claims()), true],
    ['expired 4 s ago (within the 5 s skew)', () => signToken(rsa, claims({ exp: NOW - 4 })), true],
    ['expired 6 s ago', () => signToken(rsa, claims({ exp: NOW - 6 })), false],
    ['nbf 4 s ahead (within the skew)', () => signToken(rsa, claims({ nbf: NOW + 4 })), true],
    ['nbf 6 s ahead', () => signToken(rsa, claims({ nbf: NOW + 6 })), false],
    ['nbf an hour ahead', () => signToken(ec, claims({ nbf: NOW + 3600, exp: NOW + 7200 })), false],
    ['wrong iss', () => signToken(rsa, claims({ iss: 'https://evil.test' })), false],
    ['no iss', () => signToken(rsa, without('iss')), false],
    ['wrong azp', () => signToken(rsa, claims({ azp: 'https://evil.test' })), false],
    ['no azp while parties are configured', () => signToken(rsa, without('azp')), false],
    ['unknown kid', () => signToken(stranger, claims()), false],
    ['known kid, signed by another key', () => signToken({ ...stranger, kid: rsa.kid }, claims()), false],
    // Genuinely signed by a key of the set: jose picks the one key of the token's type, as providers without kids need.
    ['no kid, signed by the only RSA key of the set', () => signToken(rsa, claims(), { kid: undefined }), true],
    ['no kid, signed by a key outside the set', () => signToken(stranger, claims(), { kid: undefined }), false],
    ['alg none', async () => unsignedToken(claims(), rsa.kid), false],
    ['alg none without kid', async () => unsignedToken(claims()), false],
    ['HS256 keyed with the RSA public key', () => hs256WithPublicKey(rsa, claims()), false],
    ['HS256 keyed with the EC public key', () => hs256WithPublicKey(ec, claims()), false],
    ['tampered payload (sub swapped, signature kept)', async () => swapPayload(await signToken(rsa, claims()), claims({ sub: 'user_admin' })), false],
    ['tampered payload (tier raised)', async () => swapPayload(await signToken(ec, claims({ tier: 'free' })), claims({ tier: 'enterprise' })), false],
    ['header alg changed to ES256 on an RS256 token', async () => swapHeader(await signToken(rsa, claims()), { alg: 'ES256', kid: ec.kid, typ: 'JWT' }), false],
    ['truncated token (last 10 characters cut)', async () => (await signToken(rsa, claims())).slice(0, -10), false],
    ['truncated token (signature dropped)', async () => (await signToken(rsa, claims())).split('.').slice(0, 2).join('.'), false],
    ['truncated token (header only)', async () => (await signToken(rsa, claims())).split('.')[0]!, false],
    ['empty token', async () => '', false],
    ['valid token for another audience', () => signToken(rsa, claims({ aud: 'another-api' })), false],
    ['no aud while an audience is configured', () => signToken(rsa, without('aud')), false],
    ['no exp', () => signToken(rsa, without('exp')), false],
    ['no sub', () => signToken(rsa, without('sub')), false],
    ['empty sub', () => signToken(rsa, claims({ sub: '' })), false],
    ['RS384 by the same RSA key (alg not pinned)', () => signWith(rsa, 'RS384'), false],
    ['PS256 by the same RSA key', () => signWith(rsa, 'PS256'), false],
  ];

  it.each(matrix)('%s', async (_name, make, accepted) => {
    const result = await verifier.verify(await make());
    expect(result.ok).toBe(accepted);
    if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
  });

  it('has no wrong accept and no wrong refusal over the whole matrix', async () => {
    expect(matrix.length).toBeGreaterThan(30);
    const verdicts = await Promise.all(matrix.map(async ([name, make, accepted]) => ({ name, accepted, ok: (await verifier.verify(await make())).ok })));
    expect(verdicts.filter((v) => v.ok && !v.accepted).map((v) => v.name)).toEqual([]);
    expect(verdicts.filter((v) => !v.ok && v.accepted).map((v) => v.name)).toEqual([]);
  });

  it('gives the reason a client can act on', async () => {
    const reason = async (token: Promise<string> | string) => {
      const result = await verifier.verify(await token);
      return result.ok ? 'accepted' : result.reason;
    };
    expect(await reason(signToken(rsa, claims({ exp: NOW - 6 })))).toBe('token expired');
    expect(await reason(signToken(rsa, claims({ nbf: NOW + 6 })))).toContain('not yet valid');
    expect(await reason(signToken(rsa, claims({ iss: 'x' })))).toContain('issuer');
    expect(await reason(signToken(rsa, claims({ aud: 'x' })))).toContain('audience');
    expect(await reason(signToken(rsa, claims({ azp: 'x' })))).toContain('azp');
    expect(await reason(signToken(stranger, claims()))).toContain('unknown key');
    expect(await reason(unsignedToken(claims(), rsa.kid))).toContain('algorithm not allowed');
    expect(await reason(hs256WithPublicKey(rsa, claims()))).toContain('algorithm not allowed');
  });

  it('takes the user id from sub and the tier from the tier claim (free when absent or unknown)', async () => {
    const pro = await verifier.verify(await signToken(rsa, claims()));
    // With when the provider stated that tier: the token's iat (auth/user-tiers records it for the user's keys).
    expect(pro).toEqual({ ok: true, principal: { userId: 'user_2abc', tier: 'pro', kind: 'session', scopes: SCOPES }, statedAt: new Date((NOW - 60) * 1000) });
    const unknown = await verifier.verify(await signToken(rsa, claims({ tier: 'platinum' })));
    expect(unknown.ok && unknown.principal.tier).toBe('free');
    const absent = await verifier.verify(await signToken(rsa, without('tier')));
    expect(absent.ok && absent.principal.tier).toBe('free');
  });

  it('checks neither aud nor azp when none is configured', async () => {
    const lax = new SessionVerifier({ issuer: ISSUER, keys: createLocalJWKSet(jwksOf(rsa)), tierClaim: 'tier', now: () => NOW * 1000 });
    expect((await lax.verify(await signToken(rsa, claims({ aud: 'anything', azp: 'anywhere' })))).ok).toBe(true);
    expect((await lax.verify(await signToken(rsa, claims({ iss: 'https://evil.test' })))).ok).toBe(false);
  });
});

/** Replaces the payload segment, keeping header and signature. */
function swapPayload(token: string, payload: JWTPayload): string {
  const [header, , signature] = token.split('.');
  return `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
}

function swapHeader(token: string, header: Record<string, unknown>): string {
  const [, payload, signature] = token.split('.');
  return `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${payload}.${signature}`;
}

/** Signs with another algorithm of the same RSA key pair (the key is imported for it). */
async function signWith(key: TestSigningKey, alg: 'RS384' | 'PS256'): Promise<string> {
  const pkcs8 = await exportPKCS8(key.privateKey);
  const other = await importPKCS8(pkcs8, alg);
  return new SignJWT(claims()).setProtectedHeader({ alg, kid: key.kid, typ: 'JWT' }).sign(other);
}
