/**
 * @module db/pglite-wire
 * What crosses between the server's thread and PGlite's (db/pglite-remote,
 * db/pglite-thread): requests with an id, one reply per request, and errors as
 * plain fields. A structured clone keeps an Error's message but drops the
 * fields PostgreSQL's error carries (`code`, the SQLSTATE, which
 * db/data-errors and db/client's databaseUnreachable read; `detail`,
 * `constraint`, …), so an error crosses as its own enumerable fields and is
 * made again on the other side.
 *
 * @example
 * const error = fromWire(toWire(Object.assign(new Error('duplicate key'), { code: '23505' })));
 * (error as { code: string }).code; // => '23505'
 */
import type { WireQueryOptions } from './pglite-parsers';
import type { PgliteOpenRequest } from './pglite-open';

/**
 * A request to PGlite's thread about database `db` (the id of the request
 * that opened it: one thread holds every embedded database of the process);
 * `tx` names an open transaction (the id of its `begin`).
 */
export type PgliteRequest =
  | { op: 'open'; id: number; db: number; open: PgliteOpenRequest }
  | { op: 'query'; id: number; db: number; tx?: number; text: string; params?: unknown[]; options?: WireQueryOptions }
  | { op: 'exec'; id: number; db: number; tx?: number; text: string }
  | { op: 'begin'; id: number; db: number }
  | { op: 'end'; id: number; db: number; tx: number; commit: boolean }
  | { op: 'dump'; id: number; db: number }
  | { op: 'close'; id: number; db: number };

/** The reply to request `id`. */
export type PgliteReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** An error as it crosses: its name, message, and every other own field that is a string, number or boolean. */
export interface WireError {
  name: string;
  message: string;
  fields: Record<string, string | number | boolean>;
}

/** `error` as it crosses (parameters and options of a failed query stay behind: they can be large). */
export function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: WireError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (key !== 'params' && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) fields[key] = value;
  }
  if (error.stack) fields.threadStack = error.stack;
  return { name: error.name, message: error.message, fields };
}

/** The error made again on this side, with the same name, message and fields. */
export function fromWire(wire: WireError): Error {
  const error = Object.assign(new Error(wire.message), wire.fields);
  error.name = wire.name;
  return error;
}

/**
 * SQLSTATE 08006, connection_failure (PostgreSQL Appendix A): what a request
 * gets when PGlite's thread has ended (it crashed, or the database was
 * closed). databaseUnreachable reads it, so the server answers 503 as it does
 * for a PostgreSQL server that is gone.
 */
export const THREAD_GONE_CODE = '08006';

/** The error of a request PGlite's thread can no longer answer. */
export function threadGone(why: string): Error {
  return Object.assign(new Error(`the embedded database's thread has ended (${why})`), { code: THREAD_GONE_CODE });
}
