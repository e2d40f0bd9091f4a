/**
 * @module db/data-errors
 * A statement the database refused for a value in it: SQLSTATE class 22,
 * "data exception" (PostgreSQL Appendix A: 22021 a NUL or a byte invalid in
 * UTF-8, 22003 a number out of range, 22007/22008 a date or time it cannot
 * read, 22P02 text that is no value of the type, …). Such a value came from
 * the caller and passed its schema; the edges answer it as bad input (400,
 * GraphQL's BAD_USER_INPUT), never as a server error. PGlite and postgres.js
 * both carry the SQLSTATE as `code`, drizzle wraps them as `cause`.
 *
 * @example
 * isDataException(Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' })); // => true
 */

/** Whether `error` (or one of its causes) is a data exception of the database. */
export function isDataException(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}
