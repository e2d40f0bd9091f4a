/**
 * @module domain/formats
 * The string formats our schemas use, as strict checkers, and the one grammar
 * of numbers in query strings:
 *
 * - `date` is a real calendar day (RFC 3339 full-date: no 2023-02-30),
 *   `date-time` an RFC 3339 timestamp with an offset.
 * - `integer` and `numeric` are the string forms Elysia accepts for integer
 *   and number parameters (query, path, header). Decimal notation only: an
 *   optional `-`, digits, and for `numeric` one optional fraction. No hex
 *   (`0x10`), exponent (`1e3`), `Infinity`, `NaN`, blanks or `+`; an integer
 *   must be a safe integer (|n| ≤ 2^53 − 1), so nothing absurd is ever rounded
 *   into range. The parameter's own minimum and maximum apply after this.
 *
 * Registered in TypeBox's FormatRegistry when this module loads, so a schema
 * check anywhere (HTTP, stored JSON) knows them; Elysia registers looser
 * `integer`/`numeric` checkers only where none exists.
 *
 * @example
 * isDate('2024-02-29'); // => true
 * isDecimalInteger('0x10'); // => false
 */
import { FormatRegistry } from '@sinclair/typebox';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DECIMAL_INTEGER = /^-?\d{1,16}$/;
const DECIMAL_NUMBER = /^-?(?:\d{1,308}(?:\.\d{1,32})?|\.\d{1,32})$/;

/** Gregorian leap year (the proleptic calendar RFC 3339 uses, year 0 included). */
function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** RFC 3339 full-date: a real calendar day. */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const last = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  return day <= last;
}

/** RFC 3339 date-time with an offset. */
export function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && isDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value));
}

/** A decimal integer literal that is a safe integer: `-12`, `0`, `0042`; not `0x10`, `1e3`, `1.0`, ` 1`. */
export function isDecimalInteger(value: string): boolean {
  return DECIMAL_INTEGER.test(value) && Number.isSafeInteger(Number(value));
}

/** A finite decimal number literal: `-1.5`, `.25`, `3`; not `1e3`, `0x10`, `Infinity`, `NaN`, `1.`. */
export function isDecimalNumber(value: string): boolean {
  return DECIMAL_NUMBER.test(value) && Number.isFinite(Number(value));
}

/** Puts our checkers in TypeBox's registry (again, after a library replaced them). */
export function registerFormats(): void {
  FormatRegistry.Set('date', isDate);
  FormatRegistry.Set('date-time', isDateTime);
  FormatRegistry.Set('integer', isDecimalInteger);
  FormatRegistry.Set('numeric', isDecimalNumber);
}

registerFormats();
