/**
 * @module ledger/chain
 * The hash chain: `hash = SHA-256(prevHash ‖ body)` in lower-case hex, where
 * `‖` is concatenation of the previous hash's 64 hex characters and the
 * record's canonical JSON, UTF-8 encoded. The first record chains to
 * `GENESIS_HASH` (64 zeros).
 *
 * @example
 * chainHash(GENESIS_HASH, '{"seq":1}'); // => 64 hex characters
 */
export const GENESIS_HASH = '0'.repeat(64);

export function chainHash(prevHash: string, body: string): string {
  return new Bun.CryptoHasher('sha256').update(prevHash).update(body).digest('hex');
}
