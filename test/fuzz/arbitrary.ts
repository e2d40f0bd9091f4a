/**
 * JSON Schema → fast-check arbitraries, for the subset an OpenAPI document of
 * ours uses (enum/const, string with pattern/format/length, integer and
 * number with bounds, boolean, null, arrays, objects, anyOf/oneOf/allOf,
 * local `$ref`), and the hostile values the fuzz suite mixes in.
 *
 * Query, path and header values are strings: `wireValue` generates the string
 * a well-behaved client would send for a schema (decimal numbers, never an
 * exponent), `hostileValue` the strings a careless or malicious one might.
 *
 * @example
 * fc.sample(wireValue({ type: 'integer', minimum: 1, maximum: 500 }), 3); // => ['1', '500', '37']
 */
import fc from 'fast-check';
import type { Schema } from '../helpers/openapi';

type Resolve = (schema: unknown) => Schema;

/** A number as a query string writes it: plain decimal notation, never an exponent. */
export function decimal(n: number): string {
  if (Number.isInteger(n)) return BigInt(n).toString();
  const fixed = n.toFixed(6).replace(/\.?0+$/, '');
  return fixed === '-0' ? '0' : fixed;
}

const DAY = 86_400_000;
const dateIn = (from: string, to: string) => fc.integer({ min: Date.parse(from) / DAY, max: Date.parse(to) / DAY }).map((d) => new Date(d * DAY).toISOString().slice(0, 10));

/** Calendar dates, biased to the years market data exists in (where the work is) and to the range's edges. */
const dates = fc.oneof(
  { arbitrary: dateIn('2018-01-01', '2027-12-31'), weight: 6 },
  { arbitrary: dateIn('1900-01-01', '2199-12-31'), weight: 3 },
  { arbitrary: fc.constantFrom('1900-01-01', '2199-12-31', '2024-02-29', '2000-02-29'), weight: 1 },
);

function numberBetween(schema: Schema, integer: boolean, examplesWeight: number): fc.Arbitrary<number> {
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  const min = typeof schema.minimum === 'number' ? schema.minimum : exclusiveMin ?? -1_000_000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : exclusiveMax ?? Math.max(min, 0) + 1_000_000_000;
  if (integer) {
    const lo = Math.ceil(exclusiveMin !== undefined && exclusiveMin === min ? min + 1 : min);
    const hi = Math.floor(exclusiveMax !== undefined && exclusiveMax === max ? max - 1 : max);
    return fc.oneof({ arbitrary: fc.integer({ min: lo, max: hi }), weight: 4 }, { arbitrary: fc.constantFrom(lo, hi), weight: 1 });
  }
  const inner = fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: exclusiveMin !== undefined, maxExcluded: exclusiveMax !== undefined });
  const examples = Array.isArray(schema.examples) ? schema.examples.filter((e): e is number => typeof e === 'number') : [];
  return fc.oneof(
    { arbitrary: inner, weight: 4 },
    { arbitrary: fc.constantFrom(min, max).filter((v) => v !== exclusiveMin && v !== exclusiveMax), weight: 1 },
    ...(examples.length ? [{ arbitrary: fc.constantFrom(...examples), weight: examplesWeight }] : []),
  );
}

function stringOf(schema: Schema, examplesWeight: number): fc.Arbitrary<string> {
  if (schema.format === 'date') return dates;
  if (schema.format === 'date-time') return dates.map((d) => `${d}T12:00:00.000Z`);
  const examples = Array.isArray(schema.examples) ? schema.examples.filter((e): e is string => typeof e === 'string') : [];
  const base =
    typeof schema.pattern === 'string'
      ? fc.stringMatching(new RegExp(schema.pattern))
      : fc.string({ minLength: typeof schema.minLength === 'number' ? schema.minLength : 0, maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : 40 });
  return examples.length ? fc.oneof({ arbitrary: fc.constantFrom(...examples), weight: examplesWeight }, { arbitrary: base, weight: 2 }) : base;
}

/**
 * A JSON value that satisfies `schema` (as far as the generator can tell; the
 * server is the judge). `examplesWeight` is how strongly declared examples are
 * preferred (against 2 for anything the schema allows).
 */
export function valueOf(schema: unknown, resolve: Resolve, examplesWeight = 3, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const sub = (child: unknown) => valueOf(child, resolve, examplesWeight, depth + 1);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  if ('const' in s) return fc.constant(s.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length) return fc.oneof(...options.map((o) => sub(o)));
  }
  if (Array.isArray(s.allOf) && s.allOf.length) return sub(Object.assign({}, ...s.allOf.map((p) => resolve(p))));
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.length > 1) return fc.oneof(...types.map((type) => sub({ ...s, type })));
  switch (types[0]) {
    case 'string':
      return stringOf(s, examplesWeight);
    case 'integer':
      return numberBetween(s, true, examplesWeight);
    case 'number':
      return numberBetween(s, false, examplesWeight);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = depth > 4 ? fc.constant(null) : sub(s.items ?? {});
      return fc.array(items, { minLength: typeof s.minItems === 'number' ? s.minItems : 0, maxLength: typeof s.maxItems === 'number' ? s.maxItems : 3 });
    }
    case 'object':
    default: {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      if (depth > 4 || Object.keys(properties).length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, sub(child)])),
        { requiredKeys: [...required].filter((name) => name in properties) },
      );
    }
  }
}

/** The string a well-behaved client sends for a parameter of `schema`. */
export function wireValue(schema: unknown, resolve: Resolve, examplesWeight = 3): fc.Arbitrary<string> {
  return valueOf(schema, resolve, examplesWeight).map((value) => (typeof value === 'number' ? decimal(value) : String(value)));
}

/** Strings a careless or hostile client sends: every grammar edge the issue lists, and random text. */
export const hostileValue: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '', ' ', 'NaN', 'Infinity', '-Infinity', '0x10', '0b11', '0o7', '1e3', '1e308', '-1e308', '1E-5', '1.', '.5', '+5', '-0', '00',
      '-1', '0', '2147483647', '2147483648', '9007199254740993', '9223372036854775808', '99999999999999999999999', '1.7976931348623157e309',
      '0000-01-01', '0001-01-01', '1899-12-31', '2200-01-01', '9999-12-31', '2023-02-30', '2026-13-45', '2024-02-30', '2023-2-3', '20230203',
      '2023-02-03T00:00:00Z', 'true', 'false', 'null', 'undefined', '[]', '{}', '[1,2]', '{"a":1}',
      '../../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', "' OR '1'='1", "1; DROP TABLE ledger_records; --", '%00', '\u0000', '\u0000abc', '\r\nX-Injected: 1',
      '<script>alert(1)</script>', '${7*7}', '{{7*7}}', 'AAPL,MSFT', 'AAPL,,MSFT', ',', 'aapl', 'A'.repeat(11), 'Ω≈ç√', '𝕏', '\uFFFD', '\uD800',
      'x'.repeat(5000), '9'.repeat(400), 'daily ', ' daily', 'DAILY', 'asc;desc',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
);

/** Hostile JSON bodies: not JSON, the wrong JSON, or too much of it. */
export const hostileBody: fc.Arbitrary<{ text: string; contentType: string }> = fc.oneof(
  fc.constantFrom('', '{', '{"a":', 'null', '[]', '"x"', '1e999', '{"__proto__":{"polluted":true}}', '{"a":1,"a":2}', '\uFEFF{}', '{}garbage').map((text) => ({ text, contentType: 'application/json' })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => ({ text: JSON.stringify(v), contentType: 'application/json' })),
  fc.string({ unit: 'binary', maxLength: 50 }).map((text) => ({ text, contentType: 'application/json' })),
  fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml').map((contentType) => ({ text: '{}', contentType })),
  fc.integer({ min: 1, max: 3 }).map((n) => ({ text: `{"pad":"${'x'.repeat(n * 400_000)}"}`, contentType: 'application/json' })),
  fc.integer({ min: 50, max: 5000 }).map((depth) => ({ text: '['.repeat(depth) + ']'.repeat(depth), contentType: 'application/json' })),
);
