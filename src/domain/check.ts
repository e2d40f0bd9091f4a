/**
 * @module domain/check
 * Checked mapping of stored JSON (jsonb columns, ledger bodies) to the domain
 * types: the value is validated against its TypeBox schema (compiled once per
 * schema) and returned typed, or a `StoredDataError` names what is wrong. No
 * `as` cast stands between the database and a typed value.
 *
 * @example
 * const findings = storedAs(Type.Array(SignalSchema));
 * const signals = findings(row.findings, `scan run ${row.id} findings`);
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import './formats';

/** Stored data that does not have the shape its schema promises (a bug or a tampered row, never user input). */
export class StoredDataError extends Error {
  constructor(what: string, detail: string) {
    super(`${what}: ${detail}`);
    this.name = 'StoredDataError';
  }
}

/**
 * A checked mapper for `schema`, compiled once where it is declared: call it
 * with a stored value and the name of where it came from.
 */
export function storedAs<S extends TSchema>(schema: S): (value: unknown, what: string) => Static<S> {
  const check: TypeCheck<S> = TypeCompiler.Compile(schema);
  return (value, what) => {
    if (check.Check(value)) return value;
    const first = check.Errors(value).First();
    throw new StoredDataError(what, first ? `${first.path || '/'} ${first.message}` : 'does not match its schema');
  };
}
