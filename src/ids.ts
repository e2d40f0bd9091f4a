/**
 * @module ids
 * Prefixed random identifiers (`req_…`, `run_…`), the unkey convention: the
 * prefix says what the id names, the rest is 100 random bits as 20 base32
 * characters (Crockford alphabet, lower case). Randomness comes from
 * `crypto.getRandomValues` in 8 KiB batches, so an id costs ten table lookups
 * (two characters, 10 random bits, each) and one string of its own rather
 * than a system call (ids are minted on every request).
 *
 * @example
 * newId('req'); // => 'req_8k2q…' (20 random characters)
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const ID_CHARS = 20;
/** Every pair of alphabet characters, by its 10 bits (first character in the high 5). */
const PAIRS = Array.from({ length: 1024 }, (_, bits) => ALPHABET[bits >> 5]! + ALPHABET[bits & 31]!);
const pool = new Uint16Array(4096);
let next = pool.length;

export function newId(prefix: string): string {
  if (next + ID_CHARS / 2 > pool.length) {
    crypto.getRandomValues(pool);
    next = 0;
  }
  const p = pool;
  const i = next;
  next += ID_CHARS / 2;
  // One expression: the characters are joined once, not one concatenation at a time.
  return `${prefix}_${PAIRS[p[i]! & 1023]}${PAIRS[p[i + 1]! & 1023]}${PAIRS[p[i + 2]! & 1023]}${PAIRS[p[i + 3]! & 1023]}${PAIRS[p[i + 4]! & 1023]}${PAIRS[p[i + 5]! & 1023]}${PAIRS[p[i + 6]! & 1023]}${PAIRS[p[i + 7]! & 1023]}${PAIRS[p[i + 8]! & 1023]}${PAIRS[p[i + 9]! & 1023]}`;
}
