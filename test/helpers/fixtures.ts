/**
 * @module test/helpers/fixtures
 * The committed real-data excerpts the default suite reads (test/fixtures/,
 * cut by scripts/make-fixtures.ts; origin and licence of each in
 * test/fixtures/SOURCES.md). The full history in shared/data is for the
 * real-data run only (test/real, `npm run test:real`).
 *
 * @example
 * const provider = createCsvProvider({ dir: fixture('daily_yf_dieperdev') });
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const FIXTURES = resolve(import.meta.dir, '../fixtures');

/** The path of a committed fixture; throws (never skips) when it is missing. */
export function fixture(...parts: string[]): string {
  const path = join(FIXTURES, ...parts);
  if (!existsSync(path)) throw new Error(`test fixture not found at ${path} (run scripts/make-fixtures.ts)`);
  return path;
}
