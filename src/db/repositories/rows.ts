/**
 * @module db/repositories/rows
 * The rows of a raw `db.execute(sql…)`: drizzle answers them as an array
 * (postgres.js) or as `{ rows }` (PGlite). Each row is still unknown JSON: a
 * checked mapper (domain/check `storedAs`) reads it.
 */
export function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  const rows = (result as { rows?: unknown }).rows;
  return Array.isArray(rows) ? rows : [];
}
