/**
 * @module ids
 * Prefixed random identifiers (`req_…`, `run_…`), the unkey convention: the
 * prefix says what the id names, the rest is 100 random bits as 20 base32
 * characters (Crockford alphabet, lower case). Randomness comes from
 * `crypto.getRandomValues` in 4 KiB batches, so an id costs a table lookup per
 * character rather than a system call (ids are minted on every request).
 *
 * @example
 * newId('req'); // => 'req_8k2q…' (20 random characters)
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const ID_CHARS = 20;
const pool = new Uint8Array(4096);
let next = pool.length;

export function newId(prefix: string): string {
  if (next + ID_CHARS > pool.length) {
    crypto.getRandomValues(pool);
    next = 0;
  }
  let out = `${prefix}_`;
  for (let i = 0; i < ID_CHARS; i++) out += ALPHABET[pool[next++]! & 31];
  return out;
}
