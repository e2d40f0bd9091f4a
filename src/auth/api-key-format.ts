/**
 * @module auth/api-key-format
 * What an API key is: `bk_` and 32 random bytes written in base62 (43
 * characters, `[0-9A-Za-z]`, so a double-click selects all of it). The first
 * 8 characters after `bk_` are its lookup prefix, stored in clear and shown in
 * listings; the database holds nothing else of the key but its SHA-256.
 *
 * Why a plain SHA-256 and not bcrypt/scrypt/argon2: slow, salted hashes exist
 * because passwords are guessable, so each guess must be made expensive. These
 * keys are not guessable: 32 bytes from the system CSPRNG are 256 bits of
 * entropy, of which the stored prefix reveals about 47.6 (8 × log2 62), leaving
 * about 208 bits. Recovering a key from its hash is a preimage search over
 * 2^208 candidates — out of reach at any hash speed — and every key is unique
 * random, so a salt would add nothing (no two users share a key, and no
 * precomputed table covers a 2^208 space). A slow hash would only make every
 * authenticated request cost tens of milliseconds of CPU, a denial-of-service
 * lever. (unkey and GitHub's token scanning store fast hashes for the same reason.)
 *
 * The comparison of the presented key's hash with the stored one is
 * constant-time (`crypto.timingSafeEqual`) and always happens, against a
 * fixed dummy hash when the prefix is unknown (auth/api-keys).
 *
 * @example
 * const { key, prefix } = generateApiKey(); // => { key: 'bk_7Gq…' (46 chars), prefix: '7Gq…' (8 chars) }
 * parseApiKey(key); // => { prefix }
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_MARK = 'bk_';
/** Base62 digits of a 256-bit number: 62^43 > 2^256 > 62^42. */
const BODY_LENGTH = 43;
export const LOOKUP_PREFIX_LENGTH = 8;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${API_KEY_MARK}[0-9A-Za-z]{${BODY_LENGTH}}$`);

/** A fresh key and its lookup prefix. The key is shown to its owner once and never stored. */
export function generateApiKey(): { key: string; prefix: string } {
  let n = BigInt(`0x${randomBytes(32).toString('hex')}`);
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) {
    body = ALPHABET[Number(n % 62n)] + body;
    n /= 62n;
  }
  return { key: `${API_KEY_MARK}${body}`, prefix: body.slice(0, LOOKUP_PREFIX_LENGTH) };
}

/** The lookup prefix of a well-formed key, or null (the format is public: refusing a malformed key early leaks nothing). */
export function parseApiKey(text: string): { prefix: string } | null {
  return KEY_PATTERN.test(text) ? { prefix: text.slice(API_KEY_MARK.length, API_KEY_MARK.length + LOOKUP_PREFIX_LENGTH) } : null;
}

/** How a presented key is hashed and compared; a parameter of ApiKeys so tests can count the work on each path. */
export interface KeyHashing {
  digest(key: string): Buffer;
  /** Constant-time equality of two digests of the same length. */
  equal(a: Buffer, b: Buffer): boolean;
}

export const SHA256_HASHING: KeyHashing = {
  digest: (key) => createHash('sha256').update(key, 'utf8').digest(),
  equal: (a, b) => a.length === b.length && timingSafeEqual(a, b),
};

/**
 * Stands in for the stored hash when the prefix matches no key, so that path
 * does the same work as a wrong secret: decode 64 hex characters, hash the
 * presented key, compare 32 bytes in constant time.
 */
export const DUMMY_HASH_HEX = '5a'.repeat(32);
