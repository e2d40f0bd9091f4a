/**
 * @module test/helpers/shared-data
 * The full real market history for the real-data run (test/real, `npm run
 * test:real`): `SHARED_DATA_DIR`, or `shared/data` beside the repository (CI
 * has shared/ next to its clone). The default suite never reads it: it reads
 * the committed excerpts (test/helpers/fixtures.ts). Tests that read it fail
 * loudly when it is missing, never skip.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SHARED_DATA = process.env.SHARED_DATA_DIR ?? resolve(import.meta.dir, '../../../shared/data');

export function sharedData(...parts: string[]): string {
  const path = join(SHARED_DATA, ...parts);
  if (!existsSync(path)) throw new Error(`real market data not found at ${path}: npm run test:real needs the full history (set SHARED_DATA_DIR to the shared/data folder)`);
  return path;
}
