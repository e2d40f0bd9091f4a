/**
 * @module domain/formats
 * The string formats our schemas use, as strict checkers: `date` is a real
 * calendar day (RFC 3339 full-date: no 2023-02-30), `date-time` an RFC 3339
 * timestamp with an offset. Registered in TypeBox's FormatRegistry when this
 * module loads, so a schema check anywhere (HTTP, stored JSON) knows them.
 */
import { FormatRegistry } from '@sinclair/typebox';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** RFC 3339 full-date: a real calendar day. */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(Number(m[1]), month, 0)).getUTCDate();
}

/** RFC 3339 date-time with an offset. */
export function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && isDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value));
}

/** Puts our checkers in TypeBox's registry (again, after a library replaced them). */
export function registerFormats(): void {
  FormatRegistry.Set('date', isDate);
  FormatRegistry.Set('date-time', isDateTime);
}

registerFormats();
