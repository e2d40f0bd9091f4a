/**
 * @module auth/local-key
 * Local mode: with no identity provider configured, session tokens are minted
 * by `breakline token mint` and signed with an ES256 key kept in one file
 * (`AUTH_LOCAL_KEY_FILE`, else `STATE_DIR/auth/session-key.json`: a private
 * JWK, file mode 0600, a folder created for it 0700). The server and the CLI
 * both load it, and whichever comes first creates it. Several instances of a
 * deployment share sessions by sharing the file (a volume or a secret every
 * instance mounts): a session minted with it works on each of them.
 *
 * Creation is atomic: the key is written whole to a temporary file beside the
 * target, then linked to the target's name, which fails if the name exists
 * (link(2) is atomic, also on NFS); so racing processes, on one machine or
 * several sharing the folder, end with one key, and none ever reads a
 * half-written file.
 *
 * A key file other users can read is refused, as OpenSSH refuses a readable
 * private key: anyone who can read it can mint sessions. (Why not the
 * database: everyone who can read the database, its backups and replicas
 * could then mint sessions too.)
 *
 * The server trusts this key only while no provider is configured
 * (auth/index decides and says so in the boot log).
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Type } from '@sinclair/typebox';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { storedAs } from '../domain/check';
import type { Tier } from '../domain/tiers';

export const LOCAL_ISSUER = 'breakline-local';
export const LOCAL_AUDIENCE = 'breakline';
const LOCAL_ALGORITHM = 'ES256';

/** A token lives at most this long (the CLI refuses a longer `--ttl`). */
export const MAX_LOCAL_TTL_SECONDS = 30 * 24 * 3600;

const PrivateJwkSchema = Type.Object({
  kty: Type.Literal('EC'),
  crv: Type.Literal('P-256'),
  x: Type.String(),
  y: Type.String(),
  d: Type.String(),
  kid: Type.String({ minLength: 1 }),
});
const privateJwkOf = storedAs(PrivateJwkSchema);

export interface LocalSigningKey {
  path: string;
  kid: string;
  privateKey: CryptoKey;
  /** The public half, as a JWK with `kid`, `alg` and `use` (a one-key JWKS verifies with it). */
  publicJwk: JWK;
}

/** A local key that cannot be used (other users can read it, or it is not an ES256 private JWK). */
export class LocalKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalKeyError';
  }
}

/** Loads the local signing key from `path`, creating it on first use. */
export async function loadOrCreateLocalKey(path: string): Promise<LocalSigningKey> {
  try {
    return await readKey(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw code === undefined ? error : new LocalKeyError(`${path} cannot be read (${(error as Error).message})`);
  }
  const { privateKey } = await generateKeyPair(LOCAL_ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  const written = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(written, `${JSON.stringify({ ...jwk, kid })}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // A read-only mount (a secret) that does not hold the key yet, or a folder we may not write.
    throw new LocalKeyError(`${path} does not exist and cannot be created (${(error as Error).message}): create it where it is writable (breakline token mint does) and mount it, or unset AUTH_LOCAL_KEY_FILE`);
  }
  try {
    linkSync(written, path);
  } catch (error) {
    // Another process published its key between our read and our link: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(written);
  }
  return readKey(path);
}

async function readKey(path: string): Promise<LocalSigningKey> {
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new LocalKeyError(`${path} is readable by other users (mode ${mode.toString(8)}): anyone who can read it can mint sessions; run chmod 600 on it`);
  }
  let jwk;
  try {
    jwk = privateJwkOf(JSON.parse(readFileSync(path, 'utf8')), path);
  } catch (error) {
    throw new LocalKeyError(`${path} is not an ES256 private JWK (${(error as Error).message}); delete it to generate a new key`);
  }
  const privateKey = await importJWK({ ...jwk, alg: LOCAL_ALGORITHM }, LOCAL_ALGORITHM);
  if (!(privateKey instanceof CryptoKey)) throw new LocalKeyError(`${path} did not import as a key`);
  const { d: _private, ...publicPart } = jwk;
  return { path, kid: jwk.kid, privateKey, publicJwk: { ...publicPart, alg: LOCAL_ALGORITHM, use: 'sig' } };
}

export interface MintOptions {
  userId: string;
  tier: Tier;
  ttlSeconds: number;
  /** The claim that carries the tier (AUTH_TIER_CLAIM). */
  tierClaim: string;
  now?: number;
}

/** Signs a session token with the local key: `iss` breakline-local, `aud` breakline, `sub` the user. */
export async function mintLocalToken(key: LocalSigningKey, options: MintOptions): Promise<{ token: string; expiresAt: Date }> {
  if (!(options.ttlSeconds > 0 && options.ttlSeconds <= MAX_LOCAL_TTL_SECONDS)) {
    throw new RangeError(`ttl must be between 1 s and ${MAX_LOCAL_TTL_SECONDS / 86400} days`);
  }
  const issuedAt = Math.floor((options.now ?? Date.now()) / 1000);
  const expiresAt = issuedAt + options.ttlSeconds;
  const token = await new SignJWT({ [options.tierClaim]: options.tier })
    .setProtectedHeader({ alg: LOCAL_ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setIssuer(LOCAL_ISSUER)
    .setAudience(LOCAL_AUDIENCE)
    .setSubject(options.userId)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key.privateKey);
  return { token, expiresAt: new Date(expiresAt * 1000) };
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * A duration like `90s`, `30m`, `1h`, `7d` in seconds.
 * @throws {RangeError} for anything else.
 */
export function parseTtl(text: string): number {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim());
  const unit = match ? UNIT_SECONDS[match[2]!] : undefined;
  if (!match || unit === undefined) throw new RangeError(`'${text}' is not a duration like 90s, 30m, 1h or 7d`);
  return Number(match[1]) * unit;
}
