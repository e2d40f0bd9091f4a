/**
 * Test identity providers: RS256 and ES256 key pairs with their JWKS, a
 * signer for any claims and header, hand-made hostile tokens (`alg: none`,
 * HS256 keyed with the public key), and a loopback server answering the JWKS
 * so the URL mode is tested over real HTTP. Nothing leaves loopback.
 */
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

export interface TestSigningKey {
  alg: 'RS256' | 'ES256';
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  publicPem: string;
}

export async function signingKey(alg: 'RS256' | 'ES256', kid: string): Promise<TestSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { alg, kid, privateKey, publicKey, publicJwk, publicPem: await exportSPKI(publicKey) };
}

export function jwksOf(...keys: TestSigningKey[]): { keys: JWK[] } {
  return { keys: keys.map((key) => key.publicJwk) };
}

/** A token signed by `key` with exactly these claims (nothing added), header `{ alg, kid, typ }` plus `header`. */
export async function signToken(key: TestSigningKey, claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header }).sign(key.privateKey);
}

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** An unsecured JWT (`alg: none`, empty signature). */
export function unsignedToken(claims: JWTPayload, kid?: string): string {
  return `${b64({ alg: 'none', typ: 'JWT', ...(kid ? { kid } : {}) })}.${b64(claims)}.`;
}

/** The algorithm-confusion attack: HS256 whose HMAC secret is the public key's PEM (what a naive verifier would use as "the key"). */
export async function hs256WithPublicKey(key: TestSigningKey, claims: JWTPayload): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' }).sign(new TextEncoder().encode(key.publicPem));
}

/** A loopback server answering `jwks()` at /.well-known/jwks.json and counting the fetches; `down` makes it answer 503. */
export function jwksServer(jwks: () => unknown) {
  let fetches = 0;
  let down = false;
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      if (new URL(request.url).pathname !== '/.well-known/jwks.json') return new Response('not found', { status: 404 });
      fetches++;
      if (down) return new Response('unavailable', { status: 503 });
      return Response.json(jwks());
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/.well-known/jwks.json`,
    get fetches() {
      return fetches;
    },
    setDown(value: boolean) {
      down = value;
    },
    stop: () => server.stop(true),
  };
}
