/**
 * Where the real market history lives: `shared/data` beside the repository
 * (CI clones the repo with shared/ next to it), or `SHARED_DATA_DIR`. Tests that
 * read it fail loudly when it is missing rather than skip.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SHARED_DATA = process.env.SHARED_DATA_DIR ?? resolve(import.meta.dir, '../../../shared/data');

export function sharedData(...parts: string[]): string {
  const path = join(SHARED_DATA, ...parts);
  if (!existsSync(path)) throw new Error(`real market data not found at ${path} (set SHARED_DATA_DIR to the shared/data folder)`);
  return path;
}
