/**
 * @module ids
 * Prefixed random identifiers (`req_…`, `run_…`), the unkey convention: the
 * prefix says what the id names, the rest is 96 random bits in base32 (Crockford
 * alphabet, lower case), which sorts and reads well in logs.
 *
 * @example
 * newId('req'); // => 'req_8k2q…' (20 random characters)
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export function newId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return `${prefix}_${out}`;
}
